// Captures what a type's rdb_save writes (the plain form: a length, then strings and zset
// doubles) and emits the key in the form Redis 7.0 would: lists as quicklist-2 listpack
// nodes, small integer sets as intsets, small hashes and zsets as listpacks, the rest in the
// plain forms, streamed as rdb_save writes them. Used by one thread, for one key.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/rdb/compact.h"
#include "common/rdb/emitter.h"

namespace plinth::rdb {

// Redis 7.0's defaults for the compact encodings.
constexpr uint64_t kListNodeMaxBytes = 8 * 1024;
constexpr uint64_t kListNodeMaxEntries = 128;
constexpr uint64_t kIntsetMaxEntries = 512;
constexpr uint64_t kListpackMaxEntries = 128;
constexpr size_t kListpackMaxValue = 64;

class CollectionWriter {
 public:
  // OWNERSHIP: out and key are borrowed for the writer's life. plain_type: PLINTH_RDB_LIST,
  // SET, HASH or ZSET_2.
  CollectionWriter(Emitter* out, std::string_view key, int64_t expire_ms, uint32_t plain_type);
  // The io to hand to rdb_save; only its write functions work.
  plinth_rdb_io_t* io() { return &io_; }
  // After rdb_save returned PLINTH_OK: checks it wrote a whole value and emits what is still
  // buffered. An empty value emits nothing (Redis skips empty keys on load). Returns false
  // with *error set when the value was malformed or the sink failed.
  bool Finish(std::string* error);

  // The io's callbacks (ctx is the object).
  static int32_t WriteLen(plinth_rdb_io_t* io, uint64_t n);
  static int32_t WriteString(plinth_rdb_io_t* io, const char* s, size_t len);
  static int32_t WriteDouble(plinth_rdb_io_t* io, double v);

 private:
  enum class Mode { kNoLen, kEmpty, kBuffer, kStream, kList };

  bool Header(uint8_t rdb_type);
  bool Bad(std::string what);
  bool AddListElement(std::string_view s);
  bool FinishList();
  bool FinishSet();
  bool FinishHash();
  bool FinishZset();
  bool NextIsDouble() const { return type_ == PLINTH_RDB_ZSET_2 && pos_ % 2 == 1; }

  Emitter* out_;
  std::string_view key_;
  int64_t expire_ms_;
  uint32_t type_;
  Mode mode_ = Mode::kNoLen;
  uint64_t count_ = 0;
  uint64_t atoms_ = 0;
  uint64_t pos_ = 0;
  std::vector<std::string> strings_;
  std::vector<double> scores_;
  ListpackBuilder node_;
  std::vector<std::string> nodes_;
  std::string error_;
  plinth_rdb_io_t io_{};
};

// The text Redis stores a zset score as in a listpack: an integer when the score is one
// (below 2^53), else the shortest text that reads back as the same double.
std::string ScoreText(double v);

}  // namespace plinth::rdb
