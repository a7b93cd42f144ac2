// Tests of the "zset" type: RDB round trip through an in-memory plinth_rdb_io_t (both
// encodings, malformed and short input refused), COPY then writes on either side
// (copy-on-write), TYPE, OBJECT ENCODING, MEMORY USAGE, UNLINK, RENAME and the options.
#include "zset/type.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "zset/zset.h"
#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

// An in-memory RDB stream: lengths as 8 bytes, strings as length + bytes, doubles raw.
struct MemIo {
  plinth_rdb_io_t io{};
  std::string buf;
  size_t pos = 0;
  std::string last;

  MemIo() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* i, uint64_t n) { return Self(i)->Put(&n, 8); };
    io.write_string = [](plinth_rdb_io_t* i, const char* s, size_t len) {
      uint64_t n = len;
      Self(i)->Put(&n, 8);
      return Self(i)->Put(s, len);
    };
    io.write_double = [](plinth_rdb_io_t* i, double v) { return Self(i)->Put(&v, 8); };
    io.read_len = [](plinth_rdb_io_t* i, uint64_t* n) { return Self(i)->Get(n, 8); };
    io.read_string = [](plinth_rdb_io_t* i, const char** s, size_t* len) {
      MemIo* m = Self(i);
      uint64_t n = 0;
      if (m->Get(&n, 8) != PLINTH_OK || n > m->buf.size() - m->pos) return PLINTH_ERR;
      m->last.assign(m->buf, m->pos, n);
      m->pos += n;
      *s = m->last.data();
      *len = m->last.size();
      return PLINTH_OK;
    };
    io.read_double = [](plinth_rdb_io_t* i, double* v) { return Self(i)->Get(v, 8); };
  }
  static MemIo* Self(plinth_rdb_io_t* i) { return static_cast<MemIo*>(i->ctx); }
  int32_t Put(const void* p, size_t n) {
    buf.append(static_cast<const char*>(p), n);
    return PLINTH_OK;
  }
  int32_t Get(void* p, size_t n) {
    if (buf.size() - pos < n) return PLINTH_ERR;
    std::memcpy(p, buf.data() + pos, n);
    pos += n;
    return PLINTH_OK;
  }
};

void RoundTrip(size_t entries) {
  CurrentLimits() = Limits{};
  const plinth_type_spec_t& t = TypeSpec();
  ZSet z(0, 0);
  for (size_t i = 0; i < entries; ++i)
    z.Insert("m" + std::to_string(i), static_cast<double>(i % 7));
  MemIo out;
  REQUIRE(t.rdb_save(&z, &out.io) == PLINTH_OK);
  void* p = t.rdb_load(PLINTH_RDB_ZSET_2, &out.io);
  REQUIRE(p != nullptr);
  const auto* back = static_cast<const ZSet*>(p);
  CHECK(back->Size() == entries);
  CHECK(back->IsListpack() == (entries <= 128));
  Cursor a = z.At(0), b = back->At(0);
  for (; a.Valid(); a.Next(), b.Next()) {
    REQUIRE(b.Valid());
    CHECK(a.Member() == b.Member());
    CHECK(a.Score() == b.Score());
  }
  CHECK(std::string(t.encoding(p)) == back->EncodingName());
  CHECK(t.memory_usage(p) > 0);
  t.free_payload(p);
}

TEST_CASE("zset type: RDB round trip of both encodings") {
  RoundTrip(5);
  RoundTrip(500);
}

TEST_CASE("zset type: malformed and short RDB input is refused") {
  const plinth_type_spec_t& t = TypeSpec();
  ZSet z(0, 0);
  z.Insert("a", 1);
  z.Insert("b", 2);
  MemIo good;
  REQUIRE(t.rdb_save(&z, &good.io) == PLINTH_OK);
  for (size_t cut = 0; cut < good.buf.size(); ++cut) {
    MemIo m;
    m.buf = good.buf.substr(0, cut);
    CHECK(t.rdb_load(PLINTH_RDB_ZSET_2, &m.io) == nullptr);
  }
  MemIo wrong;
  wrong.buf = good.buf;
  CHECK(t.rdb_load(PLINTH_RDB_SET, &wrong.io) == nullptr);
  // A duplicate member, a NaN score and an empty set.
  MemIo dup;
  dup.io.write_len(&dup.io, 2);
  for (int i = 0; i < 2; ++i) {
    dup.io.write_string(&dup.io, "a", 1);
    dup.io.write_double(&dup.io, i);
  }
  CHECK(t.rdb_load(PLINTH_RDB_ZSET_2, &dup.io) == nullptr);
  MemIo nan;
  nan.io.write_len(&nan.io, 1);
  nan.io.write_string(&nan.io, "a", 1);
  nan.io.write_double(&nan.io, std::nan(""));
  CHECK(t.rdb_load(PLINTH_RDB_ZSET_2, &nan.io) == nullptr);
  MemIo empty;
  empty.io.write_len(&empty.io, 0);
  CHECK(t.rdb_load(PLINTH_RDB_ZSET_2, &empty.io) == nullptr);
  // A huge count with no data behind it allocates nothing big and fails.
  MemIo huge;
  huge.io.write_len(&huge.io, UINT64_MAX);
  CHECK(t.rdb_load(PLINTH_RDB_ZSET_2, &huge.io) == nullptr);
}

TEST_CASE("zset type: TYPE and OBJECT ENCODING and MEMORY USAGE and UNLINK and RENAME") {
  Fixture f;
  f.R("ZADD z 1 a 2 b");
  CHECK(f.R("TYPE z") == "zset");
  CHECK(f.R("OBJECT ENCODING z") == "listpack");
  CHECK(f.R("MEMORY USAGE z").rfind(":", 0) == 0);
  CHECK(f.R("RENAME z y") == "OK");
  CHECK(f.R("ZRANGE y 0 -1") == "[a b]");
  for (int i = 0; i < 200; ++i) f.Run({"ZADD", "y", std::to_string(i), "m" + std::to_string(i)});
  CHECK(f.R("OBJECT ENCODING y") == "skiplist");
  CHECK(f.R("UNLINK y") == ":1");
  CHECK(f.R("EXISTS y") == ":0");
}

TEST_CASE("zset type: COPY then writing one side leaves the other unchanged") {
  for (const char* limit : {"128", "0"}) {
    Fixture f;
    f.host.SetOption("zset-max-listpack-entries", limit);
    f.R("ZADD src 1 a 2 b 3 c");
    CHECK(f.R("COPY src dst") == ":1");
    CHECK(f.R("OBJECT ENCODING dst") == f.R("OBJECT ENCODING src"));
    f.R("ZADD dst 9 z");
    f.R("ZREM src a");
    f.R("ZINCRBY dst 10 b");
    CHECK(f.R("ZRANGE src 0 -1 WITHSCORES") == "[b ,2 c ,3]");
    CHECK(f.R("ZRANGE dst 0 -1 WITHSCORES") == "[a ,1 c ,3 z ,9 b ,12]");
    f.R("ZPOPMIN dst 10");
    CHECK(f.R("ZCARD src") == ":2");
  }
}

TEST_CASE("zset type: the listpack limits are options and ziplist names included") {
  Fixture f;
  CHECK(f.host.GetOption("zset-max-listpack-entries") == "128");
  CHECK(f.host.SetOption("zset-max-ziplist-entries", "2"));
  f.R("ZADD z 1 a 2 b");
  CHECK(f.R("OBJECT ENCODING z") == "listpack");
  f.R("ZADD z 3 c");
  CHECK(f.R("OBJECT ENCODING z") == "skiplist");
  CHECK(f.host.SetOption("zset-max-listpack-value", "2"));
  f.R("ZADD v 1 abc");
  CHECK(f.R("OBJECT ENCODING v") == "skiplist");
}

}  // namespace
}  // namespace plinth::zset::test
