// Tests of the hash type's RDB callbacks (type.h) through a tiny in-memory plinth_rdb_io_t:
// round trips in both encodings, and short or malformed input refused without leaks.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hash/type.h"

using plinth::hash::Hash;
using plinth::hash::Limits;

namespace {

// Lengths and strings as tagged records in a byte vector; reading past the end fails.
struct MemIo {
  plinth_rdb_io_t io{};
  std::vector<std::string> items;  // "L<n>" or "S<bytes>"
  size_t next = 0;
  std::string current;

  MemIo() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* io, uint64_t n) {
      Self(io)->items.push_back("L" + std::to_string(n));
      return PLINTH_OK;
    };
    io.write_string = [](plinth_rdb_io_t* io, const char* s, size_t len) {
      Self(io)->items.push_back("S" + std::string(s, len));
      return PLINTH_OK;
    };
    io.read_len = [](plinth_rdb_io_t* io, uint64_t* n) {
      MemIo* m = Self(io);
      if (m->next >= m->items.size() || m->items[m->next][0] != 'L') return PLINTH_ERR;
      *n = std::stoull(m->items[m->next++].substr(1));
      return PLINTH_OK;
    };
    io.read_string = [](plinth_rdb_io_t* io, const char** s, size_t* len) {
      MemIo* m = Self(io);
      if (m->next >= m->items.size() || m->items[m->next][0] != 'S') return PLINTH_ERR;
      m->current = m->items[m->next++].substr(1);
      *s = m->current.data();
      *len = m->current.size();
      return PLINTH_OK;
    };
  }
  static MemIo* Self(plinth_rdb_io_t* io) { return static_cast<MemIo*>(io->ctx); }
};

std::unique_ptr<Hash> RoundTrip(const Hash& h, const Limits& limits) {
  MemIo m;
  REQUIRE(plinth::hash::SaveHash(h, &m.io) == PLINTH_OK);
  return std::unique_ptr<Hash>(plinth::hash::LoadHash(PLINTH_RDB_HASH, &m.io, limits));
}

}  // namespace

TEST_CASE("hash rdb: the type spec names the plain hash form") {
  const plinth_type_spec_t& t = plinth::hash::HashTypeSpec();
  CHECK(std::string(t.name) == "hash");
  CHECK(t.rdb_type == PLINTH_RDB_HASH);
  CHECK(static_cast<bool>(t.free_payload));
  CHECK(static_cast<bool>(t.copy));
  CHECK(static_cast<bool>(t.rdb_save));
  CHECK(static_cast<bool>(t.rdb_load));
}

TEST_CASE("hash rdb: round trips both encodings and picks the encoding by the limits") {
  const Limits limits{8, 16};
  for (int n : {1, 8, 9, 300}) {
    Hash h;
    for (int i = 0; i < n; ++i) h.Set("f" + std::to_string(i), std::string(i % 20, 'v'), limits);
    h.Set(std::string("bin\0", 4), "", limits);
    auto back = RoundTrip(h, limits);
    REQUIRE(back);
    CHECK(back->Size() == h.Size());
    CHECK(back->IsTable() == h.IsTable());
    h.ForEach([&](std::string_view k, std::string_view v) {
      std::string_view got;
      REQUIRE(back->Get(k, &got));
      CHECK(got == v);
    });
  }
}

TEST_CASE("hash rdb: a listpack that loads with a long value becomes a hashtable") {
  Hash h;
  h.Set("f", std::string(100, 'x'), Limits{128, 1000});
  CHECK_FALSE(h.IsTable());
  auto back = RoundTrip(h, Limits{128, 64});
  REQUIRE(back);
  CHECK(back->IsTable());
}

TEST_CASE("hash rdb: short or malformed input gives NULL") {
  Hash h;
  for (int i = 0; i < 5; ++i) h.Set("f" + std::to_string(i), "v", Limits{});
  MemIo full;
  REQUIRE(plinth::hash::SaveHash(h, &full.io) == PLINTH_OK);
  for (size_t cut = 0; cut < full.items.size(); ++cut) {
    MemIo m;
    m.items.assign(full.items.begin(), full.items.begin() + static_cast<long>(cut));
    CHECK(plinth::hash::LoadHash(PLINTH_RDB_HASH, &m.io, Limits{}) == nullptr);
  }
  MemIo wrong_type;
  wrong_type.items = full.items;
  CHECK(plinth::hash::LoadHash(PLINTH_RDB_SET, &wrong_type.io, Limits{}) == nullptr);
  MemIo empty;
  empty.items = {"L0"};
  CHECK(plinth::hash::LoadHash(PLINTH_RDB_HASH, &empty.io, Limits{}) == nullptr);
  MemIo dup;
  dup.items = {"L2", "Sa", "S1", "Sa", "S2"};
  CHECK(plinth::hash::LoadHash(PLINTH_RDB_HASH, &dup.io, Limits{}) == nullptr);
  MemIo huge;  // a corrupt count with no strings behind it: no allocation by the count
  huge.items = {"L18446744073709551615", "Sa", "Sb"};
  CHECK(plinth::hash::LoadHash(PLINTH_RDB_HASH, &huge.io, Limits{}) == nullptr);
  MemIo dup_table;
  dup_table.items = {"L200"};
  for (int i = 0; i < 200; ++i) {
    dup_table.items.push_back("S" + std::to_string(i % 150));
    dup_table.items.push_back("Sv");
  }
  CHECK(plinth::hash::LoadHash(PLINTH_RDB_HASH, &dup_table.io, Limits{}) == nullptr);
}

TEST_CASE("hash rdb: a failing writer makes rdb_save fail") {
  Hash h;
  h.Set("a", "b", Limits{});
  MemIo m;
  m.io.write_string = [](plinth_rdb_io_t*, const char*, size_t) { return PLINTH_ERR; };
  CHECK(plinth::hash::SaveHash(h, &m.io) == PLINTH_ERR);
}
