// Command tests of HRANDFIELD: the single form, positive (distinct) and negative (repeating)
// counts, WITHVALUES in RESP2 and RESP3, and Redis 7.0's range errors.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "hash_fixture.h"

using plinth::fakehost::Reply;
using plinth::fakehost::ReplyType;
using plinth::hash::test::Fixture;

namespace {

std::set<std::string> Strings(const Reply& r) {
  std::set<std::string> out;
  for (const Reply& e : r.elements) out.insert(e.str);
  return out;
}

}  // namespace

TEST_CASE("hash commands: HRANDFIELD without a count") {
  Fixture f;
  CHECK(f.Run({"hrandfield", "nosuch"}) == "(nil)");
  f.Run({"hset", "h", "a", "1", "b", "2", "c", "3"});
  for (int i = 0; i < 20; ++i) {
    const std::string r = f.Run({"hrandfield", "h"});
    CHECK((r == "\"a\"" || r == "\"b\"" || r == "\"c\""));
  }
}

TEST_CASE("hash commands: HRANDFIELD with a positive count returns distinct fields") {
  for (int n : {5, 300}) {  // listpack and hashtable
    Fixture f;
    f.Fill("h", n);
    for (int count : {1, 2, n / 2, n - 1, n, n + 10}) {
      Reply r = f.Raw({"hrandfield", "h", std::to_string(count)});
      const size_t want = static_cast<size_t>(count < n ? count : n);
      CHECK(r.elements.size() == want);
      CHECK(Strings(r).size() == want);
    }
    Reply all = f.Raw({"hrandfield", "h", "1000", "withvalues"});
    REQUIRE(all.elements.size() == static_cast<size_t>(2 * n));
    for (size_t i = 0; i < all.elements.size(); i += 2)
      CHECK(all.elements[i].str.substr(1) == all.elements[i + 1].str.substr(1));
  }
}

TEST_CASE("hash commands: HRANDFIELD with a negative count may repeat") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  CHECK(f.Run({"hrandfield", "h", "-3"}) == "1) \"a\"\n2) \"a\"\n3) \"a\"");
  CHECK(f.Run({"hrandfield", "h", "-2", "WITHVALUES"}) == "1) \"a\"\n2) \"1\"\n3) \"a\"\n4) \"1\"");
  f.Fill("big", 200);
  CHECK(f.Raw({"hrandfield", "big", "-500"}).elements.size() == 500);
  CHECK(f.Run({"hrandfield", "h", "0"}) == "(empty array)");
  CHECK(f.Run({"hrandfield", "nosuch", "5"}) == "(empty array)");
  CHECK(f.Run({"hrandfield", "nosuch", "-5", "withvalues"}) == "(empty array)");
}

TEST_CASE("hash commands: HRANDFIELD WITHVALUES pairs are arrays in RESP3") {
  Fixture f;
  f.host.SetProtocol(3);
  f.Run({"hset", "h", "a", "1", "b", "2"});
  Reply r = f.Raw({"hrandfield", "h", "-3", "withvalues"});
  REQUIRE(r.type == ReplyType::kArray);
  REQUIRE(r.elements.size() == 3);
  for (const Reply& pair : r.elements) {
    REQUIRE(pair.type == ReplyType::kArray);
    REQUIRE(pair.elements.size() == 2);
    CHECK(((pair.elements[0].str == "a" && pair.elements[1].str == "1") ||
           (pair.elements[0].str == "b" && pair.elements[1].str == "2")));
  }
  CHECK(f.Raw({"hrandfield", "h", "5", "withvalues"}).elements.size() == 2);
  CHECK(f.Raw({"hrandfield", "h", "5"}).elements[0].type == ReplyType::kBulk);
  CHECK(f.Raw({"hrandfield", "nosuch"}).type == ReplyType::kNull);
}

TEST_CASE("hash commands: HRANDFIELD argument errors match Redis 7.0") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  CHECK(f.Run({"hrandfield", "h", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"hrandfield", "h", "-9223372036854775808"}) ==
        "(error) ERR value is out of range, value must between -9223372036854775807 and "
        "9223372036854775807");
  CHECK(f.Run({"hrandfield", "h", "-4611686018427387904", "withvalues"}) ==
        "(error) ERR value is out of range");
  CHECK(f.Run({"hrandfield", "h", "4611686018427387904", "withvalues"}) ==
        "(error) ERR value is out of range");
  CHECK(f.Run({"hrandfield", "h", "1", "withvalue"}) == "(error) ERR syntax error");
  CHECK(f.Run({"hrandfield", "h", "1", "withvalues", "x"}) == "(error) ERR syntax error");
  // Bounded where Redis would run out of memory building the reply.
  const std::string kTooMany =
      "(error) ERR value is out of range, a negative count may repeat at most 16777216 elements";
  CHECK(f.Run({"hrandfield", "h", "-9223372036854775807"}) == kTooMany);
  CHECK(f.Run({"hrandfield", "h", "-16777217"}) == kTooMany);
  CHECK(f.Run({"hrandfield", "h", "-4294967296", "withvalues"}) == kTooMany);
  CHECK(f.Run({"hrandfield", "h", "-1"}) == "1) \"a\"");
  CHECK(f.Run({"hrandfield", "h", "0"}) == "(empty array)");
  CHECK(f.Run({"hrandfield", "h", "9223372036854775807"}) == "1) \"a\"");
}
