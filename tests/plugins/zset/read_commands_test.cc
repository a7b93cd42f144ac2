// Command tests of ZSCORE, ZMSCORE, ZCARD, ZCOUNT, ZLEXCOUNT, ZRANK, ZREVRANK, ZRANDMEMBER and
// ZSCAN, in both encodings.
#include <doctest/doctest.h>

#include <set>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

TEST_CASE("zset reads: score and card and count and rank") {
  for (const char* limit : {"128", "0"}) {
    Fixture f;
    f.host.SetOption("zset-max-listpack-entries", limit);
    f.R("ZADD z 1 a 2 b 3 c 1.5 d");
    CHECK(f.R("ZSCORE z d") == ",1.5");
    CHECK(f.R("ZSCORE z x") == "nil");
    CHECK(f.R("ZSCORE nokey x") == "nil");
    CHECK(f.R("ZMSCORE z a x c") == "[,1 nil ,3]");
    CHECK(f.R("ZMSCORE nokey a") == "[nil]");
    CHECK(f.R("ZCARD z") == ":4");
    CHECK(f.R("ZCARD nokey") == ":0");
    CHECK(f.R("ZCOUNT z (1 3") == ":3");
    CHECK(f.R("ZCOUNT z 3 1") == ":0");
    CHECK(f.R("ZCOUNT z a 1") == "!ERR min or max is not a float");
    CHECK(f.R("ZRANK z d") == ":1");
    CHECK(f.R("ZREVRANK z d") == ":2");
    CHECK(f.R("ZRANK z x") == "nil");
    CHECK(f.R("ZLEXCOUNT z - +") == ":4");
    CHECK(f.R("ZLEXCOUNT z x +") == "!ERR min or max not valid string range item");
    f.R("SETSTR s v");
    CHECK(f.R("ZCARD s").rfind("!WRONGTYPE", 0) == 0);
    CHECK(f.R("ZSCORE s a").rfind("!WRONGTYPE", 0) == 0);
    CHECK(f.R("ZRANK s a").rfind("!WRONGTYPE", 0) == 0);
  }
}

TEST_CASE("zset zrandmember: counts and repeats and errors") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c");
  const std::set<std::string> all = {"a", "b", "c"};
  CHECK(all.count(f.R("ZRANDMEMBER z")) == 1);
  CHECK(f.R("ZRANDMEMBER nokey") == "nil");
  CHECK(f.R("ZRANDMEMBER nokey 3") == "[]");
  CHECK(f.R("ZRANDMEMBER z 0") == "[]");
  CHECK(f.R("ZRANDMEMBER z 10") == "[c b a]");
  CHECK(f.R("ZRANDMEMBER z 9223372036854775807") == "[c b a]");
  const fakehost::Reply two = f.host.Call({"ZRANDMEMBER", "z", "2"});
  REQUIRE(two.elements.size() == 2);
  CHECK(two.elements[0].str != two.elements[1].str);
  CHECK(f.host.Call({"ZRANDMEMBER", "z", "-7"}).elements.size() == 7);
  CHECK(f.host.Call({"ZRANDMEMBER", "z", "-2", "WITHSCORES"}).elements.size() == 4);
  f.host.SetProtocol(3);
  CHECK(f.R("ZRANDMEMBER z 5 WITHSCORES") == "[[c ,3] [b ,2] [a ,1]]");
  f.host.SetProtocol(2);
  CHECK(f.R("ZRANDMEMBER z 1 FOO") == "!ERR syntax error");
  CHECK(f.R("ZRANDMEMBER z x") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZRANDMEMBER z -9223372036854775808") ==
        "!ERR value is out of range, value must between -9223372036854775807 and "
        "9223372036854775807");
  CHECK(f.R("ZRANDMEMBER z -9223372036854775807 WITHSCORES") == "!ERR value is out of range");
}

TEST_CASE("zset zrandmember: a huge negative count is refused at once, not looped") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c");
  const std::string kTooMany =
      "!ERR value is out of range, a negative count may repeat at most 16777216 elements";
  CHECK(f.R("ZRANDMEMBER z -9223372036854775807") == kTooMany);
  CHECK(f.R("ZRANDMEMBER z -4294967296") == kTooMany);
  CHECK(f.R("ZRANDMEMBER z -16777217") == kTooMany);
  CHECK(f.R("ZRANDMEMBER z -4294967296 WITHSCORES") == kTooMany);
  // Redis's own bound for WITHSCORES comes first, with its text.
  CHECK(f.R("ZRANDMEMBER z -9223372036854775807 WITHSCORES") == "!ERR value is out of range");
  CHECK(f.host.Call({"ZRANDMEMBER", "z", "-1"}).elements.size() == 1);
  CHECK(f.R("ZRANDMEMBER nokey -9223372036854775807") == "[]");
}

TEST_CASE("zset zrandmember: distinct picks from a skiplist") {
  Fixture f;
  for (int i = 0; i < 300; ++i) f.Run({"ZADD", "z", std::to_string(i), "m" + std::to_string(i)});
  CHECK(f.R("OBJECT ENCODING z") == "skiplist");
  const fakehost::Reply r = f.host.Call({"ZRANDMEMBER", "z", "100"});
  std::set<std::string> seen;
  for (const auto& e : r.elements) seen.insert(e.str);
  CHECK(seen.size() == 100);
}

TEST_CASE("zset zscan: listpack in one call and skiplist by cursor") {
  Fixture f;
  f.R("ZADD z 1.5 a 2 b");
  CHECK(f.R("ZSCAN z 0") == "[0 [a 1.5 b 2]]");
  CHECK(f.R("ZSCAN z 0 MATCH b*") == "[0 [b 2]]");
  CHECK(f.R("ZSCAN z 0 COUNT 0") == "!ERR syntax error");
  CHECK(f.R("ZSCAN z 0 COUNT x") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZSCAN z 0 TYPE zset") == "!ERR syntax error");
  CHECK(f.R("ZSCAN z x") == "!ERR invalid cursor");
  CHECK(f.R("ZSCAN nokey 0") == "[0 []]");
  for (int i = 0; i < 1000; ++i) f.Run({"ZADD", "big", std::to_string(i), "m" + std::to_string(i)});
  std::set<std::string> seen;
  std::string cursor = "0";
  int calls = 0;
  do {
    const fakehost::Reply r = f.host.Call({"ZSCAN", "big", cursor, "COUNT", "50"});
    REQUIRE(r.elements.size() == 2);
    cursor = r.elements[0].str;
    for (size_t i = 0; i < r.elements[1].elements.size(); i += 2) {
      const std::string m = r.elements[1].elements[i].str;
      CHECK(r.elements[1].elements[i + 1].str == m.substr(1));
      seen.insert(m);
    }
    // Members removed mid-scan do not hide the others.
    if (calls == 3) f.R("ZREMRANGEBYRANK big 0 99");
    ++calls;
  } while (cursor != "0" && calls < 10000);
  CHECK(calls > 2);
  for (int i = 100; i < 1000; ++i) CHECK(seen.count("m" + std::to_string(i)) == 1);
}

TEST_CASE("zset zscan: a huge COUNT walks the whole skiplist index once, without overflow") {
  Fixture f;
  for (int i = 0; i < 300; ++i) f.Run({"ZADD", "big", std::to_string(i), "m" + std::to_string(i)});
  REQUIRE(f.R("OBJECT ENCODING big") == "skiplist");
  for (const char* count : {"9223372036854775807", "922337203685477581", "4294967296"}) {
    const fakehost::Reply r = f.host.Call({"ZSCAN", "big", "0", "COUNT", count});
    REQUIRE(r.elements.size() == 2);
    CHECK(r.elements[0].str == "0");
    CHECK(r.elements[1].elements.size() == 600);
  }
  CHECK(f.R("ZSCAN big 0 COUNT -1") == "!ERR syntax error");
  CHECK(f.R("ZSCAN big 0 COUNT -9223372036854775808") == "!ERR syntax error");
}

}  // namespace
}  // namespace plinth::zset::test
