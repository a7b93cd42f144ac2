// Command tests of HGET, HMGET, HEXISTS, HLEN, HSTRLEN, HKEYS, HVALS and HGETALL through the
// fake host, in RESP2 and RESP3. Expectations recorded from Redis 7.0.15.
#include <doctest/doctest.h>

#include "hash_fixture.h"

using plinth::fakehost::ReplyType;
using plinth::hash::test::Fixture;

TEST_CASE("hash commands: reads of present and missing fields") {
  Fixture f;
  f.Run({"hset", "h", "a", "1", "b", "hello", "", "empty"});
  CHECK(f.Run({"hget", "h", "a"}) == "\"1\"");
  CHECK(f.Run({"hget", "h", "x"}) == "(nil)");
  CHECK(f.Run({"hget", "nosuch", "a"}) == "(nil)");
  CHECK(f.Run({"hget", "h", ""}) == "\"empty\"");
  CHECK(f.Run({"hmget", "h", "a", "x", "b"}) == "1) \"1\"\n2) (nil)\n3) \"hello\"");
  CHECK(f.Run({"hmget", "nosuch", "a", "b"}) == "1) (nil)\n2) (nil)");
  CHECK(f.Run({"hexists", "h", "a"}) == "(integer) 1");
  CHECK(f.Run({"hexists", "h", "x"}) == "(integer) 0");
  CHECK(f.Run({"hexists", "nosuch", "x"}) == "(integer) 0");
  CHECK(f.Run({"hlen", "h"}) == "(integer) 3");
  CHECK(f.Run({"hlen", "nosuch"}) == "(integer) 0");
  CHECK(f.Run({"hstrlen", "h", "b"}) == "(integer) 5");
  CHECK(f.Run({"hstrlen", "h", "x"}) == "(integer) 0");
  CHECK(f.Run({"hstrlen", "nosuch", "x"}) == "(integer) 0");
}

TEST_CASE("hash commands: HKEYS HVALS and HGETALL keep listpack insertion order") {
  Fixture f;
  f.Run({"hset", "h", "z", "1", "y", "2", "x", "3"});
  f.Run({"hdel", "h", "y"});
  f.Run({"hset", "h", "y", "4", "z", "5"});
  CHECK(f.Run({"hkeys", "h"}) == "1) \"z\"\n2) \"x\"\n3) \"y\"");
  CHECK(f.Run({"hvals", "h"}) == "1) \"5\"\n2) \"3\"\n3) \"4\"");
  CHECK(f.Run({"hgetall", "h"}) == "1) \"z\"\n2) \"5\"\n3) \"x\"\n4) \"3\"\n5) \"y\"\n6) \"4\"");
  CHECK(f.Run({"hkeys", "nosuch"}) == "(empty array)");
  CHECK(f.Run({"hvals", "nosuch"}) == "(empty array)");
  CHECK(f.Run({"hgetall", "nosuch"}) == "(empty array)");
}

TEST_CASE("hash commands: HGETALL is a map in RESP3 and HKEYS stays an array") {
  Fixture f;
  f.host.SetProtocol(3);
  f.Run({"hset", "h", "a", "1", "b", "2"});
  plinth::fakehost::Reply r = f.Raw({"hgetall", "h"});
  CHECK(r.type == ReplyType::kMap);
  REQUIRE(r.elements.size() == 4);
  CHECK(r.elements[0].str == "a");
  CHECK(r.elements[3].str == "2");
  CHECK(f.Raw({"hgetall", "nosuch"}).type == ReplyType::kMap);
  CHECK(f.Raw({"hkeys", "h"}).type == ReplyType::kArray);
  CHECK(f.Raw({"hget", "h", "x"}).type == ReplyType::kNull);
}

TEST_CASE("hash commands: read commands on another type answer WRONGTYPE") {
  Fixture f;
  f.Run({"set", "s", "x"});
  const std::string wrong =
      "(error) WRONGTYPE Operation against a key holding the wrong kind of value";
  for (const char* cmd : {"hget", "hexists", "hstrlen", "hmget"}) {
    CHECK(f.Run({cmd, "s", "a"}) == wrong);
  }
  for (const char* cmd : {"hlen", "hkeys", "hvals", "hgetall", "hrandfield"}) {
    CHECK(f.Run({cmd, "s"}) == wrong);
  }
  CHECK(f.Run({"hscan", "s", "0"}) == wrong);
  CHECK(f.Run({"hrandfield", "s", "0"}) == wrong);
}

TEST_CASE("hash commands: arity errors come from the host") {
  Fixture f;
  CHECK(f.Run({"hget", "h"}) == "(error) ERR wrong number of arguments for 'hget' command");
  CHECK(f.Run({"hlen"}) == "(error) ERR wrong number of arguments for 'hlen' command");
  CHECK(f.Run({"hsetnx", "h", "a"}) ==
        "(error) ERR wrong number of arguments for 'hsetnx' command");
  CHECK(f.Run({"hdel", "h"}) == "(error) ERR wrong number of arguments for 'hdel' command");
  CHECK(f.Run({"hscan", "h"}) == "(error) ERR wrong number of arguments for 'hscan' command");
}

TEST_CASE("hash commands: the command table matches Redis's flags and key positions") {
  Fixture f;
  const plinth_command_spec_t* hset = f.host.FindCommand("hset");
  REQUIRE(hset);
  CHECK(hset->arity == -4);
  CHECK(hset->flags == (PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_FAST));
  CHECK(std::string(hset->group) == "hash");
  const plinth_command_spec_t* hgetall = f.host.FindCommand("hgetall");
  REQUIRE(hgetall);
  CHECK(hgetall->flags == PLINTH_CMD_READONLY);
  const plinth_command_spec_t* hdel = f.host.FindCommand("hdel");
  REQUIRE(hdel);
  CHECK(hdel->flags == (PLINTH_CMD_WRITE | PLINTH_CMD_FAST));
  CHECK(hdel->first_key == 1);
  CHECK(hdel->last_key == 1);
  for (const char* name :
       {"hset", "hsetnx", "hmset", "hget", "hmget", "hdel", "hexists", "hlen", "hstrlen", "hkeys",
        "hvals", "hgetall", "hincrby", "hincrbyfloat", "hrandfield", "hscan"}) {
    CHECK_MESSAGE(f.host.HasCommand(name), name);
  }
}
