// Command tests of HSCAN: a listpack comes back whole with cursor 0, a hashtable is walked with
// a cursor to completion; MATCH, COUNT and the argument errors of Redis 7.0.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "hash_fixture.h"

using plinth::fakehost::Reply;
using plinth::hash::test::Fixture;

TEST_CASE("hash commands: HSCAN returns a listpack whole whatever the cursor and COUNT") {
  Fixture f;
  f.Run({"hset", "h", "a", "1", "b", "2", "ab", "3"});
  const std::string all =
      "1) \"0\"\n2) 1) \"a\"\n   2) \"1\"\n   3) \"b\"\n   4) \"2\"\n"
      "   5) \"ab\"\n   6) \"3\"";
  CHECK(f.Run({"hscan", "h", "0"}) == all);
  CHECK(f.Run({"hscan", "h", "7", "count", "1"}) == all);
  CHECK(f.Run({"hscan", "h", "0", "match", "a*"}) ==
        "1) \"0\"\n2) 1) \"a\"\n   2) \"1\"\n   3) \"ab\"\n   4) \"3\"");
  CHECK(f.Run({"hscan", "nosuch", "0"}) == "1) \"0\"\n2) (empty array)");
  CHECK(f.Run({"hscan", "nosuch", "0", "count", "0"}) == "1) \"0\"\n2) (empty array)");
}

TEST_CASE("hash commands: HSCAN walks a hashtable to cursor 0 and sees every field") {
  Fixture f;
  f.Fill("h", 1000);
  std::map<std::string, std::string> seen;
  std::string cursor = "0";
  int calls = 0;
  do {
    Reply r = f.Raw({"hscan", "h", cursor, "COUNT", "20"});
    REQUIRE(r.elements.size() == 2);
    cursor = r.elements[0].str;
    const auto& items = r.elements[1].elements;
    REQUIRE(items.size() % 2 == 0);
    CHECK(items.size() < 200);
    for (size_t i = 0; i < items.size(); i += 2) seen[items[i].str] = items[i + 1].str;
    ++calls;
  } while (cursor != "0" && calls < 10000);
  CHECK(seen.size() == 1000);
  CHECK(seen["f7"] == "v7");
  CHECK(calls > 10);
  // MATCH filters fields after the walk.
  Reply m = f.Raw({"hscan", "h", "0", "match", "f99*", "count", "100000"});
  CHECK(m.elements[0].str == "0");
  CHECK(m.elements[1].elements.size() == 2 * 11);  // f99, f990..f999
}

TEST_CASE("hash commands: HSCAN argument errors match Redis 7.0") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  CHECK(f.Run({"hscan", "h", "x"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"hscan", "nosuch", "x"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"hscan", "h", "18446744073709551616"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"hscan", "h", "-1"}).rfind("1) \"0\"", 0) == 0);
  CHECK(f.Run({"hscan", "h", "0", "count", "0"}) == "(error) ERR syntax error");
  CHECK(f.Run({"hscan", "h", "0", "count", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"hscan", "h", "0", "match"}) == "(error) ERR syntax error");
  CHECK(f.Run({"hscan", "h", "0", "novalues"}) == "(error) ERR syntax error");
  CHECK(f.Run({"hscan", "h", "0", "type", "hash"}) == "(error) ERR syntax error");
}
