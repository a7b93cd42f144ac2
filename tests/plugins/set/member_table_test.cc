// Unit tests of MemberTable: add/remove/contains against a reference, dense positions, long
// and binary members, copies, and a full bucket scan.
#include "set/member_table.h"

#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>

namespace plinth::set {

TEST_CASE("set member table: matches a reference std::set under random operations") {
  std::mt19937_64 rng(11);
  MemberTable t;
  std::set<std::string> ref;
  for (int k = 0; k < 20000; ++k) {
    std::string m = "m" + std::to_string(rng() % 3000);
    if (rng() % 3 == 0) {
      CHECK(t.Remove(m) == (ref.erase(m) == 1));
    } else {
      CHECK(t.Add(m) == ref.insert(m).second);
    }
  }
  REQUIRE(t.Size() == ref.size());
  std::set<std::string> dense;
  for (size_t i = 0; i < t.Size(); ++i) dense.insert(std::string(t.At(i)));
  CHECK(dense == ref);
  for (const std::string& m : ref) CHECK(t.Contains(m));
}

TEST_CASE("set member table: long, empty and binary members") {
  MemberTable t;
  std::string long_member(100000, 'x');
  std::string bin("\0\xff\0", 3);
  CHECK(t.Add(long_member));
  CHECK(t.Add(""));
  CHECK(t.Add(bin));
  CHECK(t.Add(std::string(254, 'y')));
  CHECK(t.Add(std::string(255, 'y')));
  CHECK_FALSE(t.Add(std::string(255, 'y')));
  CHECK(t.Contains(long_member));
  CHECK(t.Contains(""));
  CHECK(t.Contains(bin));
  CHECK_FALSE(t.Contains(std::string("\0\xff", 2)));
  CHECK(t.AllocatedBytes() > 100000);
  CHECK(t.Remove(long_member));
  CHECK(t.AllocatedBytes() < 2000);
}

TEST_CASE("set member table: RemoveAt keeps positions dense") {
  MemberTable t;
  for (int i = 0; i < 100; ++i) t.Add("k" + std::to_string(i));
  while (t.Size() > 0) {
    std::string first(t.At(0));
    t.RemoveAt(0);
    CHECK_FALSE(t.Contains(first));
    for (size_t i = 0; i < t.Size(); ++i) CHECK(t.Contains(t.At(i)));
  }
}

TEST_CASE("set member table: a copy is independent") {
  MemberTable t;
  for (int i = 0; i < 50; ++i) t.Add("k" + std::to_string(i));
  MemberTable c;
  c.CopyFrom(t);
  t.Remove("k1");
  CHECK(c.Contains("k1"));
  CHECK(c.Size() == 50);
  CHECK(t.Size() == 49);
}

TEST_CASE("set member table: a bucket scan from 0 visits each member once") {
  MemberTable t;
  for (int i = 0; i < 777; ++i) t.Add("k" + std::to_string(i));
  std::multiset<std::string> seen;
  uint64_t cursor = 0;
  int steps = 0;
  do {
    cursor = t.ScanBucket(cursor, [&](std::string_view m) { seen.insert(std::string(m)); });
    ++steps;
  } while (cursor != 0);
  CHECK(seen.size() == 777);
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 777);
  CHECK(steps >= 777 / 2);
}

TEST_CASE("set member table: the hash depends on every byte") {
  CHECK(HashBytes("abc") != HashBytes("abd"));
  CHECK(HashBytes("") != HashBytes(std::string(1, '\0')));
  CHECK(HashBytes("0123456789abcdefX") != HashBytes("0123456789abcdefY"));
  CHECK(HashBytes("same") == HashBytes("same"));
}

}  // namespace plinth::set
