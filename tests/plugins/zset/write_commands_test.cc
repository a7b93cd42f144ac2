// Command tests of ZADD, ZINCRBY, ZREM and ZREMRANGEBY*: flags and their error texts, replies,
// keyspace events, propagation, empty keys deleted, wrong types.
#include <doctest/doctest.h>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

using V = std::vector<std::string>;

TEST_CASE("zset zadd: adds and updates members and counts only additions") {
  Fixture f;
  CHECK(f.R("ZADD z 1 a 2 b") == ":2");
  CHECK(f.R("ZADD z 3 a 4 c") == ":1");
  CHECK(f.R("ZADD z CH 5 a 4 c 6 d") == ":2");
  CHECK(f.R("ZRANGE z 0 -1 WITHSCORES") == "[b ,2 c ,4 a ,5 d ,6]");
  CHECK(f.Events() == V{"zadd z", "zadd z", "zadd z"});
  CHECK(f.R("ZADD z 5 a") == ":0");
  CHECK(f.Events().empty());
  CHECK(f.R("ZADD z 1 m 2 m") == ":1");
  CHECK(f.R("ZSCORE z m") == ",2");
}

TEST_CASE("zset zadd: NX XX GT LT follow Redis") {
  Fixture f;
  f.R("ZADD z 10 a");
  CHECK(f.R("ZADD z NX 1 a 2 b") == ":1");
  CHECK(f.R("ZSCORE z a") == ",10");
  CHECK(f.R("ZADD z XX 1 a 5 c") == ":0");
  CHECK(f.R("ZSCORE z a") == ",1");
  CHECK(f.R("ZSCORE z c") == "nil");
  CHECK(f.R("ZADD z GT CH 0 a") == ":0");
  CHECK(f.R("ZADD z GT CH 7 a") == ":1");
  CHECK(f.R("ZADD z LT CH 9 a") == ":0");
  CHECK(f.R("ZADD z LT CH 3 a") == ":1");
  CHECK(f.R("ZADD z GT 1 new") == ":1");
  CHECK(f.R("ZADD nokey XX 1 a") == ":0");
  CHECK(f.R("EXISTS nokey") == ":0");
}

TEST_CASE("zset zadd: bad option combinations give Redis's errors") {
  Fixture f;
  CHECK(f.R("ZADD z NX XX 1 a") == "!ERR XX and NX options at the same time are not compatible");
  CHECK(f.R("ZADD z GT LT 1 a") ==
        "!ERR GT, LT, and/or NX options at the same time are not compatible");
  CHECK(f.R("ZADD z GT NX 1 a") ==
        "!ERR GT, LT, and/or NX options at the same time are not compatible");
  CHECK(f.R("ZADD z INCR 1 a 2 b") == "!ERR INCR option supports a single increment-element pair");
  CHECK(f.R("ZADD z 1 a 2") == "!ERR syntax error");
  CHECK(f.R("ZADD z NX 1") == "!ERR syntax error");
  CHECK(f.R("ZADD z abc a") == "!ERR value is not a valid float");
  CHECK(f.R("ZADD z nan a") == "!ERR value is not a valid float");
  CHECK(f.R("ZADD z 1e400 a") == "!ERR value is not a valid float");
  CHECK(f.R("ZADD z") == "!ERR wrong number of arguments for 'zadd' command");
  CHECK(f.R("EXISTS z") == ":0");
}

TEST_CASE("zset zadd: INCR replies the new score or nil") {
  Fixture f;
  CHECK(f.R("ZADD z INCR 2 a") == ",2");
  CHECK(f.R("ZADD z INCR 1.5 a") == ",3.5");
  CHECK(f.R("ZADD z INCR NX 1 a") == "nil");
  CHECK(f.R("ZADD z INCR XX 1 b") == "nil");
  CHECK(f.R("ZADD z INCR GT -1 a") == "nil");
  CHECK(f.R("ZADD z INCR 0 a") == ",3.5");
  CHECK(f.Events() == V{"zincr z", "zincr z"});
  CHECK(f.R("ZADD z INCR inf a") == ",inf");
  CHECK(f.R("ZADD z INCR -inf a") == "!ERR resulting score is not a number (NaN)");
  CHECK(f.R("ZINCRBY z -inf a") == "!ERR resulting score is not a number (NaN)");
  CHECK(f.R("ZSCORE z a") == ",inf");
}

TEST_CASE("zset zincrby: increments creating the key and member") {
  Fixture f;
  CHECK(f.R("ZINCRBY z 1 a") == ",1");
  CHECK(f.R("ZINCRBY z 2.5 a") == ",3.5");
  CHECK(f.R("ZINCRBY z x a") == "!ERR value is not a valid float");
  CHECK(f.Events() == V{"zincr z", "zincr z"});
  CHECK(f.Propagated() == V{"ZINCRBY z 1 a", "ZINCRBY z 2.5 a"});
}

TEST_CASE("zset zadd: wrong type and a string key") {
  Fixture f;
  f.R("SETSTR s v");
  CHECK(f.R("ZADD s 1 a") == "!WRONGTYPE Operation against a key holding the wrong kind of value");
  // Parse errors come before the type check, as in Redis.
  CHECK(f.R("ZADD s x a") == "!ERR value is not a valid float");
  CHECK(f.R("ZINCRBY s 1 a").rfind("!WRONGTYPE", 0) == 0);
}

TEST_CASE("zset zadd: propagates verbatim only when it changed something") {
  Fixture f;
  f.Propagated();
  f.R("ZADD z 1 a");
  f.R("ZADD z 1 a");
  f.R("ZADD z NX 5 a");
  f.R("ZADD z XX 2 a");
  CHECK(f.Propagated() == V{"ZADD z 1 a", "ZADD z XX 2 a"});
}

TEST_CASE("zset zrem: removes members and deletes the emptied key") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c");
  f.Events();
  CHECK(f.R("ZREM z a x") == ":1");
  CHECK(f.R("ZREM z x") == ":0");
  CHECK(f.R("ZREM nokey a") == ":0");
  CHECK(f.R("ZREM z b c b") == ":2");
  CHECK(f.R("EXISTS z") == ":0");
  CHECK(f.Events() == V{"zrem z", "zrem z", "del z"});
  f.R("SETSTR s v");
  CHECK(f.R("ZREM s a").rfind("!WRONGTYPE", 0) == 0);
}

TEST_CASE("zset zremrangebyrank: clamps ranks and deletes the emptied key") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c 4 d 5 e");
  f.Events();
  CHECK(f.R("ZREMRANGEBYRANK z 0 0") == ":1");
  CHECK(f.R("ZREMRANGEBYRANK z -1 -1") == ":1");
  CHECK(f.R("ZREMRANGEBYRANK z 5 10") == ":0");
  CHECK(f.R("ZREMRANGEBYRANK z 2 1") == ":0");
  CHECK(f.R("ZRANGE z 0 -1") == "[b c d]");
  CHECK(f.R("ZREMRANGEBYRANK z x 1") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZREMRANGEBYRANK z -100 100") == ":3");
  CHECK(f.R("EXISTS z") == ":0");
  CHECK(f.Events() == V{"zremrangebyrank z", "zremrangebyrank z", "zremrangebyrank z", "del z"});
}

TEST_CASE("zset zremrangebyscore and zremrangebylex: ranges and errors") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c 4 d");
  CHECK(f.R("ZREMRANGEBYSCORE z (1 3") == ":2");
  CHECK(f.R("ZREMRANGEBYSCORE z 5 1") == ":0");
  CHECK(f.R("ZREMRANGEBYSCORE z x 1") == "!ERR min or max is not a float");
  CHECK(f.R("ZRANGE z 0 -1") == "[a d]");
  f.R("ZADD l 0 a 0 b 0 c 0 d");
  f.Events();
  CHECK(f.R("ZREMRANGEBYLEX l [b (d") == ":2");
  CHECK(f.R("ZREMRANGEBYLEX l b d") == "!ERR min or max not valid string range item");
  CHECK(f.R("ZREMRANGEBYLEX l - +") == ":2");
  CHECK(f.R("EXISTS l") == ":0");
  CHECK(f.Events() == V{"zremrangebylex l", "zremrangebylex l", "del l"});
  CHECK(f.R("ZREMRANGEBYSCORE nokey -inf +inf") == ":0");
}

}  // namespace
}  // namespace plinth::zset::test
