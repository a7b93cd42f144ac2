// Keyspace table: set/get/delete against a reference map, entries that hold their string or
// point at it, expiry bookkeeping, incremental resizes, and SCAN's guarantee across them.
#include "host/core/db.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <string>

#include "host/core/value.h"

using namespace plinth::host;

namespace {
void Put(Db& db, const std::string& k, const std::string& v = "v") {
  db.Set(k, ValueCreateString(v.data(), v.size()), false);
}
std::set<std::string> ScanAll(Db& db, uint64_t count, const std::function<void()>& between = {}) {
  std::set<std::string> seen;
  uint64_t cursor = 0;
  do {
    cursor = db.Scan(cursor, count, [&](Entry* e) { seen.insert(std::string(EntryKey(e))); });
    if (between) between();
  } while (cursor != 0);
  return seen;
}
std::string Str(const Entry* e) {
  const plinth_value_t* v = EntryValue(e);
  return std::string(StringData(v), v->len);
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
    CHECK(Str(e) == "2");
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
  REQUIRE(db.SetExpire(db.Find("a"), 1000));
  REQUIRE(db.SetExpire(db.Find("b"), 2000));
  CHECK(db.ExpiringCount() == 2);
  Put(db, "a");  // plain SET clears the TTL
  CHECK(db.ExpiringCount() == 1);
  CHECK(EntryExpireMs(db.Find("a")) == -1);
  db.Set("b", ValueCreateString("z", 1), true);  // KEEPTTL
  CHECK(EntryExpireMs(db.Find("b")) == 2000);
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
  CHECK(EntryKey(db.Random()) == "only");
}

TEST_CASE("db: inserts and deletes agree with a reference map through many resizes") {
  Db db;
  std::map<std::string, std::string> want;
  std::mt19937 rng(7);
  int64_t before = ValuesAlive();
  for (int round = 0; round < 6; ++round) {
    // Fill to 20k keys, then delete most of them at random: the table grows and shrinks.
    for (int i = 0; i < 20000; ++i) {
      std::string k = "k" + std::to_string(rng() % 30000);
      std::string v = std::to_string(rng());
      Put(db, k, v);
      want[k] = v;
    }
    for (int i = 0; i < 25000; ++i) {
      std::string k = "k" + std::to_string(rng() % 30000);
      CHECK(db.Delete(k) == (want.erase(k) == 1));
    }
    REQUIRE(db.Size() == want.size());
    size_t wrong = 0;
    for (const auto& [k, v] : want) wrong += !db.Find(k) || Str(db.Find(k)) != v;
    for (int i = 0; i < 30000; ++i) {
      std::string k = "k" + std::to_string(i);
      wrong += (db.Find(k) != nullptr) != (want.count(k) == 1);
    }
    CHECK(wrong == 0);
  }
  db.Clear(false);
  CHECK(ValuesAlive() == before);
}

TEST_CASE("db: a small string lives in its entry, a large one is pointed at") {
  Db db;
  Put(db, "small", std::string(100, 's'));
  Put(db, "large", std::string(kEmbedMax + 1, 'l'));
  Entry* s = db.Find("small");
  Entry* l = db.Find("large");
  CHECK(EntryValue(s) == s);
  CHECK(EntryValue(l) != l);
  CHECK(Str(s) == std::string(100, 's'));
  CHECK(Str(l) == std::string(kEmbedMax + 1, 'l'));
  // A long key is kept whole.
  const std::string long_key(300, 'K');
  Put(db, long_key, "x");
  REQUIRE(db.Find(long_key));
  CHECK(EntryKey(db.Find(long_key)) == long_key);
  CHECK(Str(db.Find(long_key)) == "x");
}

TEST_CASE("db: a held entry keeps its bytes when the key is overwritten, grown or deleted") {
  int64_t before = ValuesAlive();
  {
    Db db;
    Put(db, "k", "original");
    plinth_value_t* held = EntryValue(db.Find("k"));
    ValueRetain(held);  // as a queued reply does
    REQUIRE(db.SetString("k", "new!", 4, false));
    CHECK(Str(db.Find("k")) == "new!");
    CHECK(std::string(StringData(held), held->len) == "original");
    ValueRelease(held);
    held = EntryValue(db.Find("k"));
    ValueRetain(held);
    char* d = db.StringResize(db.Find("k"), 5000);  // grows out of the entry
    REQUIRE(d);
    d[4999] = 'z';
    CHECK(Str(db.Find("k")).size() == 5000);
    CHECK(std::string(StringData(held), held->len) == "new!");
    REQUIRE(db.SetExpire(db.Find("k"), 123));
    CHECK(db.Delete("k"));
    CHECK(std::string(StringData(held), held->len) == "new!");
    ValueRelease(held);
  }
  CHECK(ValuesAlive() == before);
}

TEST_CASE("db: an unshared small string is overwritten and grown in place") {
  Db db;
  Put(db, "n", "100");
  Entry* e = db.Find("n");
  CHECK(db.SetString("n", "101", 3, false) == e);
  CHECK(Str(e) == "101");
  CHECK(e->encoding == PLINTH_ENC_INT);
  const size_t room = StringRoom(e);  // what the allocator gave beyond the bytes
  REQUIRE(db.StringResize(e, room));
  CHECK(db.Find("n") == e);
  CHECK(Str(e) == "101" + std::string(room - 3, '\0'));
  CHECK(e->encoding == PLINTH_ENC_RAW);
}

TEST_CASE("db: the first TTL moves an entry, and its expiry follows overwrites with KEEPTTL") {
  Db db;
  Put(db, "a", "v");
  Put(db, "big", std::string(5000, 'b'));
  Entry* a = db.SetExpire(db.Find("a"), 500);
  REQUIRE(a);
  CHECK(db.Find("a") == a);
  CHECK(EntryExpireMs(a) == 500);
  Entry* big = db.SetExpire(db.Find("big"), 600);
  REQUIRE(big);
  CHECK(Str(big) == std::string(5000, 'b'));
  CHECK(db.ExpiringCount() == 2);
  REQUIRE(db.SetString("a", "w", 1, true));
  CHECK(EntryExpireMs(db.Find("a")) == 500);
  REQUIRE(db.SetString("big", "short", 5, true));
  CHECK(EntryExpireMs(db.Find("big")) == 600);
  CHECK(db.ExpiringCount() == 2);
  REQUIRE(db.SetString("a", "x", 1, false));
  CHECK(EntryExpireMs(db.Find("a")) == -1);
  CHECK(db.ExpiringCount() == 1);
  CHECK(db.RandomExpiring() == db.Find("big"));
}

TEST_CASE("db: a resize moves a few buckets per change and finishes on its own") {
  Db db;
  for (int i = 0; i < 100000; ++i) Put(db, "key:" + std::to_string(i));
  // Right after a growth both tables hold keys: every key is still found.
  size_t missing = 0;
  for (int i = 0; i < 100000; ++i) missing += db.Find("key:" + std::to_string(i)) == nullptr;
  CHECK(missing == 0);
  while (db.RehashStep(1000)) {
  }
  CHECK(db.Size() == 100000);
  // 64-byte buckets of nine slots at most 90% full: under 16 bytes a key.
  CHECK(db.OverheadBytes() < 16 * 100000);
}
