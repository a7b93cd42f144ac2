// Test helpers of the RDB codec tests.
#include "rdb_test_util.h"

#include <cstdio>
#include <cstdlib>

#include "common/rdb/crc64.h"
#include "common/rdb/source.h"

namespace plinth::rdb::test {

int32_t SaveValueForTest(const void* payload, plinth_rdb_io_t* io) {
  const auto* v = static_cast<const Value*>(payload);
  bool pairs = v->type == PLINTH_RDB_HASH;
  uint64_t n = pairs ? v->items.size() / 2 : v->items.size();
  if (io->write_len(io, n) != PLINTH_OK) return PLINTH_ERR;
  for (size_t i = 0; i < v->items.size(); ++i) {
    if (io->write_string(io, v->items[i].data(), v->items[i].size()) != PLINTH_OK) {
      return PLINTH_ERR;
    }
    if (v->type == PLINTH_RDB_ZSET_2 && io->write_double(io, v->scores[i]) != PLINTH_OK) {
      return PLINTH_ERR;
    }
  }
  return PLINTH_OK;
}

bool Recorder::Aux(std::string_view name, std::string_view value) {
  aux[std::string(name)] = std::string(value);
  return true;
}

bool Recorder::SelectDb(uint64_t db) {
  dbs.push_back(db);
  return true;
}

bool Recorder::String(const KeyInfo& key, std::string_view value) {
  if (key.name == refuse_key) return false;
  Value v;
  v.items.emplace_back(value);
  v.expire_ms = key.expire_ms;
  v.rdb_type = key.rdb_type;
  keys[{key.db, std::string(key.name)}] = v;
  infos.push_back(key);
  return true;
}

bool Recorder::Collection(const KeyInfo& key, uint32_t plain_type, plinth_rdb_io_t* io) {
  if (key.name == refuse_key) return false;
  Value v;
  v.type = plain_type;
  v.expire_ms = key.expire_ms;
  v.rdb_type = key.rdb_type;
  if (plain_type == PLINTH_RDB_STREAM_LISTPACKS || plain_type == PLINTH_RDB_STREAM_LISTPACKS_2) {
    // A stream passes through as the file holds it: record its node count, leave the rest.
    uint64_t nodes = 0;
    if (io->read_len(io, &nodes) != PLINTH_OK) return false;
    v.items.push_back(std::to_string(nodes));
    keys[{key.db, std::string(key.name)}] = v;
    infos.push_back(key);
    return true;
  }
  uint64_t n = 0;
  if (io->read_len(io, &n) != PLINTH_OK) return false;
  for (uint64_t i = 0; i < n && i < read_at_most; ++i) {
    int strings = plain_type == PLINTH_RDB_HASH ? 2 : 1;
    for (int k = 0; k < strings; ++k) {
      const char* s = nullptr;
      size_t len = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return false;
      v.items.emplace_back(s, len);
    }
    if (plain_type == PLINTH_RDB_ZSET_2) {
      double d = 0;
      if (io->read_double(io, &d) != PLINTH_OK) return false;
      v.scores.push_back(d);
    }
  }
  keys[{key.db, std::string(key.name)}] = v;
  infos.push_back(key);
  return true;
}

std::string ReadAll(std::string_view rdb, Recorder* r) {
  MemorySource src(rdb);
  Reader reader(&src, r);
  if (reader.Run() == Reader::Status::kDone) return "";
  return reader.error();
}

std::string Le(uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}

FileBuilder::FileBuilder(int version) : version_(version) {
  char h[16];
  std::snprintf(h, sizeof h, "REDIS%04d", version);
  bytes_ = h;
}

FileBuilder& FileBuilder::Byte(uint8_t b) {
  bytes_.push_back(static_cast<char>(b));
  return *this;
}

FileBuilder& FileBuilder::Raw(std::string_view s) {
  bytes_.append(s);
  return *this;
}

FileBuilder& FileBuilder::Len(uint64_t n) {
  if (n < 64) return Byte(static_cast<uint8_t>(n));
  if (n < 16384) return Byte(static_cast<uint8_t>(0x40 | (n >> 8))).Byte(n & 0xff);
  Byte(0x81);
  for (int i = 7; i >= 0; --i) Byte(static_cast<uint8_t>((n >> (8 * i)) & 0xff));
  return *this;
}

FileBuilder& FileBuilder::Str(std::string_view s) { return Len(s.size()).Raw(s); }

std::string FileBuilder::Finish(bool checksum) {
  Byte(0xFF);
  if (version_ >= 5) Raw(Le(checksum ? Crc64(0, bytes_.data(), bytes_.size()) : 0, 8));
  return bytes_;
}

std::string ZiplistForTest(const std::vector<std::pair<bool, std::string>>& entries) {
  std::string body;
  size_t prev = 0, last = 10;
  for (const auto& [as_int, text] : entries) {
    std::string e;
    if (prev < 254) {
      e.push_back(static_cast<char>(prev));
    } else {
      e.push_back(static_cast<char>(0xFE));
      e += Le(prev, 4);
    }
    if (as_int) {
      int64_t v = std::strtoll(text.c_str(), nullptr, 10);
      if (v >= 0 && v <= 12) {
        e.push_back(static_cast<char>(0xF1 + v));
      } else if (v >= -128 && v <= 127) {
        e.push_back(static_cast<char>(0xFE));
        e += Le(static_cast<uint64_t>(v), 1);
      } else if (v >= -32768 && v <= 32767) {
        e.push_back(static_cast<char>(0xC0));
        e += Le(static_cast<uint64_t>(v), 2);
      } else if (v >= -(1 << 23) && v < (1 << 23)) {
        e.push_back(static_cast<char>(0xF0));
        e += Le(static_cast<uint64_t>(v), 3);
      } else if (v >= INT32_MIN && v <= INT32_MAX) {
        e.push_back(static_cast<char>(0xD0));
        e += Le(static_cast<uint64_t>(v), 4);
      } else {
        e.push_back(static_cast<char>(0xE0));
        e += Le(static_cast<uint64_t>(v), 8);
      }
    } else if (text.size() < 64) {
      e.push_back(static_cast<char>(text.size()));
      e += text;
    } else if (text.size() < 16384) {
      e.push_back(static_cast<char>(0x40 | (text.size() >> 8)));
      e.push_back(static_cast<char>(text.size() & 0xff));
      e += text;
    } else {
      e.push_back(static_cast<char>(0x80));
      for (int i = 3; i >= 0; --i) e.push_back(static_cast<char>((text.size() >> (8 * i)) & 0xff));
      e += text;
    }
    last = 10 + body.size();
    body += e;
    prev = e.size();
  }
  std::string z = Le(10 + body.size() + 1, 4) + Le(last, 4) + Le(entries.size(), 2) + body;
  z.push_back(static_cast<char>(0xFF));
  return z;
}

}  // namespace plinth::rdb::test
