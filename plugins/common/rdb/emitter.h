// The writer's low level: RDB lengths, strings (integer and LZF encodings as Redis picks
// them) and doubles pushed to a Sink, with the running CRC64 and byte count. The first
// failure is kept as the error. Used by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/rdb/sink.h"

namespace plinth::rdb {

class Emitter {
 public:
  // OWNERSHIP: sink is borrowed. compression: LZF for strings longer than 20 bytes.
  Emitter(Sink* sink, bool compression) : sink_(sink), compression_(compression) {}

  // Each writes one thing; false once the sink failed or Fail was called.
  bool Bytes(const void* p, size_t n);
  bool Byte(uint8_t b) { return Bytes(&b, 1); }
  bool Len(uint64_t n);
  // A string: as an integer when it is the canonical text of one that fits 32 bits, else LZF
  // compressed when that saves at least 4 bytes, else raw.
  bool String(std::string_view s);
  // 8 bytes, little endian.
  bool BinaryDouble(double v);
  // A little endian integer of n bytes.
  bool Le(uint64_t v, int n);

  // Sets the error unless one is set. Returns false.
  bool Fail(std::string what);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  uint64_t crc() const { return crc_; }
  uint64_t offset() const { return offset_; }
  Sink* sink() { return sink_; }

 private:
  Sink* sink_;
  bool compression_;
  uint64_t crc_ = 0;
  uint64_t offset_ = 0;
  std::string error_;
  std::string lzf_;
};

}  // namespace plinth::rdb
