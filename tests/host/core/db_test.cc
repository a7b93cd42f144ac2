// Keyspace table: set/get/delete, expiry bookkeeping, and SCAN's guarantee across resizes.
#include "host/core/db.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "host/core/value.h"

using plinth::host::Db;
using plinth::host::Entry;
using plinth::host::ValueCreateString;
using plinth::host::ValuesAlive;

namespace {
void Put(Db& db, const std::string& k, const std::string& v = "v") {
  db.Set(k, ValueCreateString(v.data(), v.size()), false);
}
std::set<std::string> ScanAll(Db& db, uint64_t count, const std::function<void()>& between = {}) {
  std::set<std::string> seen;
  uint64_t cursor = 0;
  do {
    cursor = db.Scan(cursor, count, [&](Entry* e) { seen.insert(std::string(e->Key())); });
    if (between) between();
  } while (cursor != 0);
  return seen;
}
}  // namespace

TEST_CASE("db: set replaces, delete removes, and values are freed") {
  int64_t before = ValuesAlive();
  {
    Db db;
    Put(db, "a", "1");
    Put(db, "a", "2");
    CHECK(db.Size() == 1);
    Entry* e = db.Find("a");
    REQUIRE(e);
    CHECK(std::string(e->value->data, e->value->len) == "2");
    CHECK(db.Delete("a"));
    CHECK_FALSE(db.Delete("a"));
    CHECK(db.Find("a") == nullptr);
    for (int i = 0; i < 1000; ++i) Put(db, "k" + std::to_string(i));
    CHECK(db.Size() == 1000);
  }
  CHECK(ValuesAlive() == before);
}

TEST_CASE("db: binary keys with NUL bytes are distinct") {
  Db db;
  Put(db, std::string("a\0b", 3), "x");
  Put(db, std::string("a\0c", 3), "y");
  CHECK(db.Size() == 2);
  CHECK(db.Find(std::string("a\0b", 3)) != db.Find(std::string("a\0c", 3)));
}

TEST_CASE("db: expiry list follows set, persist and delete") {
  Db db;
  Put(db, "a");
  Put(db, "b");
  db.SetExpire(db.Find("a"), 1000);
  db.SetExpire(db.Find("b"), 2000);
  CHECK(db.ExpiringCount() == 2);
  Put(db, "a");  // plain SET clears the TTL
  CHECK(db.ExpiringCount() == 1);
  CHECK(db.Find("a")->expire_ms == -1);
  db.Set("b", ValueCreateString("z", 1), true);  // KEEPTTL
  CHECK(db.Find("b")->expire_ms == 2000);
  CHECK(db.Delete("b"));
  CHECK(db.ExpiringCount() == 0);
  CHECK(db.RandomExpiring() == nullptr);
}

TEST_CASE("db: scan visits every key exactly when nothing changes") {
  Db db;
  for (int i = 0; i < 5000; ++i) Put(db, "key:" + std::to_string(i));
  CHECK(ScanAll(db, 10).size() == 5000);
}

TEST_CASE(
    "db: scan never misses a key present for the whole scan while the table grows and "
    "shrinks") {
  Db db;
  for (int i = 0; i < 2000; ++i) Put(db, "stay:" + std::to_string(i));
  int step = 0;
  auto seen = ScanAll(db, 4, [&] {
    // Grow a lot, then shrink, between cursor calls.
    ++step;
    if (step < 40)
      for (int j = 0; j < 300; ++j)
        Put(db, "tmp:" + std::to_string(step) + ":" + std::to_string(j));
    else if (step < 80)
      for (int j = 0; j < 300; ++j)
        db.Delete("tmp:" + std::to_string(step - 39) + ":" + std::to_string(j));
  });
  for (int i = 0; i < 2000; ++i) CHECK(seen.count("stay:" + std::to_string(i)) == 1);
}

TEST_CASE("db: random returns a present key and nullptr when empty") {
  Db db;
  CHECK(db.Random() == nullptr);
  Put(db, "only");
  REQUIRE(db.Random());
  CHECK(db.Random()->Key() == "only");
}
