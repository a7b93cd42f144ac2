// Unit tests of IntSet: order, widths, lookups, removal.
#include "set/intset.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

namespace plinth::set {

TEST_CASE("set intset: keeps values sorted and unique") {
  IntSet s;
  CHECK(s.Add(5));
  CHECK(s.Add(-3));
  CHECK(s.Add(10));
  CHECK_FALSE(s.Add(5));
  REQUIRE(s.Size() == 3);
  CHECK(s.At(0) == -3);
  CHECK(s.At(1) == 5);
  CHECK(s.At(2) == 10);
  CHECK(s.AllocatedBytes() == 6);  // 2 bytes each
}

TEST_CASE("set intset: widens to 4 and 8 bytes and keeps the old values") {
  IntSet s;
  s.Add(1);
  s.Add(-2);
  s.Add(70000);
  CHECK(s.AllocatedBytes() == 12);
  s.Add(INT64_MIN);
  s.Add(INT64_MAX);
  CHECK(s.AllocatedBytes() == 40);
  CHECK(s.At(0) == INT64_MIN);
  CHECK(s.At(1) == -2);
  CHECK(s.At(2) == 1);
  CHECK(s.At(3) == 70000);
  CHECK(s.At(4) == INT64_MAX);
  CHECK(s.Contains(70000));
  CHECK_FALSE(s.Contains(70001));
}

TEST_CASE("set intset: wide lookups in a narrow set are misses") {
  IntSet s;
  s.Add(1);
  CHECK_FALSE(s.Contains(int64_t{1} << 40));
  CHECK_FALSE(s.Remove(int64_t{1} << 40));
  CHECK(s.Size() == 1);
}

TEST_CASE("set intset: removes by value and by position until empty") {
  IntSet s;
  for (int i = 0; i < 10; ++i) s.Add(i);
  CHECK(s.Remove(4));
  CHECK_FALSE(s.Remove(4));
  s.RemoveAt(0);
  CHECK(s.At(0) == 1);
  CHECK(s.Size() == 8);
  while (s.Size() > 0) s.RemoveAt(s.Size() - 1);
  CHECK(s.AllocatedBytes() == 0);
  CHECK(s.Add(3));
}

TEST_CASE("set intset: matches a reference std::set under random operations") {
  std::mt19937_64 rng(7);
  IntSet s;
  std::set<int64_t> ref;
  for (int k = 0; k < 5000; ++k) {
    int64_t v = static_cast<int64_t>(rng() % 400) - 200;
    if (k % 997 == 0) v = static_cast<int64_t>(rng());
    if (rng() % 3 == 0) {
      CHECK(s.Remove(v) == (ref.erase(v) == 1));
    } else {
      CHECK(s.Add(v) == ref.insert(v).second);
    }
  }
  REQUIRE(s.Size() == ref.size());
  size_t i = 0;
  for (int64_t v : ref) CHECK(s.At(i++) == v);
  IntSet copy;
  copy.CopyFrom(s);
  CHECK(copy.Size() == s.Size());
  CHECK(copy.At(0) == s.At(0));
}

}  // namespace plinth::set
