// Unit tests of the set type's callbacks: plain RDB round trips of both encodings through an
// in-memory plinth_rdb_io_t, and malformed or short input refused without leaks.
#include "set/type.h"

#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "set/set_value.h"

namespace plinth::set {
namespace {

// An in-memory RDB stream: lengths as 8-byte integers, strings as a length then the bytes.
struct MemoryIo {
  plinth_rdb_io_t io{};
  std::string bytes;
  size_t pos = 0;
  std::string scratch;
  int fail_writes_after = -1;  // a write past this many fails

  MemoryIo() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* io, uint64_t n) { return Self(io)->Put(&n, 8); };
    io.write_string = [](plinth_rdb_io_t* io, const char* s, size_t len) {
      uint64_t n = len;
      if (Self(io)->Put(&n, 8) != PLINTH_OK) return PLINTH_ERR;
      return Self(io)->Put(s, len);
    };
    io.read_len = [](plinth_rdb_io_t* io, uint64_t* n) { return Self(io)->Get(n, 8); };
    io.read_string = [](plinth_rdb_io_t* io, const char** s, size_t* len) {
      MemoryIo* m = Self(io);
      uint64_t n;
      if (m->Get(&n, 8) != PLINTH_OK || n > m->bytes.size() - m->pos) return PLINTH_ERR;
      m->scratch.assign(m->bytes, m->pos, n);
      m->pos += n;
      *s = m->scratch.data();
      *len = m->scratch.size();
      return PLINTH_OK;
    };
  }
  static MemoryIo* Self(plinth_rdb_io_t* io) { return static_cast<MemoryIo*>(io->ctx); }
  int32_t Put(const void* p, size_t n) {
    if (fail_writes_after == 0) return PLINTH_ERR;
    if (fail_writes_after > 0) --fail_writes_after;
    bytes.append(static_cast<const char*>(p), n);
    return PLINTH_OK;
  }
  int32_t Get(void* p, size_t n) {
    if (bytes.size() - pos < n) return PLINTH_ERR;
    std::memcpy(p, bytes.data() + pos, n);
    pos += n;
    return PLINTH_OK;
  }
};

std::set<std::string> MembersOf(const SetValue& s) {
  std::set<std::string> out;
  s.ForEach([&](std::string_view m) { out.insert(std::string(m)); });
  return out;
}

}  // namespace

TEST_CASE("set type: RDB round trip of an intset and of a hashtable") {
  SetMaxIntsetEntries(512);
  for (bool text : {false, true}) {
    SetValue s;
    for (int i = 0; i < 300; ++i) s.Add((text ? "member:" : "") + std::to_string(i - 100));
    MemoryIo out;
    REQUIRE(SaveSet(&s, &out.io) == PLINTH_OK);
    MemoryIo in;
    in.bytes = out.bytes;
    auto* loaded = static_cast<SetValue*>(LoadSet(PLINTH_RDB_SET, &in.io));
    REQUIRE(loaded != nullptr);
    CHECK(loaded->IsIntset() == !text);
    CHECK(MembersOf(*loaded) == MembersOf(s));
    FreeSet(loaded);
  }
}

TEST_CASE("set type: a loaded integer set above the limit is a hashtable") {
  SetMaxIntsetEntries(4);
  SetValue s;
  SetMaxIntsetEntries(512);
  for (int i = 0; i < 10; ++i) s.Add(std::to_string(i));
  MemoryIo out;
  REQUIRE(SaveSet(&s, &out.io) == PLINTH_OK);
  SetMaxIntsetEntries(4);
  MemoryIo in;
  in.bytes = out.bytes;
  auto* loaded = static_cast<SetValue*>(LoadSet(PLINTH_RDB_SET, &in.io));
  REQUIRE(loaded != nullptr);
  CHECK_FALSE(loaded->IsIntset());
  CHECK(loaded->Size() == 10);
  FreeSet(loaded);
  SetMaxIntsetEntries(512);
}

TEST_CASE("set type: short, empty, duplicated or mistyped input loads nothing") {
  SetValue s;
  for (const char* m : {"a", "b", "c"}) s.Add(m);
  MemoryIo out;
  REQUIRE(SaveSet(&s, &out.io) == PLINTH_OK);
  for (size_t cut = 0; cut < out.bytes.size(); ++cut) {
    MemoryIo in;
    in.bytes = out.bytes.substr(0, cut);
    CHECK(LoadSet(PLINTH_RDB_SET, &in.io) == nullptr);
  }
  MemoryIo wrong;
  wrong.bytes = out.bytes;
  CHECK(LoadSet(PLINTH_RDB_LIST, &wrong.io) == nullptr);
  MemoryIo empty;
  empty.io.write_len(&empty.io, 0);
  CHECK(LoadSet(PLINTH_RDB_SET, &empty.io) == nullptr);
  MemoryIo dup;
  dup.io.write_len(&dup.io, 2);
  dup.io.write_string(&dup.io, "x", 1);
  dup.io.write_string(&dup.io, "x", 1);
  CHECK(LoadSet(PLINTH_RDB_SET, &dup.io) == nullptr);
  MemoryIo lying;
  lying.io.write_len(&lying.io, UINT64_MAX);
  lying.io.write_string(&lying.io, "x", 1);
  CHECK(LoadSet(PLINTH_RDB_SET, &lying.io) == nullptr);
}

TEST_CASE("set type: a failing write stops the save with an error") {
  SetValue s;
  for (const char* m : {"a", "b", "c"}) s.Add(m);
  for (int after = 0; after < 4; ++after) {
    MemoryIo out;
    out.fail_writes_after = after;
    CHECK(SaveSet(&s, &out.io) == PLINTH_ERR);
  }
}

TEST_CASE("set type: the spec names the type and its RDB form") {
  const plinth_type_spec_t& t = SetTypeSpec();
  CHECK(std::string(t.name) == "set");
  CHECK(t.rdb_type == PLINTH_RDB_SET);
  SetValue s;
  s.Add("1");
  CHECK(std::string(t.encoding(&s)) == "intset");
  CHECK(t.free_effort(&s) < 64);
  void* copy = CopySet(&s);
  REQUIRE(copy != nullptr);
  CHECK(static_cast<SetValue*>(copy)->Contains("1"));
  FreeSet(copy);
}

}  // namespace plinth::set
