// An RDB version 10 writer (the version Redis 7.0 writes and reads): the header, aux fields,
// db selection, and keys, each collection captured from its type's rdb_save and written in
// the encoding Redis 7.0 would pick, then the EOF opcode and the CRC64. Used by one thread
// (the saving thread or a forked child).
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "common/rdb/emitter.h"
#include "common/rdb/sink.h"

namespace plinth::rdb {

struct WriterOptions {
  bool compression = true;  // rdbcompression: LZF for strings longer than 20 bytes
  bool checksum = true;     // rdbchecksum: when off the file ends with 8 zero bytes
};

// A type's rdb_save (plinth_type_spec_t::rdb_save has this shape).
using SaveFn = int32_t (*)(const void* payload, plinth_rdb_io_t* io);

class Writer {
 public:
  // OWNERSHIP: sink is borrowed and must outlive the writer.
  explicit Writer(Sink* sink, WriterOptions options = {})
      : out_(sink, options.compression), options_(options) {}

  // Every method writes one part and returns true, or false with error() set; after a
  // failure the output is unusable and every later call fails.

  // "REDIS0010". First.
  bool Begin();
  // An aux field; AuxInt writes the number as Redis does (an integer-encoded string), as for
  // redis-bits, ctime, used-mem and aof-base.
  bool Aux(std::string_view name, std::string_view value);
  bool AuxInt(std::string_view name, int64_t value);
  bool SelectDb(uint64_t db);
  bool ResizeDb(uint64_t keys, uint64_t expires);
  // A string key; expire_ms: absolute unix time in ms, or -1 for none.
  bool String(std::string_view key, int64_t expire_ms, std::string_view value);
  // A collection key whose value save(payload, io) writes in the plain form plain_type
  // (PLINTH_RDB_LIST, SET, HASH or ZSET_2). A value with no element writes nothing. Fails when
  // save fails or writes a length and a different number of elements. A stream
  // (PLINTH_RDB_STREAM_LISTPACKS_2) is written as save gives it, empty or not.
  bool Collection(std::string_view key, int64_t expire_ms, uint32_t plain_type, SaveFn save,
                  const void* payload);
  // The EOF opcode and the checksum, then flushes the sink. Last.
  bool Finish();

  const std::string& error() const { return out_.error(); }
  uint64_t bytes_written() const { return out_.offset(); }

 private:
  bool Stream(std::string_view key, int64_t expire_ms, SaveFn save, const void* payload);

  Emitter out_;
  WriterOptions options_;
};

}  // namespace plinth::rdb
