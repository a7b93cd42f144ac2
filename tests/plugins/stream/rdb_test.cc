// Tests of the stream RDB forms through an in-memory plinth_rdb_io_t: a round trip with nodes,
// deletions and groups, the older and newer forms, and malformed input refused.
#include "stream/rdb.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

namespace plinth::stream {
namespace {

// Lengths as 8 bytes, strings as a length and bytes, raw bytes as they are.
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
    io.write_double = [](plinth_rdb_io_t*, double) { return int32_t{PLINTH_ERR}; };
    io.read_len = [](plinth_rdb_io_t* i, uint64_t* n) { return Self(i)->Get(n, 8); };
    io.read_string = [](plinth_rdb_io_t* i, const char** s, size_t* len) {
      uint64_t n = 0;
      MemIo* m = Self(i);
      if (m->Get(&n, 8) != PLINTH_OK || n > m->buf.size() - m->pos) return int32_t{PLINTH_ERR};
      m->last = m->buf.substr(m->pos, n);
      m->pos += n;
      *s = m->last.data();
      *len = m->last.size();
      return int32_t{PLINTH_OK};
    };
    io.read_double = [](plinth_rdb_io_t*, double*) { return int32_t{PLINTH_ERR}; };
    io.write_raw = [](plinth_rdb_io_t* i, const void* p, size_t len) {
      return Self(i)->Put(p, len);
    };
    io.read_raw = [](plinth_rdb_io_t* i, void* p, size_t len) { return Self(i)->Get(p, len); };
  }
  static MemIo* Self(plinth_rdb_io_t* i) { return static_cast<MemIo*>(i->ctx); }
  int32_t Put(const void* p, size_t n) {
    buf.append(static_cast<const char*>(p), n);
    return PLINTH_OK;
  }
  int32_t Get(void* p, size_t n) {
    if (n > buf.size() - pos) return PLINTH_ERR;
    std::memcpy(p, buf.data() + pos, n);
    pos += n;
    return PLINTH_OK;
  }
};

Stream Sample() {
  NodeLimits saved = CurrentLimits();
  CurrentLimits().max_entries = 2;
  Stream s;
  for (uint64_t i = 1; i <= 5; ++i) s.Append({i, 0}, {"f", std::to_string(i), "g", "x"});
  s.Delete({2, 0});
  s.max_deleted_id = {2, 0};
  auto g = std::make_unique<Group>(StreamId{3, 0}, 3);
  Consumer* a = g->Create("alice", 111);
  g->Create("idle", 222);
  g->Deliver({1, 0}, a, 333);
  g->Deliver({3, 0}, a, 444);
  s.groups.emplace("g", std::move(g));
  CurrentLimits() = saved;
  return s;
}

TEST_CASE("stream rdb: a round trip keeps nodes, metadata and groups") {
  Stream s = Sample();
  MemIo io;
  REQUIRE(SaveStream(s, &io.io));
  std::unique_ptr<Stream> back = LoadStream(PLINTH_RDB_STREAM_LISTPACKS_2, &io.io);
  REQUIRE(back);
  CHECK(io.pos == io.buf.size());
  CHECK(back->nodes == s.nodes);
  CHECK(back->length == 4);
  CHECK(back->last_id == StreamId{5, 0});
  CHECK(back->first_id == StreamId{1, 0});
  CHECK(back->max_deleted_id == StreamId{2, 0});
  CHECK(back->entries_added == 5);
  const Group* g = back->FindGroup("g");
  REQUIRE(g);
  CHECK(g->entries_read == 3);
  CHECK(g->pel.size() == 2);
  CHECK(g->pel.at({3, 0})->delivery_time == 444);
  CHECK(g->Find("alice")->pel.size() == 2);
  CHECK(g->Find("idle")->seen_time == 222);
}

TEST_CASE("stream rdb: malformed input and unknown forms are refused") {
  Stream s = Sample();
  MemIo io;
  REQUIRE(SaveStream(s, &io.io));
  for (size_t cut = 0; cut < io.buf.size(); cut += 7) {
    MemIo part;
    part.buf = io.buf.substr(0, cut);
    CHECK(LoadStream(PLINTH_RDB_STREAM_LISTPACKS_2, &part.io) == nullptr);
  }
  for (size_t i = 0; i < io.buf.size(); ++i) {
    MemIo bad;
    bad.buf = io.buf;
    bad.buf[i] = static_cast<char>(bad.buf[i] ^ 0x01);
    LoadStream(PLINTH_RDB_STREAM_LISTPACKS_2, &bad.io);  // must not crash (ASan checks)
  }
  MemIo again;
  again.buf = io.buf;
  CHECK(LoadStream(PLINTH_RDB_ZSET_2, &again.io) == nullptr);
}

TEST_CASE("stream rdb: the 7.4 form carries consumer active times") {
  MemIo io;
  auto len = [&](uint64_t n) { io.io.write_len(&io.io, n); };
  auto str = [&](const std::string& s) { io.io.write_string(&io.io, s.data(), s.size()); };
  auto time = [&](int64_t t) { io.io.write_raw(&io.io, &t, 8); };  // little endian host
  len(0);                                                          // no nodes
  len(0), len(7), len(7);                                          // length, last id
  len(0), len(0), len(0), len(0), len(3);    // first id, max deleted, entries added
  len(1), str("g"), len(7), len(7), len(3);  // one group at 7-7, 3 read
  len(0);                                    // empty PEL
  len(1), str("c"), time(10), time(20), len(0);
  std::unique_ptr<Stream> s = LoadStream(PLINTH_RDB_STREAM_LISTPACKS_3, &io.io);
  REQUIRE(s);
  CHECK(io.pos == io.buf.size());
  REQUIRE(s->FindGroup("g"));
  CHECK(s->FindGroup("g")->Find("c")->active_time == 20);
  CHECK(s->FindGroup("g")->Find("c")->seen_time == 10);
}

}  // namespace
}  // namespace plinth::stream
