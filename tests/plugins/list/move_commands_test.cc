// Command tests of LMOVE and RPOPLPUSH: every side combination, a list onto itself, type
// checks in Redis's order, events and propagation.
#include "list_fixture.h"

namespace plinth::list::test {
namespace {

using fakehost::ReplyType;

const char* kWrongType =
    "(error) WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_CASE("list move: LMOVE takes from one end and pushes at the other") {
  Fixture f;
  f.Run({"RPUSH", "src", "a", "b", "c", "d"});
  CHECK(f.Run({"LMOVE", "src", "dst", "LEFT", "RIGHT"}) == "\"a\"");
  CHECK(f.Run({"LMOVE", "src", "dst", "right", "left"}) == "\"d\"");
  CHECK(f.Run({"LMOVE", "src", "dst", "LEFT", "LEFT"}) == "\"b\"");
  CHECK(f.Run({"LMOVE", "src", "dst", "RIGHT", "RIGHT"}) == "\"c\"");
  CHECK(f.Run({"LRANGE", "dst", "0", "-1"}) == "1) \"b\"\n2) \"d\"\n3) \"a\"\n4) \"c\"");
  CHECK(f.host.KeyCount() == 1);
  CHECK(f.host.Call({"LMOVE", "src", "dst", "LEFT", "LEFT"}).type == ReplyType::kNull);
}

TEST_CASE("list move: events and propagation of LMOVE and RPOPLPUSH") {
  Fixture f;
  f.Run({"RPUSH", "src", "a", "b"});
  f.Events();
  f.Propagated();
  CHECK(f.Run({"RPOPLPUSH", "src", "dst"}) == "\"b\"");
  CHECK(f.Run({"LMOVE", "src", "dst", "LEFT", "RIGHT"}) == "\"a\"");
  CHECK(f.Events() == std::vector<std::string>{"new:dst", "lpush:dst", "rpop:src", "rpush:dst",
                                               "lpop:src", "del:src"});
  CHECK(f.Propagated() ==
        std::vector<std::string>{"RPOPLPUSH src dst", "LMOVE src dst LEFT RIGHT"});
  CHECK(f.Run({"RPOPLPUSH", "src", "dst"}) == "(nil)");
  CHECK(f.Propagated().empty());
}

TEST_CASE("list move: a list moved onto itself rotates") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c"});
  CHECK(f.Run({"RPOPLPUSH", "l", "l"}) == "\"c\"");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"c\"\n2) \"a\"\n3) \"b\"");
  CHECK(f.Run({"LMOVE", "l", "l", "LEFT", "RIGHT"}) == "\"c\"");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"a\"\n2) \"b\"\n3) \"c\"");
  f.Run({"RPUSH", "one", "x"});
  CHECK(f.Run({"LMOVE", "one", "one", "LEFT", "LEFT"}) == "\"x\"");
  CHECK(f.Run({"LLEN", "one"}) == "(integer) 1");
}

TEST_CASE("list move: type and syntax errors in Redis's order") {
  Fixture f;
  f.host.PutString("s", "x");
  f.Run({"RPUSH", "l", "a"});
  CHECK(f.Run({"LMOVE", "l", "d", "UP", "LEFT"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LMOVE", "l", "d", "LEFT", "DOWN"}) == "(error) ERR syntax error");
  CHECK(f.host.Call({"LMOVE", "nokey", "s", "LEFT", "LEFT"}).type == ReplyType::kNull);
  CHECK(f.Run({"LMOVE", "l", "s", "LEFT", "LEFT"}) == kWrongType);
  CHECK(f.Run({"LMOVE", "s", "l", "LEFT", "LEFT"}) == kWrongType);
  CHECK(f.Run({"RPOPLPUSH", "l", "s"}) == kWrongType);
  CHECK(f.Run({"LLEN", "l"}) == "(integer) 1");
  CHECK(f.Propagated() == std::vector<std::string>{"RPUSH l a"});
}

}  // namespace
}  // namespace plinth::list::test
