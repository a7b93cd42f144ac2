// Command tests of HSET, HMSET, HSETNX, HDEL, HINCRBY and HINCRBYFLOAT through the fake host.
// The expectations were recorded from Redis 7.0.15 running the same commands.
#include <doctest/doctest.h>

#include "hash_fixture.h"

using plinth::hash::test::Fixture;

TEST_CASE("hash commands: HSET counts new fields and HMSET replies OK") {
  Fixture f;
  CHECK(f.Run({"hset", "h", "a", "1", "b", "2"}) == "(integer) 2");
  CHECK(f.Run({"hset", "h", "a", "x", "c", "3"}) == "(integer) 1");
  CHECK(f.Run({"hset", "h", "d", "4", "d", "5"}) == "(integer) 1");
  CHECK(f.Run({"hget", "h", "d"}) == "\"5\"");
  CHECK(f.Run({"hmset", "h", "a", "y", "e", "5"}) == "OK");
  CHECK(f.Run({"hgetall", "h"}) ==
        " 1) \"a\"\n 2) \"y\"\n 3) \"b\"\n 4) \"2\"\n 5) \"c\"\n 6) \"3\"\n 7) \"d\"\n"
        " 8) \"5\"\n 9) \"e\"\n10) \"5\"");
  CHECK(f.Run({"hset", "h", "f"}) == "(error) ERR wrong number of arguments for 'hset' command");
  CHECK(f.Run({"hset", "h", "f", "v", "g"}) ==
        "(error) ERR wrong number of arguments for 'hset' command");
  CHECK(f.Run({"HMSET", "h", "a", "b", "c"}) ==
        "(error) ERR wrong number of arguments for 'hmset' command");
  CHECK(f.Run({"hmset", "h", "a"}) == "(error) ERR wrong number of arguments for 'hmset' command");
}

TEST_CASE("hash commands: HSETNX sets only a missing field") {
  Fixture f;
  CHECK(f.Run({"hsetnx", "h", "a", "1"}) == "(integer) 1");
  CHECK(f.Run({"hsetnx", "h", "a", "2"}) == "(integer) 0");
  CHECK(f.Run({"hget", "h", "a"}) == "\"1\"");
  CHECK(f.Run({"hsetnx", "h", "b", ""}) == "(integer) 1");
  CHECK(f.Run({"hlen", "h"}) == "(integer) 2");
}

TEST_CASE("hash commands: HDEL removes fields and the key with the last one") {
  Fixture f;
  f.Run({"hset", "h", "a", "1", "b", "2", "c", "3"});
  CHECK(f.Run({"hdel", "h", "a", "a", "x"}) == "(integer) 1");
  CHECK(f.Run({"hdel", "nosuch", "a"}) == "(integer) 0");
  CHECK(f.Run({"hdel", "h", "x"}) == "(integer) 0");
  CHECK(f.Run({"hdel", "h", "b", "c", "b"}) == "(integer) 2");
  CHECK(f.Run({"exists", "h"}) == "(integer) 0");
  CHECK(f.Run({"type", "h"}) == "none");
}

TEST_CASE("hash commands: HINCRBY adds to integers with Redis's errors") {
  Fixture f;
  CHECK(f.Run({"hincrby", "h", "n", "5"}) == "(integer) 5");
  CHECK(f.Run({"hincrby", "h", "n", "-7"}) == "(integer) -2");
  CHECK(f.Run({"hget", "h", "n"}) == "\"-2\"");
  CHECK(f.Run({"hincrby", "h", "n", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"hincrby", "h", "n", "1.5"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"hincrby", "h", "m", "-9223372036854775808"}) == "(integer) -9223372036854775808");
  CHECK(f.Run({"hincrby", "h", "m", "-1"}) == "(error) ERR increment or decrement would overflow");
  f.Run({"hset", "h", "s", "abc", "sp", " 1", "e", "", "z", "007", "fl", "10.50"});
  for (const char* field : {"s", "sp", "e", "z", "fl"}) {
    CHECK(f.Run({"hincrby", "h", field, "1"}) == "(error) ERR hash value is not an integer");
  }
  CHECK(f.Run({"hget", "h", "m"}) == "\"-9223372036854775808\"");
}

TEST_CASE("hash commands: HINCRBYFLOAT formats like Redis 7.0") {
  Fixture f;
  f.Run({"hset", "h", "a", "1", "n", "10.50", "s", "abc", "e", ""});
  CHECK(f.Run({"hincrbyfloat", "h", "a", "1e-20"}) == "\"1\"");
  CHECK(f.Run({"hincrbyfloat", "h", "b", "-0.0"}) == "\"0\"");
  CHECK(f.Run({"hincrbyfloat", "h", "c", "3.0e3"}) == "\"3000\"");
  CHECK(f.Run({"hincrbyfloat", "h", "d", "0x10"}) == "\"16\"");
  CHECK(f.Run({"hincrbyfloat", "h", "n", "0.1"}) == "\"10.6\"");
  CHECK(f.Run({"hincrbyfloat", "h", "p", "1500"}) == "\"1500\"");
  CHECK(f.Run({"hincrbyfloat", "h", "p", "0.1"}) == "\"1500.09999999999999998\"");
  CHECK(f.Run({"hincrbyfloat", "h", "a", "abc"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"hincrbyfloat", "h", "a", " 1"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"hincrbyfloat", "h", "a", "nan"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"hincrbyfloat", "h", "a", "inf"}) == "(error) ERR value is NaN or Infinity");
  CHECK(f.Run({"hincrbyfloat", "h", "s", "1"}) == "(error) ERR hash value is not a float");
  CHECK(f.Run({"hincrbyfloat", "h", "e", "1"}) == "(error) ERR hash value is not a float");
  f.Run({"hset", "h", "big", "1e4932"});
  CHECK(f.Run({"hincrbyfloat", "h", "big", "1e4932"}) ==
        "(error) ERR increment would produce NaN or Infinity");
  CHECK(f.Run({"hget", "h", "big"}) == "\"1e4932\"");
  // A huge result is thousands of digits long: the hash becomes a hashtable.
  CHECK(f.Run({"hincrbyfloat", "h", "big", "1"}).size() > 4000);
  CHECK(f.Run({"object", "encoding", "h"}) == "\"hashtable\"");
}

TEST_CASE("hash commands: write commands on another type answer WRONGTYPE and change nothing") {
  Fixture f;
  f.Run({"set", "s", "x"});
  const std::string wrong =
      "(error) WRONGTYPE Operation against a key holding the wrong kind of value";
  CHECK(f.Run({"hset", "s", "a", "b"}) == wrong);
  CHECK(f.Run({"hmset", "s", "a", "b"}) == wrong);
  CHECK(f.Run({"hsetnx", "s", "a", "b"}) == wrong);
  CHECK(f.Run({"hdel", "s", "a"}) == wrong);
  CHECK(f.Run({"hincrby", "s", "a", "1"}) == wrong);
  CHECK(f.Run({"hincrbyfloat", "s", "a", "1"}) == wrong);
  // The increment is checked before the key's type, as in Redis.
  CHECK(f.Run({"hincrby", "s", "a", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"hincrbyfloat", "s", "a", "inf"}) == "(error) ERR value is NaN or Infinity");
  CHECK(f.Run({"get", "s"}) == "\"x\"");
  CHECK(f.Propagated() == std::vector<std::string>{"set s x"});
}

TEST_CASE("hash commands: keyspace events follow Redis's names") {
  Fixture f;
  f.Events();
  f.Run({"hset", "h", "a", "1", "b", "2"});
  CHECK(f.Events() == std::vector<std::string>{"new h", "hset h"});
  f.Run({"hmset", "h", "a", "1"});
  f.Run({"hsetnx", "h", "a", "1"});  // nothing set: no event
  f.Run({"hsetnx", "h", "c", "1"});
  f.Run({"hincrby", "h", "n", "1"});
  f.Run({"hincrbyfloat", "h", "n", "1.5"});
  f.Run({"hdel", "h", "zz"});  // nothing deleted: no event
  f.Run({"hdel", "h", "a"});
  CHECK(f.Events() ==
        std::vector<std::string>{"hset h", "hset h", "hincrby h", "hincrbyfloat h", "hdel h"});
  f.Run({"hdel", "h", "b", "c", "n"});
  CHECK(f.Events() == std::vector<std::string>{"hdel h", "del h"});
  f.Run({"hincrby", "h", "x", "oops"});
  f.Run({"hget", "h", "x"});
  CHECK(f.Events().empty());
}
