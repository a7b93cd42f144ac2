// The list type's callbacks without a host: RDB save and load through an in-memory
// plinth_rdb_io_t (round trip, short and malformed input), copy, memory and encoding.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "list/quicklist.h"
#include "list/type.h"

namespace plinth::list {
namespace {

// An RDB stream in memory: each item is a length or a string, kept apart so a test can cut it.
struct MemIo {
  plinth_rdb_io_t io{};
  std::vector<std::pair<bool, std::string>> items;  // (is_len, text)
  size_t pos = 0;
  bool fail_writes = false;

  MemIo() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* i, uint64_t n) {
      auto* m = static_cast<MemIo*>(i->ctx);
      if (m->fail_writes) return PLINTH_ERR;
      m->items.emplace_back(true, std::to_string(n));
      return PLINTH_OK;
    };
    io.write_string = [](plinth_rdb_io_t* i, const char* s, size_t len) {
      auto* m = static_cast<MemIo*>(i->ctx);
      if (m->fail_writes) return PLINTH_ERR;
      m->items.emplace_back(false, std::string(s, len));
      return PLINTH_OK;
    };
    io.read_len = [](plinth_rdb_io_t* i, uint64_t* n) {
      auto* m = static_cast<MemIo*>(i->ctx);
      if (m->pos >= m->items.size() || !m->items[m->pos].first) return PLINTH_ERR;
      *n = std::stoull(m->items[m->pos++].second);
      return PLINTH_OK;
    };
    io.read_string = [](plinth_rdb_io_t* i, const char** s, size_t* len) {
      auto* m = static_cast<MemIo*>(i->ctx);
      if (m->pos >= m->items.size() || m->items[m->pos].first) return PLINTH_ERR;
      const std::string& t = m->items[m->pos++].second;
      *s = t.data();
      *len = t.size();
      return PLINTH_OK;
    };
  }
};

const plinth_type_spec_t& Spec() { return ListTypeSpecForTest(); }

struct Payload {
  void operator()(void* p) const { Spec().free_payload(p); }
};
using Owned = std::unique_ptr<void, Payload>;

Owned Sample(int n) {
  auto* l = new QuickList();
  for (int i = 0; i < n; ++i) l->PushBack("v" + std::to_string(i), NodeLimit{-2});
  l->PushBack(std::string(10000, 'x'), NodeLimit{-2});
  l->PushBack("", NodeLimit{-2});
  return Owned(l);
}

const QuickList& L(const Owned& p) { return *static_cast<const QuickList*>(p.get()); }

TEST_CASE("list type: rdb round trip keeps every element in order") {
  Owned src = Sample(3000);
  MemIo io;
  REQUIRE(Spec().rdb_save(src.get(), &io.io) == PLINTH_OK);
  CHECK(io.items.front().second == "3002");
  Owned back(Spec().rdb_load(PLINTH_RDB_LIST, &io.io));
  REQUIRE(back);
  REQUIRE(L(back).size() == L(src).size());
  for (uint64_t i = 0; i < L(src).size(); ++i) REQUIRE(L(back).At(i) == L(src).At(i));
  CHECK(Spec().rdb_type == PLINTH_RDB_LIST);
}

TEST_CASE("list type: short or malformed rdb input loads nothing") {
  Owned src = Sample(10);
  MemIo full;
  REQUIRE(Spec().rdb_save(src.get(), &full.io) == PLINTH_OK);
  for (size_t cut = 0; cut < full.items.size(); ++cut) {
    MemIo io;
    io.items.assign(full.items.begin(), full.items.begin() + static_cast<long>(cut));
    CHECK(Spec().rdb_load(PLINTH_RDB_LIST, &io.io) == nullptr);
  }
  MemIo wrong_kind;
  wrong_kind.items = {{true, "2"}, {false, "a"}, {true, "5"}};
  CHECK(Spec().rdb_load(PLINTH_RDB_LIST, &wrong_kind.io) == nullptr);
  MemIo huge;
  huge.items = {{true, "18446744073709551615"}, {false, "a"}};
  CHECK(Spec().rdb_load(PLINTH_RDB_LIST, &huge.io) == nullptr);
  MemIo empty;
  empty.items = {{true, "0"}};
  CHECK(Spec().rdb_load(PLINTH_RDB_LIST, &empty.io) == nullptr);
  MemIo other_type = full;
  other_type.pos = 0;
  CHECK(Spec().rdb_load(PLINTH_RDB_SET, &other_type.io) == nullptr);
}

TEST_CASE("list type: a failing writer fails the save") {
  Owned src = Sample(5);
  MemIo io;
  io.fail_writes = true;
  CHECK(Spec().rdb_save(src.get(), &io.io) == PLINTH_ERR);
}

TEST_CASE("list type: copy is deep and encoding is quicklist") {
  Owned src = Sample(100);
  Owned copy(Spec().copy(src.get()));
  REQUIRE(copy);
  static_cast<QuickList*>(copy.get())->PushBack("more", NodeLimit{-2});
  CHECK(L(copy).size() == L(src).size() + 1);
  CHECK(std::string(Spec().encoding(src.get())) == "quicklist");
  CHECK(Spec().memory_usage(src.get()) > 10000);
  CHECK(Spec().memory_usage(src.get()) < 20000);
  CHECK(Spec().free_effort(src.get()) == L(src).nodes() + 1);
}

}  // namespace
}  // namespace plinth::list
