// The RDB reader over hand-built files: opcodes, every value encoding, refusals, checksum,
// truncation and corruption, visitor control, incremental steps.
#include "common/rdb/reader.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/rdb/compact.h"
#include "common/rdb/lzf.h"
#include "common/rdb/source.h"
#include "common/rdb/verify.h"
#include "rdb_test_util.h"

namespace plinth::rdb {
namespace {

using test::FileBuilder;
using test::Le;
using test::Recorder;
using test::Value;
using Strings = std::vector<std::string>;

Value Get(const Recorder& r, const std::string& key, uint64_t db = 0) {
  auto it = r.keys.find({db, key});
  REQUIRE_MESSAGE(it != r.keys.end(), key);
  return it->second;
}

std::string Listpack(const Strings& items) {
  ListpackBuilder b;
  for (auto& s : items) b.Append(s);
  return b.Finish();
}

// A file holding one key of every type, plain and compact, for the tests below.
std::string EveryTypeFile() {
  FileBuilder f(11);
  f.Byte(0xFA).Str("redis-ver").Str("7.2.0");
  f.Byte(0xFE).Len(0).Byte(0xFB).Len(16).Len(0);
  f.Byte(1).Str("list").Len(2).Str("a").Str("b");
  f.Byte(2).Str("set").Len(2).Str("x").Str("y");
  f.Byte(3).Str("zset3").Len(4).Str("m1").Byte(3).Raw("1.5").Str("m2").Byte(253).Str("m3");
  f.Byte(254).Str("m4").Byte(255);
  f.Byte(4).Str("hash").Len(1).Str("f").Str("v");
  f.Byte(5).Str("zset2").Len(1).Str("m").Raw(Le(0x4004000000000000ull, 8));  // 2.5
  std::string zm = std::string(
      "\x01\x01"
      "f\x01\x00"
      "v\xff",
      7);
  f.Byte(9).Str("zipmap").Str(zm);
  f.Byte(10).Str("ziplist").Str(test::ZiplistForTest({{false, "p"}, {true, "-3"}}));
  f.Byte(11).Str("intset").Str(EncodeIntset({5, -7}));
  f.Byte(12).Str("zsetzl").Str(
      test::ZiplistForTest({{false, "a"}, {false, "0.5"}, {false, "b"}, {true, "3"}}));
  f.Byte(13).Str("hashzl").Str(test::ZiplistForTest({{false, "f"}, {true, "100000"}}));
  f.Byte(14)
      .Str("quick")
      .Len(2)
      .Str(test::ZiplistForTest({{false, "q1"}}))
      .Str(test::ZiplistForTest({{false, "q2"}, {true, "9"}}));
  f.Byte(16).Str("hashlp").Str(Listpack({"k1", "v1", "k2", "22"}));
  f.Byte(17).Str("zsetlp").Str(Listpack({"lo", "-1.25", "hi", "7"}));
  f.Byte(18).Str("quick2").Len(3).Len(2).Str(Listpack({"n1", "n2"})).Len(1).Str("plain!");
  f.Len(2).Str(Listpack({"n3"}));
  f.Byte(20).Str("setlp").Str(Listpack({"s1", "42"}));
  return f.Finish();
}

TEST_CASE("rdb reader: reads opcodes, expiries, lru/lfu and every string encoding") {
  std::string original(200, 'r');
  for (int i = 0; i < 200; i += 7) original[i] = 'x';
  std::string packed;
  REQUIRE(LzfCompress(original.data(), original.size(), &packed));
  FileBuilder f(9);
  f.Byte(0xFA).Str("redis-ver").Str("7.0.0");
  f.Byte(0xFA).Str("redis-bits").Byte(0xC0).Byte(64);
  f.Byte(0xFE).Len(0).Byte(0xFB).Len(3).Len(1);
  f.Byte(0xFD).Raw(Le(1000, 4)).Byte(0).Str("s1").Str("plain");
  f.Byte(0xFC).Raw(Le(1700000000123ull, 8)).Byte(0xF8).Len(55).Byte(0).Str("i16");
  f.Byte(0xC1).Raw(Le(static_cast<uint64_t>(-300), 2));
  f.Byte(0xF9).Byte(9).Byte(0).Str("i32").Byte(0xC2).Raw(Le(static_cast<uint64_t>(-70000), 4));
  f.Byte(0).Str("i8").Byte(0xC0).Byte(0x80);
  f.Byte(0).Str("lzf").Byte(0xC3).Len(packed.size()).Len(original.size()).Raw(packed);
  f.Byte(0xFE).Len(300).Byte(0).Str("k").Str("v");
  Recorder r;
  REQUIRE(test::ReadAll(f.Finish(), &r) == "");
  CHECK(r.aux["redis-ver"] == "7.0.0");
  CHECK(r.aux["redis-bits"] == "64");
  CHECK(Get(r, "s1").items == Strings{"plain"});
  CHECK(Get(r, "s1").expire_ms == 1000000);
  CHECK(Get(r, "i16").items == Strings{"-300"});
  CHECK(Get(r, "i16").expire_ms == 1700000000123);
  CHECK(Get(r, "i32").items == Strings{"-70000"});
  CHECK(Get(r, "i32").expire_ms == -1);
  CHECK(Get(r, "i8").items == Strings{"-128"});
  CHECK(Get(r, "lzf").items == Strings{original});
  CHECK(Get(r, "k", 300).items == Strings{"v"});
  CHECK(r.dbs == std::vector<uint64_t>{0, 300});
  REQUIRE(r.infos.size() == 6);
  CHECK(r.infos[1].idle_s == 55);
  CHECK(r.infos[1].freq == -1);
  CHECK(r.infos[2].freq == 9);
  CHECK(r.infos[2].idle_s == -1);
}

TEST_CASE("rdb reader: presents every plain and compact type in its plain form") {
  Recorder r;
  REQUIRE(test::ReadAll(EveryTypeFile(), &r) == "");
  CHECK(Get(r, "list").items == Strings{"a", "b"});
  CHECK(Get(r, "list").type == PLINTH_RDB_LIST);
  CHECK(Get(r, "set").items == Strings{"x", "y"});
  Value z3 = Get(r, "zset3");
  CHECK(z3.type == PLINTH_RDB_ZSET_2);
  CHECK(z3.items == Strings{"m1", "m2", "m3", "m4"});
  CHECK(z3.scores[0] == 1.5);
  CHECK(z3.scores[1] != z3.scores[1]);  // nan
  CHECK(z3.scores[2] == HUGE_VAL);
  CHECK(z3.scores[3] == -HUGE_VAL);
  CHECK(Get(r, "hash").items == Strings{"f", "v"});
  CHECK(Get(r, "zset2").scores == std::vector<double>{2.5});
  CHECK(Get(r, "zipmap").items == Strings{"f", "v"});
  CHECK(Get(r, "zipmap").type == PLINTH_RDB_HASH);
  CHECK(Get(r, "ziplist").items == Strings{"p", "-3"});
  CHECK(Get(r, "intset").items == Strings{"-7", "5"});
  CHECK(Get(r, "intset").type == PLINTH_RDB_SET);
  CHECK(Get(r, "zsetzl").items == Strings{"a", "b"});
  CHECK(Get(r, "zsetzl").scores == std::vector<double>{0.5, 3});
  CHECK(Get(r, "hashzl").items == Strings{"f", "100000"});
  CHECK(Get(r, "quick").items == Strings{"q1", "q2", "9"});
  CHECK(Get(r, "hashlp").items == Strings{"k1", "v1", "k2", "22"});
  CHECK(Get(r, "zsetlp").scores == std::vector<double>{-1.25, 7});
  CHECK(Get(r, "quick2").items == Strings{"n1", "n2", "plain!", "n3"});
  CHECK(Get(r, "setlp").items == Strings{"s1", "42"});
  CHECK(r.keys.size() == 15);
}

TEST_CASE("rdb reader: truncation at every byte offset gives an error with an offset") {
  std::string file = EveryTypeFile();
  for (size_t n = 0; n < file.size(); ++n) {
    Recorder r;
    std::string err = test::ReadAll(std::string_view(file.data(), n), &r);
    INFO("cut at " << n << ": " << err);
    CHECK(err.find("unexpected end of file") != std::string::npos);
    CHECK(err.find(" at offset ") != std::string::npos);
  }
}

TEST_CASE("rdb reader: a flipped byte anywhere gives an error, never a crash") {
  std::string file = EveryTypeFile();
  for (size_t i = 9; i < file.size(); ++i) {
    for (int bit : {0, 7}) {
      std::string bad = file;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      Recorder r;
      std::string err = test::ReadAll(bad, &r);
      INFO("flipped byte " << i << " bit " << bit);
      CHECK(err.find(" at offset ") != std::string::npos);
    }
  }
}

TEST_CASE("rdb reader: refuses a bad checksum with its offset, accepts a zero one") {
  std::string file = FileBuilder(10).Byte(0).Str("k").Str("v").Finish();
  size_t crc_at = file.size() - 8;
  std::string bad = file;
  bad[crc_at + 3] ^= 0x10;
  Recorder r;
  std::string err = test::ReadAll(bad, &r);
  CHECK(err.rfind("RDB checksum mismatch", 0) == 0);
  CHECK(err.find("at offset " + std::to_string(crc_at)) != std::string::npos);
  std::string zero = FileBuilder(10).Byte(0).Str("k").Str("v").Finish(false);
  CHECK(test::ReadAll(zero, &r) == "");
  std::string v4 = FileBuilder(4).Byte(0).Str("k").Str("v").Finish();
  CHECK(test::ReadAll(v4, &r) == "");
  std::string body_flip = file;
  body_flip[11] = 'w';  // the key "k" becomes "w": parses, but the checksum catches it
  CHECK(test::ReadAll(body_flip, &r).rfind("RDB checksum mismatch", 0) == 0);
}

TEST_CASE("rdb reader: refuses a newer version, a bad magic and an unknown type") {
  Recorder r;
  CHECK(test::ReadAll(FileBuilder(12).Finish(), &r) ==
        "RDB version 12 is newer than the newest this server reads (11) at offset 5");
  CHECK(test::ReadAll("REDIX0010\xff", &r).find("at offset 0") != std::string::npos);
  CHECK(test::ReadAll("REDIS00a0\xff", &r).find("at offset 5") != std::string::npos);
  std::string f = FileBuilder(10).Byte(0).Str("k").Str("v").Byte(8).Str("x").Finish();
  CHECK(test::ReadAll(f, &r) == "unknown value type 8 at offset 14");
}

TEST_CASE("rdb reader: passes stream values through, 7.4's as the 7.0 form") {
  for (int t : {15, 19, 21}) {
    Recorder r;
    FileBuilder b(11);
    b.Byte(static_cast<uint8_t>(t)).Str("s").Len(0).Len(0).Len(5).Len(1);  // empty, last id 5-1
    if (t != 15) b.Len(0).Len(0).Len(0).Len(0).Len(3);  // first id, largest deleted, added
    b.Len(1).Str("g").Len(5).Len(1);                    // one group at 5-1
    if (t != 15) b.Len(3);                              // entries read
    b.Len(0).Len(1).Str("c").Raw(std::string(t == 21 ? 16 : 8, '\1')).Len(0);  // one consumer
    CHECK(test::ReadAll(b.Finish(), &r) == "");
    REQUIRE(r.keys.count({0, "s"}) == 1);
    CHECK(r.keys[{0, "s"}].type == (t == 15 ? 15u : 19u));
    CHECK(r.keys[{0, "s"}].items == std::vector<std::string>{"0"});
    std::string cut = FileBuilder(11).Byte(static_cast<uint8_t>(t)).Str("s").Len(0).Finish();
    CHECK(test::ReadAll(cut, &r).find("at offset") != std::string::npos);
  }
  Recorder r;
  std::string badkey = FileBuilder(11).Byte(19).Str("s").Len(1).Str("short").Finish();
  CHECK(test::ReadAll(badkey, &r) == "stream node key is not a stream id at offset 9");
}

TEST_CASE("rdb reader: refuses module values and module aux with the offset") {
  Recorder r;
  uint64_t id = 0;  // "ReJSON-RL" in 6-bit symbols, version 3
  const std::string name = "ReJSON-RL";
  const std::string symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (char c : name) id = (id << 6) | symbols.find(c);
  id = (id << 10) | 3;
  std::string mod = FileBuilder(10).Byte(0).Str("k").Str("v").Byte(7).Str("j").Len(id).Finish();
  CHECK(test::ReadAll(mod, &r) ==
        "unknown module type (module 'ReJSON-RL', RDB type 7) at offset 14");
  std::string aux = FileBuilder(10).Byte(0xF7).Len(id).Finish();
  CHECK(test::ReadAll(aux, &r).find("module aux data is not supported") == 0);
  CHECK(test::ReadAll(aux, &r).find("at offset 9") != std::string::npos);
  std::string fn = FileBuilder(10).Byte(0xF5).Str("#!lua name=x").Finish();
  CHECK(test::ReadAll(fn, &r) ==
        "functions are not supported (this server has no functions yet) at offset 9");
}

TEST_CASE("rdb reader: a visitor refusal stops the reader at the key's offset") {
  std::string f = FileBuilder(10)
                      .Byte(0)
                      .Str("a")
                      .Str("1")
                      .Byte(2)
                      .Str("bad")
                      .Len(1)
                      .Str("m")
                      .Byte(0)
                      .Str("c")
                      .Str("3")
                      .Finish();
  Recorder r;
  r.refuse_key = "bad";
  CHECK(test::ReadAll(f, &r) == "recorder refused at offset 14");
  CHECK(r.keys.size() == 1);
}

TEST_CASE("rdb reader: elements a visitor leaves unread are skipped") {
  std::string f = FileBuilder(10)
                      .Byte(4)
                      .Str("h")
                      .Len(3)
                      .Str("f1")
                      .Str("v1")
                      .Str("f2")
                      .Str("v2")
                      .Str("f3")
                      .Str("v3")
                      .Byte(5)
                      .Str("z")
                      .Len(2)
                      .Str("a")
                      .Raw(Le(0, 8))
                      .Str("b")
                      .Raw(Le(0, 8))
                      .Byte(0)
                      .Str("s")
                      .Str("after")
                      .Finish();
  Recorder r;
  r.read_at_most = 1;
  REQUIRE(test::ReadAll(f, &r) == "");
  CHECK(Get(r, "h").items == Strings{"f1", "v1"});
  CHECK(Get(r, "s").items == Strings{"after"});
}

TEST_CASE("rdb reader: skips empty collections as Redis does") {
  std::string f = FileBuilder(10)
                      .Byte(1)
                      .Str("l")
                      .Len(0)
                      .Byte(11)
                      .Str("i")
                      .Str(EncodeIntset({}))
                      .Byte(18)
                      .Str("q")
                      .Len(1)
                      .Len(2)
                      .Str(Listpack({}))
                      .Byte(0)
                      .Str("s")
                      .Str("v")
                      .Finish();
  MemorySource src(f);
  Recorder r;
  Reader reader(&src, &r);
  CHECK(reader.Run() == Reader::Status::kDone);
  CHECK(reader.empty_keys_skipped() == 3);
  CHECK(r.keys.size() == 1);
}

TEST_CASE("rdb reader: huge declared lengths fail on the missing bytes, not on allocation") {
  Recorder r;
  std::string s = FileBuilder(10).Byte(0).Str("k").Len(uint64_t{1} << 60).Finish();
  CHECK(test::ReadAll(s, &r).find("unexpected end of file") == 0);
  std::string l = FileBuilder(10).Byte(1).Str("k").Len(uint64_t{1} << 40).Str("a").Finish();
  CHECK(test::ReadAll(l, &r).find(" at offset 9") != std::string::npos);
  std::string z = FileBuilder(10)
                      .Byte(0)
                      .Str("k")
                      .Byte(0xC3)
                      .Len(2)
                      .Len(uint64_t{1} << 50)
                      .Raw(
                          "\x00"
                          "a")
                      .Finish();
  CHECK(test::ReadAll(z, &r) == "LZF length larger than possible at offset 9");
  std::string q = FileBuilder(10).Byte(18).Str("k").Len(uint64_t{1} << 50).Finish();
  CHECK(test::ReadAll(q, &r).find(" at offset 9") != std::string::npos);
}

TEST_CASE("rdb reader: Step reads one item per call") {
  std::string f = FileBuilder(10).Byte(0xFE).Len(1).Byte(0).Str("a").Str("1").Finish();
  MemorySource src(f);
  Recorder r;
  Reader reader(&src, &r);
  CHECK(reader.Step() == Reader::Status::kMore);  // header
  CHECK(reader.version() == 10);
  CHECK(reader.Step() == Reader::Status::kMore);  // SELECTDB
  CHECK(r.keys.empty());
  CHECK(reader.Step() == Reader::Status::kMore);  // the key
  CHECK(r.keys.size() == 1);
  CHECK(reader.Step() == Reader::Status::kDone);
  CHECK(reader.checksum_verified());
  CHECK(reader.Step() == Reader::Status::kDone);
  CHECK(reader.offset() == f.size());
}

TEST_CASE("rdb verify: counts keys per type and encoding, and reports the first error") {
  std::string file = EveryTypeFile();
  MemorySource src(file);
  VerifyReport report;
  REQUIRE(Verify(&src, &report));
  CHECK(report.version == 11);
  CHECK(report.keys == 15);
  CHECK(report.keys_by_type["hash"] == 4);
  CHECK(report.keys_by_type["list"] == 4);
  CHECK(report.keys_by_type["set"] == 3);
  CHECK(report.keys_by_type["zset"] == 4);
  CHECK(report.keys_by_rdb_type[18] == 1);
  CHECK(report.aux["redis-ver"] == "7.2.0");
  CHECK(report.checksum_verified);
  MemorySource cut(std::string_view(file).substr(0, 100));
  CHECK_FALSE(Verify(&cut, &report));
  CHECK(report.error.find("unexpected end of file") == 0);
  CHECK(report.error_offset > 0);
}

}  // namespace
}  // namespace plinth::rdb
