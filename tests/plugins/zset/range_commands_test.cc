// Command tests of ZRANGE and its variants and ZRANGESTORE: rank, score and lex ranges, REV,
// LIMIT, WITHSCORES, their conflicts, RESP3 pairs, huge ranges bounded by the data.
#include <doctest/doctest.h>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

using V = std::vector<std::string>;

struct RangeFixture : Fixture {
  RangeFixture() { R("ZADD z 1 a 2 b 3 c 4 d 5 e 5 f"); }
};

TEST_CASE("zset zrange: by rank forward and reversed") {
  RangeFixture f;
  CHECK(f.R("ZRANGE z 0 -1") == "[a b c d e f]");
  CHECK(f.R("ZRANGE z 1 2 WITHSCORES") == "[b ,2 c ,3]");
  CHECK(f.R("ZRANGE z -2 -1") == "[e f]");
  CHECK(f.R("ZRANGE z 5 1") == "[]");
  CHECK(f.R("ZRANGE z 0 -1 REV") == "[f e d c b a]");
  CHECK(f.R("ZREVRANGE z 0 1 WITHSCORES") == "[f ,5 e ,5]");
  CHECK(f.R("ZRANGE z -9223372036854775808 9223372036854775807") == "[a b c d e f]");
  CHECK(f.R("ZRANGE z 0 99999999999999999999") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZRANGE nokey 0 -1") == "[]");
}

TEST_CASE("zset zrange: by score with exclusive ends and LIMIT") {
  RangeFixture f;
  CHECK(f.R("ZRANGE z 2 4 BYSCORE") == "[b c d]");
  CHECK(f.R("ZRANGE z (2 (4 BYSCORE") == "[c]");
  CHECK(f.R("ZRANGE z 4 2 BYSCORE REV") == "[d c b]");
  CHECK(f.R("ZRANGE z 2 4 BYSCORE REV") == "[]");
  CHECK(f.R("ZRANGE z -inf +inf BYSCORE LIMIT 1 2") == "[b c]");
  CHECK(f.R("ZRANGE z -inf +inf BYSCORE LIMIT 4 -1") == "[e f]");
  CHECK(f.R("ZRANGE z -inf +inf BYSCORE LIMIT -1 2") == "[]");
  CHECK(f.R("ZRANGE z -inf +inf BYSCORE LIMIT 0 0") == "[]");
  CHECK(f.R("ZRANGE z +inf -inf BYSCORE REV LIMIT 1 2 WITHSCORES") == "[e ,5 d ,4]");
  CHECK(f.R("ZRANGEBYSCORE z 2 4 WITHSCORES LIMIT 1 5") == "[c ,3 d ,4]");
  CHECK(f.R("ZREVRANGEBYSCORE z 4 2") == "[d c b]");
  CHECK(f.R("ZRANGEBYSCORE z (5 5") == "[]");
  CHECK(f.R("ZRANGEBYSCORE z 5 5") == "[e f]");
  CHECK(f.R("ZRANGE z -inf +inf BYSCORE LIMIT 0 9223372036854775807") == "[a b c d e f]");
}

TEST_CASE("zset zrange: by lex") {
  Fixture f;
  f.R("ZADD l 0 a 0 b 0 c 0 d 0 e");
  CHECK(f.R("ZRANGEBYLEX l - +") == "[a b c d e]");
  CHECK(f.R("ZRANGEBYLEX l [b (d") == "[b c]");
  CHECK(f.R("ZRANGEBYLEX l (b +") == "[c d e]");
  CHECK(f.R("ZRANGEBYLEX l + -") == "[]");
  CHECK(f.R("ZRANGEBYLEX l (c (c") == "[]");
  CHECK(f.R("ZRANGEBYLEX l - + LIMIT 1 2") == "[b c]");
  CHECK(f.R("ZREVRANGEBYLEX l [d [b") == "[d c b]");
  CHECK(f.R("ZRANGE l + - BYLEX REV LIMIT 0 2") == "[e d]");
  CHECK(f.R("ZRANGEBYLEX l b d") == "!ERR min or max not valid string range item");
}

TEST_CASE("zset zrange: option conflicts give Redis's errors") {
  RangeFixture f;
  CHECK(f.R("ZRANGE z 0 -1 LIMIT 0 1") ==
        "!ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
  CHECK(f.R("ZRANGE z 0 -1 LIMIT 0 -1") == "[a b c d e f]");
  CHECK(f.R("ZRANGE z [a [c BYLEX WITHSCORES") ==
        "!ERR syntax error, WITHSCORES not supported in combination with BYLEX");
  CHECK(f.R("ZRANGE z 0 -1 BYSCORE BYLEX") == "!ERR syntax error");
  CHECK(f.R("ZRANGE z 0 -1 REV REV") == "!ERR syntax error");
  CHECK(f.R("ZRANGE z 0 -1 LIMIT 1") == "!ERR syntax error");
  CHECK(f.R("ZRANGE z 0 -1 LIMIT a b") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZRANGEBYSCORE z 0 1 REV") == "!ERR syntax error");
  CHECK(f.R("ZREVRANGE z 0 1 LIMIT 0 1") ==
        "!ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
  CHECK(f.R("ZRANGE z x y BYSCORE") == "!ERR min or max is not a float");
  f.R("SETSTR s v");
  CHECK(f.R("ZRANGE s x y BYSCORE") == "!ERR min or max is not a float");
  CHECK(f.R("ZRANGE s 0 1").rfind("!WRONGTYPE", 0) == 0);
}

TEST_CASE("zset zrange: RESP3 WITHSCORES replies member and score pairs") {
  RangeFixture f;
  f.host.SetProtocol(3);
  CHECK(f.R("ZRANGE z 0 1 WITHSCORES") == "[[a ,1] [b ,2]]");
  CHECK(f.R("ZRANGEBYSCORE z 5 5 WITHSCORES") == "[[e ,5] [f ,5]]");
  CHECK(f.R("ZRANGE z 0 1") == "[a b]");
}

TEST_CASE("zset zrangestore: stores the range and deletes dst when empty") {
  RangeFixture f;
  f.Events();
  CHECK(f.R("ZRANGESTORE d z 0 1") == ":2");
  CHECK(f.R("ZRANGE d 0 -1 WITHSCORES") == "[a ,1 b ,2]");
  CHECK(f.R("ZRANGESTORE d z 4 2 BYSCORE REV LIMIT 0 2") == ":2");
  CHECK(f.R("ZRANGE d 0 -1") == "[c d]");
  CHECK(f.R("ZRANGESTORE d z 0 -1 WITHSCORES") == "!ERR syntax error");
  CHECK(f.R("ZRANGESTORE d z 10 20") == ":0");
  CHECK(f.R("EXISTS d") == ":0");
  CHECK(f.Events() == V{"zrangestore d", "zrangestore d", "del d"});
  CHECK(f.R("ZRANGESTORE z z 1 2") == ":2");
  CHECK(f.R("ZRANGE z 0 -1") == "[b c]");
  f.R("SETSTR s v");
  CHECK(f.R("ZRANGESTORE d s 0 1").rfind("!WRONGTYPE", 0) == 0);
  CHECK(f.R("ZRANGESTORE s z 0 0") == ":1");
  CHECK(f.R("TYPE s") == "zset");
}

}  // namespace
}  // namespace plinth::zset::test
