// Command tests of the push and pop family: LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP (COUNT),
// LMPOP and LLEN, with Redis 7.0's replies, errors, RESP3 null forms, events and propagation.
#include "list_fixture.h"

namespace plinth::list::test {
namespace {

using fakehost::ReplyType;

const char* kWrongType =
    "(error) WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_CASE("list push: LPUSH and RPUSH build the list and reply its length") {
  Fixture f;
  CHECK(f.Run({"LPUSH", "l", "a", "b"}) == "(integer) 2");
  CHECK(f.Run({"RPUSH", "l", "c"}) == "(integer) 3");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"b\"\n2) \"a\"\n3) \"c\"");
  CHECK(f.Run({"LLEN", "l"}) == "(integer) 3");
  CHECK(f.Run({"LLEN", "nokey"}) == "(integer) 0");
  CHECK(f.Events() == std::vector<std::string>{"new:l", "lpush:l", "rpush:l"});
  CHECK(f.Propagated() == std::vector<std::string>{"LPUSH l a b", "RPUSH l c"});
}

TEST_CASE("list push: the X forms push only onto an existing list") {
  Fixture f;
  CHECK(f.Run({"LPUSHX", "l", "a"}) == "(integer) 0");
  CHECK(f.Run({"RPUSHX", "l", "a"}) == "(integer) 0");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.Propagated().empty());
  CHECK(f.Events().empty());
  f.Run({"RPUSH", "l", "m"});
  CHECK(f.Run({"LPUSHX", "l", "a", "b"}) == "(integer) 3");
  CHECK(f.Run({"RPUSHX", "l", "z"}) == "(integer) 4");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"b\"\n2) \"a\"\n3) \"m\"\n4) \"z\"");
}

TEST_CASE("list push: wrong type and arity errors") {
  Fixture f;
  f.host.PutString("s", "x");
  for (const char* cmd : {"LPUSH", "RPUSH", "LPUSHX", "RPUSHX"})
    CHECK(f.Run({cmd, "s", "a"}) == kWrongType);
  for (const char* cmd : {"LPOP", "RPOP", "LLEN"}) CHECK(f.Run({cmd, "s"}) == kWrongType);
  CHECK(f.Run({"LPOP", "s", "0"}) == kWrongType);
  CHECK(f.Run({"LPUSH", "l"}) == "(error) ERR wrong number of arguments for 'lpush' command");
  CHECK(f.Run({"LPOP", "l", "1", "2"}) ==
        "(error) ERR wrong number of arguments for 'lpop' command");
  CHECK(f.Run({"RPOP", "l", "1", "2"}) ==
        "(error) ERR wrong number of arguments for 'rpop' command");
  CHECK(f.host.GetString("s") == "x");
}

TEST_CASE("list pop: LPOP and RPOP without a count") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c"});
  f.Events();
  f.Propagated();
  CHECK(f.Run({"LPOP", "l"}) == "\"a\"");
  CHECK(f.Run({"RPOP", "l"}) == "\"c\"");
  CHECK(f.Run({"RPOP", "l"}) == "\"b\"");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.host.Call({"LPOP", "l"}).type == ReplyType::kNull);
  CHECK(f.Events() == std::vector<std::string>{"lpop:l", "rpop:l", "rpop:l", "del:l"});
  CHECK(f.Propagated() == std::vector<std::string>{"LPOP l", "RPOP l", "RPOP l"});
}

TEST_CASE("list pop: a count pops up to that many as an array") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c", "d"});
  CHECK(f.Run({"LPOP", "l", "2"}) == "1) \"a\"\n2) \"b\"");
  CHECK(f.Run({"RPOP", "l", "1"}) == "1) \"d\"");
  CHECK(f.Run({"LPOP", "l", "0"}) == "(empty array)");
  CHECK(f.Run({"RPOP", "l", "100"}) == "1) \"c\"");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.host.Call({"LPOP", "l", "0"}).type == ReplyType::kNullArray);
  CHECK(f.host.Call({"RPOP", "l", "5"}).type == ReplyType::kNullArray);
  CHECK(f.Run({"LPOP", "l", "-1"}) == "(error) ERR value is out of range, must be positive");
  CHECK(f.Run({"LPOP", "l", "x"}) == "(error) ERR value is out of range, must be positive");
  f.Propagated();
  f.Run({"RPUSH", "l", "a"});
  f.Run({"LPOP", "l", "0"});
  CHECK(f.Propagated() == std::vector<std::string>{"RPUSH l a"});
}

TEST_CASE("list pop: RESP3 null forms") {
  Fixture f;
  f.host.SetProtocol(3);
  CHECK(f.host.Call({"LPOP", "l"}).type == ReplyType::kNull);
  CHECK(f.host.Call({"LPOP", "l", "2"}).type == ReplyType::kNullArray);
  CHECK(f.host.Call({"LMPOP", "1", "l", "LEFT"}).type == ReplyType::kNullArray);
  f.Run({"RPUSH", "l", "a"});
  fakehost::Reply r = f.host.Call({"LMPOP", "1", "l", "LEFT"});
  REQUIRE(r.type == ReplyType::kArray);
  CHECK(r.elements[1].type == ReplyType::kArray);
}

TEST_CASE("list lmpop: pops from the first non-empty key") {
  Fixture f;
  f.Run({"RPUSH", "b", "1", "2", "3"});
  f.Propagated();
  f.Events();
  CHECK(f.Run({"LMPOP", "2", "a", "b", "LEFT"}) == "1) \"b\"\n2) 1) \"1\"");
  CHECK(f.Run({"LMPOP", "2", "a", "b", "RIGHT", "COUNT", "10"}) ==
        "1) \"b\"\n2) 1) \"3\"\n   2) \"2\"");
  CHECK(f.Run({"LMPOP", "2", "a", "b", "LEFT"}) == "(nil)");
  CHECK(f.Propagated() == std::vector<std::string>{"LPOP b 1", "RPOP b 2"});
  CHECK(f.Events() == std::vector<std::string>{"lpop:b", "rpop:b", "del:b"});
}

TEST_CASE("list lmpop: argument errors as Redis 7.0") {
  Fixture f;
  f.Run({"RPUSH", "l", "a"});
  f.host.PutString("s", "x");
  CHECK(f.Run({"LMPOP", "0", "l", "LEFT"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"LMPOP", "x", "l", "LEFT"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"LMPOP", "2", "l", "LEFT"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LMPOP", "9223372036854775807", "l", "LEFT"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LMPOP", "1", "l", "MIDDLE"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LMPOP", "1", "l", "LEFT", "COUNT", "0"}) ==
        "(error) ERR count should be greater than 0");
  CHECK(f.Run({"LMPOP", "1", "l", "LEFT", "COUNT", "1", "COUNT", "1"}) ==
        "(error) ERR syntax error");
  CHECK(f.Run({"LMPOP", "1", "l", "LEFT", "COUNT"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LMPOP", "2", "nokey", "s", "LEFT"}) == kWrongType);
  CHECK(f.Run({"LMPOP", "2", "s", "l", "LEFT"}) == kWrongType);
  CHECK(f.Run({"LLEN", "l"}) == "(integer) 1");
}

TEST_CASE("list push: many elements across nodes keep their order") {
  Fixture f;
  Argv argv{"RPUSH", "big"};
  for (int i = 0; i < 5000; ++i) argv.push_back(std::to_string(i));
  CHECK(f.Run(argv) == "(integer) 5000");
  CHECK(f.Run({"LINDEX", "big", "4321"}) == "\"4321\"");
  CHECK(f.Run({"LPOP", "big"}) == "\"0\"");
  CHECK(f.Run({"RPOP", "big"}) == "\"4999\"");
  CHECK(f.Run({"LRANGE", "big", "2000", "2002"}) == "1) \"2001\"\n2) \"2002\"\n3) \"2003\"");
}

}  // namespace
}  // namespace plinth::list::test
