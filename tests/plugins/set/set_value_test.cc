// Unit tests of SetValue: encoding choice and conversion, positions, clones.
#include "set/set_value.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace plinth::set {

TEST_CASE("set value: integers make an intset and text converts it") {
  SetMaxIntsetEntries(512);
  SetValue s;
  CHECK(s.Add("10"));
  CHECK(s.Add("-5"));
  CHECK_FALSE(s.Add("10"));
  CHECK(s.IsIntset());
  CHECK(std::string(s.EncodingName()) == "intset");
  CHECK(s.Contains("10"));
  CHECK_FALSE(s.Contains("010"));
  CHECK(s.Add("ten"));
  CHECK_FALSE(s.IsIntset());
  CHECK(s.Size() == 3);
  CHECK(s.Contains("10"));
  CHECK(s.Contains("-5"));
  CHECK(s.Contains("ten"));
}

TEST_CASE("set value: the limit converts on the add that passes it") {
  SetMaxIntsetEntries(3);
  SetValue s;
  for (const char* m : {"1", "2", "3"}) s.Add(m);
  CHECK(s.IsIntset());
  CHECK_FALSE(s.Add("3"));
  CHECK(s.IsIntset());
  s.Add("4");
  CHECK_FALSE(s.IsIntset());
  SetMaxIntsetEntries(512);
}

TEST_CASE("set value: positions cover the members in both encodings") {
  SetMaxIntsetEntries(512);
  for (bool text : {false, true}) {
    SetValue s;
    std::set<std::string> ref;
    for (int i = 0; i < 40; ++i) {
      std::string m = (text ? "t" : "") + std::to_string(i * 3);
      s.Add(m);
      ref.insert(m);
    }
    std::set<std::string> seen;
    MemberBuf buf;
    for (size_t i = 0; i < s.Size(); ++i) seen.insert(std::string(s.At(i, &buf)));
    CHECK(seen == ref);
    s.RemoveAt(0);
    CHECK(s.Size() == 39);
    auto copy = s.Clone();
    CHECK(copy->IsIntset() == s.IsIntset());
    CHECK(copy->Size() == 39);
    size_t visited = 0;
    copy->ForEach([&](std::string_view m) { visited += s.Contains(m); });
    CHECK(visited == 39);
  }
}

TEST_CASE("set value: an intset iterates in ascending order") {
  SetMaxIntsetEntries(512);
  SetValue s;
  for (const char* m : {"5", "-1", "3", "100"}) s.Add(m);
  std::string order;
  s.ForEach([&](std::string_view m) { order += std::string(m) + ","; });
  CHECK(order == "-1,3,5,100,");
  CHECK(s.Scan(0, 1, [](std::string_view) {}) == 0);
}

}  // namespace plinth::set
