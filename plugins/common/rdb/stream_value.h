// Redis's stream values (RDB types 15, 19 and 21) as the reader and writer pass them through:
// the reader walks a value's structure (nodes, metadata, groups, PELs, consumers) into tokens
// so a malformed or truncated value fails at its offset and a loader that stops early leaves
// the file in step; StreamValueReplay hands the tokens to a type's rdb_load in order; and
// StreamValueWriter writes what a type's rdb_save gives straight to the file. The stream's own
// meaning (listpack layout, id order) is checked by the type that loads it. One thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/rdb/emitter.h"
#include "common/rdb/input.h"

namespace plinth::rdb {

struct StreamToken {
  enum Kind { kLen, kString, kRaw } kind;
  uint64_t len = 0;   // kLen
  std::string bytes;  // kString, kRaw
};

// Reads one stream value of RDB type type (15, 19 or 21) from in into *out, and in *form the
// form the tokens have: 21 (Redis 7.4) is given as 19 without the consumers' active times,
// which Redis 7.0 does not have, so a type registered for 19 loads it. False with the input's
// error set when it is malformed or cut short.
bool ReadStreamValue(Input* in, uint8_t type, std::vector<StreamToken>* out, uint32_t* form);

// A plinth_rdb_io_t over tokens: read_len, read_string and read_raw (of exactly the token's
// size) in order; every other function fails.
class StreamValueReplay {
 public:
  explicit StreamValueReplay(std::vector<StreamToken> tokens);
  plinth_rdb_io_t* io() { return &io_; }

 private:
  static int32_t ReadLen(plinth_rdb_io_t* io, uint64_t* n);
  static int32_t ReadString(plinth_rdb_io_t* io, const char** s, size_t* len);
  static int32_t ReadRaw(plinth_rdb_io_t* io, void* p, size_t len);
  const StreamToken* Next(StreamToken::Kind kind);

  std::vector<StreamToken> tokens_;
  size_t pos_ = 0;
  plinth_rdb_io_t io_{};
};

// A plinth_rdb_io_t that writes lengths, strings and raw bytes to out as they come.
class StreamValueWriter {
 public:
  explicit StreamValueWriter(Emitter* out);
  plinth_rdb_io_t* io() { return &io_; }

 private:
  static int32_t WriteLen(plinth_rdb_io_t* io, uint64_t n);
  static int32_t WriteString(plinth_rdb_io_t* io, const char* s, size_t len);
  static int32_t WriteRaw(plinth_rdb_io_t* io, const void* p, size_t len);

  Emitter* out_;
  plinth_rdb_io_t io_{};
};

}  // namespace plinth::rdb
