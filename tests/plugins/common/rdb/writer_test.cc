// Writer to reader round trips of every type and encoding choice, with expiries and several
// dbs; string encodings; checksum off; rdb_save misbehaving; fd sink and source.
#include "common/rdb/writer.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include "common/rdb/format.h"
#include "common/rdb/source.h"
#include "common/rdb/verify.h"
#include "rdb_test_util.h"

namespace plinth::rdb {
namespace {

using test::Recorder;
using test::Value;

Value Coll(uint32_t type, std::vector<std::string> items, std::vector<double> scores = {},
           int64_t expire_ms = -1) {
  Value v;
  v.type = type;
  v.items = std::move(items);
  v.scores = std::move(scores);
  v.expire_ms = expire_ms;
  return v;
}

std::vector<std::string> Numbered(const std::string& prefix, int n, size_t pad = 0) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i) + std::string(pad, '.'));
  return out;
}

// Keys in (db, name) order with the rdb type each should be written as.
std::map<std::pair<uint64_t, std::string>, std::pair<Value, int>> Sample() {
  std::map<std::pair<uint64_t, std::string>, std::pair<Value, int>> m;
  Value s;
  s.items = {"hello"};
  m[{0, "str"}] = {s, kTypeString};
  s.items = {"12345"};
  s.expire_ms = 1900000000000;
  m[{0, "int"}] = {s, kTypeString};
  s.items = {std::string(1000, 'z')};
  s.expire_ms = -1;
  m[{0, "long"}] = {s, kTypeString};
  m[{0, "list"}] = {Coll(PLINTH_RDB_LIST, {"a", "1", "-5", ""}, {}, 1800000000000),
                    kTypeListQuicklist2};
  m[{0, "biglist"}] = {Coll(PLINTH_RDB_LIST, Numbered("e", 1000, 30)), kTypeListQuicklist2};
  m[{0, "intset"}] = {Coll(PLINTH_RDB_SET, {"3", "-2", "70000", "9000000000"}), kTypeSetIntset};
  m[{1, "strset"}] = {Coll(PLINTH_RDB_SET, {"x", "1"}), kTypeSet};
  m[{1, "bigset"}] = {Coll(PLINTH_RDB_SET, Numbered("", 600)), kTypeSet};
  m[{1, "hash"}] = {Coll(PLINTH_RDB_HASH, {"f", "v", "n", "42"}, {}, 5), kTypeHashListpack};
  m[{1, "widehash"}] = {Coll(PLINTH_RDB_HASH, {"f", std::string(65, 'w')}), kTypeHash};
  m[{1, "bighash"}] = {Coll(PLINTH_RDB_HASH, Numbered("k", 300)), kTypeHash};
  std::vector<double> scores = {3, -1.5, 1e300, INFINITY};
  m[{2, "zset"}] = {Coll(PLINTH_RDB_ZSET_2, {"c", "a", "d", "b"}, scores), kTypeZsetListpack};
  m[{2, "widezset"}] = {Coll(PLINTH_RDB_ZSET_2, {std::string(65, 'm')}, {0.1}), kTypeZset2};
  std::vector<double> many;
  for (int i = 0; i < 200; ++i) many.push_back(i * 0.25);
  m[{2, "bigzset"}] = {Coll(PLINTH_RDB_ZSET_2, Numbered("m", 200), many), kTypeZset2};
  return m;
}

std::string WriteSample(WriterOptions options = {}) {
  std::string out;
  MemorySink sink(&out);
  Writer w(&sink, options);
  REQUIRE(w.Begin());
  REQUIRE(w.Aux("redis-ver", "7.0.15"));
  REQUIRE(w.AuxInt("redis-bits", 64));
  REQUIRE(w.AuxInt("ctime", 1700000000));
  REQUIRE(w.AuxInt("used-mem", 1234567));
  REQUIRE(w.AuxInt("aof-base", 0));
  auto sample = Sample();
  uint64_t db = UINT64_MAX;
  for (auto& [k, entry] : sample) {
    if (k.first != db) {
      db = k.first;
      REQUIRE(w.SelectDb(db));
      REQUIRE(w.ResizeDb(5, 1));
    }
    const Value& v = entry.first;
    if (v.type == 0) {
      REQUIRE(w.String(k.second, v.expire_ms, v.items[0]));
    } else {
      REQUIRE_MESSAGE(w.Collection(k.second, v.expire_ms, v.type, &test::SaveValueForTest, &v),
                      w.error());
    }
  }
  REQUIRE(w.Finish());
  CHECK(w.bytes_written() == out.size());
  return out;
}

// The zset a listpack round trip gives back: sorted by score, then member.
Value SortedZset(Value v) {
  std::vector<std::pair<double, std::string>> p;
  for (size_t i = 0; i < v.items.size(); ++i) p.push_back({v.scores[i], v.items[i]});
  std::sort(p.begin(), p.end());
  v.items.clear();
  v.scores.clear();
  for (auto& [s, m] : p) v.items.push_back(m), v.scores.push_back(s);
  return v;
}

TEST_CASE("rdb writer: every type round trips through the reader with expiries and dbs") {
  for (bool compression : {true, false}) {
    std::string file = WriteSample({compression, true});
    Recorder r;
    REQUIRE(test::ReadAll(file, &r) == "");
    CHECK(r.aux["redis-ver"] == "7.0.15");
    CHECK(r.aux["aof-base"] == "0");
    CHECK(r.dbs == std::vector<uint64_t>{0, 1, 2});
    auto sample = Sample();
    CHECK(r.keys.size() == sample.size());
    for (auto& [k, entry] : sample) {
      INFO("key " << k.second);
      auto it = r.keys.find(k);
      REQUIRE(it != r.keys.end());
      Value want = entry.second == kTypeZsetListpack ? SortedZset(entry.first) : entry.first;
      if (entry.second == kTypeSetIntset) {
        std::sort(want.items.begin(), want.items.end(),
                  [](auto& a, auto& b) { return std::stoll(a) < std::stoll(b); });
      }
      CHECK(it->second == want);
      CHECK(static_cast<int>(it->second.rdb_type) == entry.second);
    }
  }
}

TEST_CASE("rdb writer: integers are int-encoded and long strings LZF compressed") {
  std::string on = WriteSample({true, true});
  std::string off = WriteSample({false, true});
  CHECK(on.size() + 5000 < off.size());
  CHECK(on.rfind("REDIS0010", 0) == 0);
  // "12345" as an int16 string: 0xC1 then 0x3039 little endian.
  CHECK(on.find("\x03int\xc1\x39\x30") != std::string::npos);
}

TEST_CASE("rdb writer: with checksums off the file ends in 8 zero bytes and still reads") {
  std::string file = WriteSample({true, false});
  CHECK(file.substr(file.size() - 8) == std::string(8, '\0'));
  Recorder r;
  CHECK(test::ReadAll(file, &r) == "");
}

int32_t WrongCount(const void*, plinth_rdb_io_t* io) {
  if (io->write_len(io, 3) != PLINTH_OK) return PLINTH_ERR;
  return io->write_string(io, "a", 1);
}

int32_t Fails(const void*, plinth_rdb_io_t* io) {
  io->write_len(io, 1);
  return PLINTH_ERR;
}

int32_t DoubleInList(const void*, plinth_rdb_io_t* io) {
  io->write_len(io, 1);
  return io->write_double(io, 1.0);
}

TEST_CASE("rdb writer: refuses an rdb_save that fails or writes the wrong count") {
  std::string out;
  MemorySink sink(&out);
  {
    Writer w(&sink);
    REQUIRE(w.Begin());
    CHECK_FALSE(w.Collection("k", -1, PLINTH_RDB_LIST, &WrongCount, nullptr));
    CHECK(w.error() == "rdb_save wrote 1 of 3 elements");
    CHECK_FALSE(w.Finish());
  }
  Writer w2(&sink);
  CHECK_FALSE(w2.Collection("k", -1, PLINTH_RDB_SET, &Fails, nullptr));
  CHECK(w2.error().rfind("rdb_save failed", 0) == 0);
  Writer w3(&sink);
  CHECK_FALSE(w3.Collection("k", -1, PLINTH_RDB_LIST, &DoubleInList, nullptr));
  Writer w4(&sink);
  CHECK_FALSE(w4.Collection("k", -1, 3, &Fails, nullptr));
}

TEST_CASE("rdb writer: an empty collection writes nothing") {
  std::string out;
  MemorySink sink(&out);
  Writer w(&sink);
  REQUIRE(w.Begin());
  Value empty = Coll(PLINTH_RDB_HASH, {});
  REQUIRE(w.Collection("k", 99, PLINTH_RDB_HASH, &test::SaveValueForTest, &empty));
  CHECK(out == "REDIS0010");
}

TEST_CASE("rdb writer: fd sink and fd source round trip a file") {
  char path[] = "/tmp/plinth_rdb_test_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  {
    FdSink sink(fd);
    Writer w(&sink);
    REQUIRE(w.Begin());
    Value big = Coll(PLINTH_RDB_LIST, Numbered("item-", 20000, 10));
    REQUIRE(w.Collection("l", -1, PLINTH_RDB_LIST, &test::SaveValueForTest, &big));
    REQUIRE(w.String("s", -1, std::string(200000, 'q')));
    REQUIRE(w.Finish());
  }
  REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
  FdSource src(fd);
  VerifyReport report;
  CHECK_MESSAGE(Verify(&src, &report), report.error);
  CHECK(report.keys == 2);
  CHECK(report.keys_by_rdb_type[kTypeListQuicklist2] == 1);
  close(fd);
  unlink(path);
}

// Writes the sample to $PLINTH_RDB_SAMPLE_OUT, for checking with redis-check-rdb by hand.
TEST_CASE("rdb writer: writes the sample file when asked") {
  const char* path = std::getenv("PLINTH_RDB_SAMPLE_OUT");
  if (path == nullptr) return;
  std::string file = WriteSample();
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  CHECK(write(fd, file.data(), file.size()) == static_cast<ssize_t>(file.size()));
  close(fd);
}

// Writes fuzz seeds (a control byte, then a small file) to $PLINTH_RDB_CORPUS_DIR.
TEST_CASE("rdb writer: writes fuzz seed files when asked") {
  const char* dir = std::getenv("PLINTH_RDB_CORPUS_DIR");
  if (dir == nullptr) return;
  auto save = [dir](const std::string& name, const std::string& file) {
    std::string path = std::string(dir) + "/" + name;
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    std::string seed = "\x02" + file;
    CHECK(write(fd, seed.data(), seed.size()) == static_cast<ssize_t>(seed.size()));
    close(fd);
  };
  std::string a;
  MemorySink sa(&a);
  Writer wa(&sa);
  REQUIRE((wa.Begin() && wa.Aux("redis-ver", "7.0.15") && wa.AuxInt("redis-bits", 64) &&
           wa.SelectDb(0) && wa.ResizeDb(3, 1) && wa.String("s", -1, "v") &&
           wa.String("n", 1800000000000, "-70000") &&
           wa.String("z", -1, std::string(40, 'z') + "tail") && wa.Finish()));
  save("strings.rdb", a);
  std::string b;
  MemorySink sb(&b);
  Writer wb(&sb);
  REQUIRE(wb.Begin());
  Value l = Coll(PLINTH_RDB_LIST, {"a", "1", "long-element-long-element-x"});
  Value is = Coll(PLINTH_RDB_SET, {"1", "-300", "70000"});
  Value ss = Coll(PLINTH_RDB_SET, {"m", "n"});
  Value h = Coll(PLINTH_RDB_HASH, {"f", "v", "g", "5"});
  Value z = Coll(PLINTH_RDB_ZSET_2, {"a", "b"}, {1.5, -2});
  Value wz = Coll(PLINTH_RDB_ZSET_2, {std::string(65, 'w')}, {3});
  REQUIRE(
      (wb.SelectDb(2) && wb.Collection("l", 5000, PLINTH_RDB_LIST, &test::SaveValueForTest, &l) &&
       wb.Collection("is", -1, PLINTH_RDB_SET, &test::SaveValueForTest, &is) &&
       wb.Collection("ss", -1, PLINTH_RDB_SET, &test::SaveValueForTest, &ss) &&
       wb.Collection("h", -1, PLINTH_RDB_HASH, &test::SaveValueForTest, &h) &&
       wb.Collection("z", -1, PLINTH_RDB_ZSET_2, &test::SaveValueForTest, &z) &&
       wb.Collection("wz", -1, PLINTH_RDB_ZSET_2, &test::SaveValueForTest, &wz) && wb.Finish()));
  save("collections.rdb", b);
}

}  // namespace
}  // namespace plinth::rdb
