// Helpers of the RDB codec tests: a builder of RDB bytes by hand (following the format, not
// the writer), a visitor that records every key, and a test payload with its rdb_save.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/rdb/reader.h"

namespace plinth::rdb::test {

// A value as the tests see it: a string (type 0) or a plain collection. Hash items alternate
// field and value; zset items are members with scores beside them.
struct Value {
  uint32_t type = 0;
  std::vector<std::string> items;
  std::vector<double> scores;
  int64_t expire_ms = -1;
  uint8_t rdb_type = 0;  // filled in by Recorder
  bool operator==(const Value& o) const {
    return type == o.type && items == o.items && scores == o.scores && expire_ms == o.expire_ms;
  }
};

// rdb_save of a Value: writes it in its plain form.
int32_t SaveValueForTest(const void* payload, plinth_rdb_io_t* io);

// Records keys by (db, name) and aux fields.
class Recorder : public Visitor {
 public:
  bool Aux(std::string_view name, std::string_view value) override;
  bool SelectDb(uint64_t db) override;
  bool String(const KeyInfo& key, std::string_view value) override;
  bool Collection(const KeyInfo& key, uint32_t plain_type, plinth_rdb_io_t* io) override;
  std::string Error() const override { return "recorder refused"; }

  std::map<std::pair<uint64_t, std::string>, Value> keys;
  std::map<std::string, std::string> aux;
  std::vector<uint64_t> dbs;
  std::vector<KeyInfo> infos;      // name views are dangling; metadata only
  std::string refuse_key;          // a key to return false for
  size_t read_at_most = SIZE_MAX;  // elements to read of each collection
};

// Reads rdb to its end with r. Returns "" or the reader's error.
std::string ReadAll(std::string_view rdb, Recorder* r);

// RDB bytes by hand.
class FileBuilder {
 public:
  explicit FileBuilder(int version = 10);
  FileBuilder& Byte(uint8_t b);
  FileBuilder& Raw(std::string_view s);
  FileBuilder& Len(uint64_t n);
  FileBuilder& Str(std::string_view s);  // a raw (unencoded) string
  // The EOF opcode and, from version 5, the checksum (or zero when checksum is false).
  std::string Finish(bool checksum = true);
  const std::string& bytes() const { return bytes_; }

 private:
  int version_;
  std::string bytes_;
};

// Little endian bytes of v.
std::string Le(uint64_t v, int n);

// A ziplist of entries built here from the format description (strings, or integers when
// as_int), for decoder tests independent of any encoder.
std::string ZiplistForTest(const std::vector<std::pair<bool, std::string>>& entries);

}  // namespace plinth::rdb::test
