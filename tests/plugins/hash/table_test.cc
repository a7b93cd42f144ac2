// Tests of the large hash encoding (table.h): growth, shrink, updates, and the scan guarantee
// that a field present for a whole scan is returned although the table resizes meanwhile.
#include "hash/table.h"

#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <string>

using plinth::hash::Table;

namespace {

std::string F(int i) { return "field:" + std::to_string(i); }

std::set<std::string> ScanAll(const Table& t, int* calls) {
  std::set<std::string> seen;
  uint64_t cursor = 0;
  *calls = 0;
  do {
    cursor = t.ScanBucket(cursor, [&](const Table::Entry& e) { seen.emplace(e.field()); });
    ++*calls;
  } while (cursor != 0);
  return seen;
}

}  // namespace

TEST_CASE("hash table: finds, updates and deletes across growth and shrink") {
  Table t;
  for (int i = 0; i < 5000; ++i) CHECK(t.Set(F(i), std::to_string(i)));
  CHECK(t.Size() == 5000);
  for (int i = 0; i < 5000; i += 7) CHECK_FALSE(t.Set(F(i), std::string(100, 'x')));
  for (int i = 0; i < 5000; ++i) {
    const Table::Entry* e = t.Find(F(i));
    REQUIRE(e);
    CHECK(e->value() == (i % 7 == 0 ? std::string(100, 'x') : std::to_string(i)));
  }
  const size_t full = t.Bytes();
  for (int i = 0; i < 4990; ++i) CHECK(t.Delete(F(i)));
  CHECK_FALSE(t.Delete(F(0)));
  CHECK(t.Size() == 10);
  CHECK(t.Bytes() < full / 10);
  CHECK(t.Find(F(4995)));
  CHECK_FALSE(t.Find(F(1)));
}

TEST_CASE("hash table: a deep copy is independent") {
  Table t;
  for (int i = 0; i < 100; ++i) t.Set(F(i), "v");
  std::unique_ptr<Table> c(t.Clone());
  REQUIRE(c);
  t.Set(F(1), "changed");
  t.Delete(F(2));
  CHECK(c->Size() == 100);
  CHECK(c->Find(F(1))->value() == "v");
  CHECK(c->Find(F(2)));
}

TEST_CASE("hash table: a scan returns every field once the table stays still") {
  Table t;
  for (int i = 0; i < 1000; ++i) t.Set(F(i), "v");
  int calls = 0;
  CHECK(ScanAll(t, &calls).size() == 1000);
  Table empty;
  CHECK(ScanAll(empty, &calls).empty());
  CHECK(calls == 1);
}

TEST_CASE("hash table: a scan keeps every field present throughout while the table resizes") {
  Table t;
  for (int i = 0; i < 200; ++i) t.Set(F(i), "v");
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int step = 0;
  do {
    cursor = t.ScanBucket(cursor, [&](const Table::Entry& e) { seen.emplace(e.field()); });
    // Grow to four times the size, then drain the extra again, halfway through.
    if (++step == 40)
      for (int i = 200; i < 2000; ++i) t.Set(F(i), "v");
    if (step == 300)
      for (int i = 200; i < 2000; ++i) t.Delete(F(i));
  } while (cursor != 0);
  for (int i = 0; i < 200; ++i) CHECK(seen.count(F(i)) == 1);
}

TEST_CASE("hash table: Random reaches every entry") {
  Table t;
  for (int i = 0; i < 20; ++i) t.Set(F(i), "v");
  uint64_t s = 1;
  auto rnd = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 11;
  };
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) seen.emplace(t.Random(rnd)->field());
  CHECK(seen.size() == 20);
}
