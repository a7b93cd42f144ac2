// The reader's view of its source: RDB lengths, strings (integer and LZF encodings) and
// doubles, with the byte offset and running CRC64 of everything consumed. The first failure
// is kept as the error, ending "at offset N" with N the start of the item being read. Used
// by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/rdb/source.h"

namespace plinth::rdb {

class Input {
 public:
  // OWNERSHIP: source is borrowed and must outlive the input.
  explicit Input(Source* source) : source_(source) {}

  // Records the current offset as the start of the next item, for error messages.
  void MarkItem() { item_start_ = offset_; }
  uint64_t item_start() const { return item_start_; }
  uint64_t offset() const { return offset_; }
  // CRC64 of every byte consumed so far.
  uint64_t crc() const { return crc_; }

  // Sets the error "<what> at offset <item start>" unless one is set. Returns false.
  bool Fail(std::string_view what);
  // Like Fail, naming an explicit offset.
  bool FailAt(std::string_view what, uint64_t offset);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }

  // Each reads one thing and returns true, or returns false with the error set.
  bool Bytes(void* p, size_t n);
  bool Byte(uint8_t* b);
  // A plain length (an encoded one is an error).
  bool Len(uint64_t* n);
  // A string in any of its encodings into *out (replacing its contents). Memory grows as the
  // bytes arrive, so a huge declared length costs only what the file holds.
  bool String(std::string* out);
  // A ZSET_2 score: 8 bytes, little endian.
  bool BinaryDouble(double* v);
  // A ZSET (type 3) score: a length byte (253 nan, 254 inf, 255 -inf) and that much text.
  bool StringDouble(double* v);

 private:
  // A length, or with *encoded set the special string encoding it names.
  bool RawLen(uint64_t* n, bool* encoded);
  bool RawBytes(std::string* out, uint64_t n);
  bool LzfString(std::string* out);

  Source* source_;
  uint64_t offset_ = 0;
  uint64_t item_start_ = 0;
  uint64_t crc_ = 0;
  std::string error_;
  uint64_t error_offset_ = 0;
  std::string scratch_;
};

// Parses a score written as text (a ziplist/listpack zset score or a type 3 score): decimal,
// "inf", "-inf", "nan". Returns false on anything else.
bool ParseScore(std::string_view text, double* v);

}  // namespace plinth::rdb
