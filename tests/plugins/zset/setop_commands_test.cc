// Command tests of ZUNION, ZINTER, ZDIFF, their STORE forms and ZINTERCARD: weights,
// aggregates, NaN products, argument errors, stored encodings, events.
#include <doctest/doctest.h>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

using V = std::vector<std::string>;

struct SetFixture : Fixture {
  SetFixture() {
    R("ZADD a 1 x 2 y 3 z");
    R("ZADD b 10 y 20 z 30 w");
    Events();
  }
};

TEST_CASE("zset zunion: sums and weights and aggregates") {
  SetFixture f;
  CHECK(f.R("ZUNION 2 a b") == "[x y z w]");
  CHECK(f.R("ZUNION 2 a b WITHSCORES") == "[x ,1 y ,12 z ,23 w ,30]");
  CHECK(f.R("ZUNION 2 a b WEIGHTS 2 3 WITHSCORES") == "[x ,2 y ,34 z ,66 w ,90]");
  CHECK(f.R("ZUNION 2 a b AGGREGATE MIN WITHSCORES") == "[x ,1 y ,2 z ,3 w ,30]");
  CHECK(f.R("ZUNION 2 a b AGGREGATE MAX WITHSCORES") == "[x ,1 y ,10 z ,20 w ,30]");
  CHECK(f.R("ZUNION 2 a nokey WITHSCORES") == "[x ,1 y ,2 z ,3]");
  f.host.SetProtocol(3);
  CHECK(f.R("ZUNION 1 a WITHSCORES") == "[[x ,1] [y ,2] [z ,3]]");
}

TEST_CASE("zset zinter and zdiff") {
  SetFixture f;
  CHECK(f.R("ZINTER 2 a b WITHSCORES") == "[y ,12 z ,23]");
  CHECK(f.R("ZINTER 2 a b WEIGHTS 2 0.5 AGGREGATE MAX WITHSCORES") == "[y ,5 z ,10]");
  CHECK(f.R("ZINTER 2 a nokey") == "[]");
  CHECK(f.R("ZDIFF 2 a b WITHSCORES") == "[x ,1]");
  CHECK(f.R("ZDIFF 2 b a") == "[w]");
  CHECK(f.R("ZDIFF 1 nokey") == "[]");
  CHECK(f.R("ZDIFF 2 a b WEIGHTS 1 2") == "!ERR syntax error");
  CHECK(f.R("ZINTERCARD 2 a b") == ":2");
  CHECK(f.R("ZINTERCARD 2 a b LIMIT 1") == ":1");
  CHECK(f.R("ZINTERCARD 2 a b LIMIT 0") == ":2");
  CHECK(f.R("ZINTERCARD 2 a b LIMIT -1") == "!ERR LIMIT can't be negative");
  CHECK(f.R("ZINTERCARD 2 a b WITHSCORES") == "!ERR syntax error");
}

TEST_CASE("zset zunion: inf times zero and inf minus inf count as zero") {
  Fixture f;
  f.R("ZADD i1 inf x 1 y");
  f.R("ZADD i2 -inf x 1 y");
  CHECK(f.R("ZUNION 2 i1 i2 WITHSCORES") == "[x ,0 y ,2]");
  CHECK(f.R("ZUNION 2 i1 i2 WEIGHTS 0 1 WITHSCORES") == "[x ,-inf y ,1]");
}

TEST_CASE("zset setops: argument errors") {
  SetFixture f;
  CHECK(f.R("ZUNION 0 a") == "!ERR at least 1 input key is needed for 'zunion' command");
  CHECK(f.R("ZINTERSTORE d 0 a") ==
        "!ERR at least 1 input key is needed for 'zinterstore' command");
  CHECK(f.R("ZINTERCARD 0 a") == "!ERR at least 1 input key is needed for 'zintercard' command");
  CHECK(f.R("ZUNION x a") == "!ERR value is not an integer or out of range");
  CHECK(f.R("ZUNION 3 a b") == "!ERR syntax error");
  CHECK(f.R("ZUNION 2 a b WEIGHTS 1 x") == "!ERR weight value is not a float");
  CHECK(f.R("ZUNION 2 a b WEIGHTS 1") == "!ERR syntax error");
  CHECK(f.R("ZUNION 2 a b AGGREGATE FOO") == "!ERR syntax error");
  CHECK(f.R("ZUNIONSTORE d 2 a b WITHSCORES") == "!ERR syntax error");
  f.R("SETSTR s v");
  // The type check comes before the options, as in Redis.
  CHECK(f.R("ZUNION 2 s a WEIGHTS x y").rfind("!WRONGTYPE", 0) == 0);
}

TEST_CASE("zset setops: STORE forms store and replace and delete") {
  SetFixture f;
  CHECK(f.R("ZUNIONSTORE d 2 a b") == ":4");
  CHECK(f.R("ZRANGE d 0 -1 WITHSCORES") == "[x ,1 y ,12 z ,23 w ,30]");
  CHECK(f.R("ZINTERSTORE d 2 a b AGGREGATE MIN") == ":2");
  CHECK(f.R("ZRANGE d 0 -1 WITHSCORES") == "[y ,2 z ,3]");
  CHECK(f.R("ZDIFFSTORE d 2 a b") == ":1");
  CHECK(f.R("ZDIFFSTORE d 2 a a") == ":0");
  CHECK(f.R("EXISTS d") == ":0");
  CHECK(f.Events() == V{"zunionstore d", "zinterstore d", "zdiffstore d", "del d"});
  CHECK(f.R("ZUNIONSTORE a 2 a b") == ":4");
  CHECK(f.R("ZCARD a") == ":4");
  f.R("SETSTR s v");
  CHECK(f.R("ZUNIONSTORE s 1 b") == ":3");
  CHECK(f.R("TYPE s") == "zset");
  f.Propagated();
  CHECK(f.R("ZINTERSTORE none 2 a nokey") == ":0");
  CHECK(f.Propagated().empty());
}

TEST_CASE("zset setops: stored results take the encoding of their size") {
  Fixture f;
  f.host.SetOption("zset-max-listpack-entries", "2");
  f.R("ZADD big 1 a 2 b 3 c");
  CHECK(f.R("OBJECT ENCODING big") == "skiplist");
  CHECK(f.R("ZINTERSTORE d 1 big") == ":3");
  CHECK(f.R("OBJECT ENCODING d") == "skiplist");
  f.R("ZREM big c");
  CHECK(f.R("ZUNIONSTORE d 1 big") == ":2");
  CHECK(f.R("OBJECT ENCODING d") == "listpack");
}

}  // namespace
}  // namespace plinth::zset::test
