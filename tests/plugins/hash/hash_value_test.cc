// Tests of the hash value's encoding rule (hash_value.h): listpack while small, hashtable once a
// threshold is passed, never back.
#include "hash/hash_value.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

using plinth::hash::Hash;
using plinth::hash::Limits;

TEST_CASE("hash value: converts when the entry count passes max_entries") {
  Hash h;
  const Limits limits{4, 64};
  for (int i = 0; i < 4; ++i) h.Set("f" + std::to_string(i), "v", limits);
  CHECK(std::string(h.EncodingName()) == "listpack");
  h.Set("f0", "again", limits);  // an update does not count
  CHECK_FALSE(h.IsTable());
  h.Set("f4", "v", limits);
  CHECK(std::string(h.EncodingName()) == "hashtable");
  for (int i = 0; i < 5; ++i) h.Delete("f" + std::to_string(i));
  CHECK(h.Empty());
  CHECK(h.IsTable());  // never back
}

TEST_CASE("hash value: converts on a field or value longer than max_value") {
  const Limits limits{128, 8};
  Hash a, b, c;
  a.Set("f", std::string(8, 'v'), limits);
  CHECK_FALSE(a.IsTable());
  a.Set("f", std::string(9, 'v'), limits);
  CHECK(a.IsTable());
  b.Set(std::string(9, 'k'), "v", limits);
  CHECK(b.IsTable());
  c.Insert("x", std::string(9, 'v'), limits);
  CHECK(c.IsTable());
  std::string_view v;
  REQUIRE(c.Get("x", &v));
  CHECK(v == std::string(9, 'v'));
}

TEST_CASE("hash value: a zero entry limit makes every hash a hashtable") {
  Hash h;
  h.Set("a", "b", Limits{0, 64});
  CHECK(h.IsTable());
}

TEST_CASE("hash value: clones keep the encoding and are independent") {
  const Limits limits{2, 64};
  for (int n : {2, 3}) {
    Hash h;
    for (int i = 0; i < n; ++i) h.Set("f" + std::to_string(i), "v", limits);
    std::unique_ptr<Hash> c(h.Clone());
    REQUIRE(c);
    CHECK(c->IsTable() == h.IsTable());
    h.Set("f0", "changed", limits);
    std::string_view v;
    REQUIRE(c->Get("f0", &v));
    CHECK(v == "v");
    CHECK(c->MemoryUsage() > 0);
    CHECK(c->FreeEffort() == (c->IsTable() ? static_cast<size_t>(n) + 2 : 1));
  }
}
