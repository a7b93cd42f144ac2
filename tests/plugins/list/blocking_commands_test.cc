// Command tests of the blocking pops (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP) on the fake
// host's clients: serving at once, waking in blocking order, timeouts, MULTI, closed clients,
// keys that change type, and propagation as the non-blocking forms.
#include "list_fixture.h"

namespace plinth::list::test {
namespace {

using fakehost::ReplyType;

TEST_CASE("list blocking: data present is served at once and propagated as LPOP") {
  Fixture f;
  f.Run({"RPUSH", "b", "1", "2"});
  f.Propagated();
  CHECK(f.Run({"BLPOP", "a", "b", "0"}) == "1) \"b\"\n2) \"1\"");
  CHECK(f.Run({"BRPOP", "a", "b", "0"}) == "1) \"b\"\n2) \"2\"");
  CHECK(f.Propagated() == std::vector<std::string>{"LPOP b", "RPOP b"});
  CHECK(f.host.KeyCount() == 0);
}

TEST_CASE("list blocking: argument errors and wrong types") {
  Fixture f;
  f.host.PutString("s", "x");
  CHECK(f.Run({"BLPOP", "l", "abc"}) == "(error) ERR timeout is not a float or out of range");
  CHECK(f.Run({"BLPOP", "l", "-1"}) == "(error) ERR timeout is negative");
  CHECK(f.Run({"BLPOP", "s", "-1"}) == "(error) ERR timeout is negative");
  CHECK(f.Run({"BLPOP", "s", "0"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"BLMOVE", "l", "d", "UP", "LEFT", "0"}) == "(error) ERR syntax error");
  CHECK(f.Run({"BLMOVE", "l", "d", "LEFT", "LEFT", "-1"}) == "(error) ERR timeout is negative");
  CHECK(f.Run({"BRPOPLPUSH", "l", "d", "x"}) ==
        "(error) ERR timeout is not a float or out of range");
  CHECK(f.Run({"BLMPOP", "0", "0", "l", "LEFT"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"BLMPOP", "x", "1", "l", "LEFT", "COUNT", "0"}) ==
        "(error) ERR count should be greater than 0");
  CHECK(f.Run({"BLMPOP", "-1", "1", "l", "LEFT"}) == "(error) ERR timeout is negative");
  CHECK(f.Run({"BLPOP", "l"}) == "(error) ERR wrong number of arguments for 'blpop' command");
}

TEST_CASE("list blocking: waiters are woken in the order they blocked") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLPOP", "q", "0"}) == "(blocked)");
  CHECK(f.RunAs(c3, {"BRPOP", "q", "0"}) == "(blocked)");
  CHECK(f.host.Blocked(c2));
  f.Propagated();
  CHECK(f.Run({"LPUSH", "q", "one"}) == "(integer) 1");
  CHECK(f.Taken(c2) == "1) \"q\"\n2) \"one\"");
  CHECK(f.host.Blocked(c3));
  CHECK(f.Taken(c3).empty());
  CHECK(f.Propagated() == std::vector<std::string>{"LPUSH q one", "LPOP q"});
  CHECK(f.Run({"RPUSH", "q", "x", "y"}) == "(integer) 2");
  CHECK(f.Taken(c3) == "1) \"q\"\n2) \"y\"");
  CHECK(f.Run({"LRANGE", "q", "0", "-1"}) == "1) \"x\"");
}

TEST_CASE("list blocking: a timeout replies the null forms") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient(), c4 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLPOP", "q", "0.5"}) == "(blocked)");
  CHECK(f.RunAs(c3, {"BLMOVE", "q", "d", "LEFT", "LEFT", "1"}) == "(blocked)");
  CHECK(f.RunAs(c4, {"BLMPOP", "1", "1", "q", "LEFT"}) == "(blocked)");
  f.host.AdvanceTimeMs(400);
  CHECK(f.host.Blocked(c2));
  f.host.AdvanceTimeMs(200);
  std::vector<fakehost::Reply> r = f.host.TakeReplies(c2);
  REQUIRE(r.size() == 1);
  CHECK(r[0].type == ReplyType::kNullArray);
  f.host.AdvanceTimeMs(500);
  r = f.host.TakeReplies(c3);
  REQUIRE(r.size() == 1);
  CHECK(r[0].type == ReplyType::kNullArray);  // Redis 7.0: a null array for BLMOVE too
  r = f.host.TakeReplies(c4);
  REQUIRE(r.size() == 1);
  CHECK(r[0].type == ReplyType::kNullArray);
  CHECK_FALSE(f.host.Blocked(c4));
  CHECK(f.Propagated().empty());
}

TEST_CASE("list blocking: BLMOVE into a list another client waits on wakes it") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLMOVE", "a", "b", "RIGHT", "LEFT", "0"}) == "(blocked)");
  CHECK(f.RunAs(c3, {"BRPOPLPUSH", "b", "c", "0"}) == "(blocked)");
  f.Propagated();
  f.Run({"RPUSH", "a", "v"});
  CHECK(f.Taken(c2) == "\"v\"");
  CHECK(f.Taken(c3) == "\"v\"");
  CHECK(f.Run({"LRANGE", "c", "0", "-1"}) == "1) \"v\"");
  CHECK(f.host.KeyCount() == 1);
  CHECK(f.Propagated() ==
        std::vector<std::string>{"RPUSH a v", "LMOVE a b RIGHT LEFT", "RPOPLPUSH b c"});
}

TEST_CASE("list blocking: BLMPOP serves a count and propagates LPOP with it") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLMPOP", "0", "2", "x", "y", "RIGHT", "COUNT", "5"}) == "(blocked)");
  f.Propagated();
  f.Run({"RPUSH", "y", "1", "2", "3"});
  CHECK(f.Taken(c2) == "1) \"y\"\n2) 1) \"3\"\n   2) \"2\"\n   3) \"1\"");
  CHECK(f.Propagated() == std::vector<std::string>{"RPUSH y 1 2 3", "RPOP y 3"});
  f.Run({"RPUSH", "x", "a"});
  CHECK(f.Run({"BLMPOP", "0", "2", "x", "y", "LEFT"}) == "1) \"x\"\n2) 1) \"a\"");
}

TEST_CASE("list blocking: inside MULTI the null reply comes at once") {
  Fixture f;
  CHECK(f.Run({"MULTI"}) == "OK");
  CHECK(f.Run({"BLPOP", "q", "0"}) == "QUEUED");
  CHECK(f.Run({"BLMOVE", "q", "d", "LEFT", "LEFT", "0"}) == "QUEUED");
  CHECK(f.Run({"BRPOPLPUSH", "q", "d", "0"}) == "QUEUED");
  CHECK(f.Run({"BLMPOP", "0", "1", "q", "LEFT"}) == "QUEUED");
  fakehost::Reply r = f.host.Call({"EXEC"});
  REQUIRE(r.elements.size() == 4);
  CHECK(r.elements[0].type == ReplyType::kNullArray);
  CHECK(r.elements[1].type == ReplyType::kNull);
  CHECK(r.elements[2].type == ReplyType::kNull);
  CHECK(r.elements[3].type == ReplyType::kNullArray);
  CHECK_FALSE(f.host.Blocked(1));
}

TEST_CASE("list blocking: a closed client is forgotten") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLPOP", "q", "0"}) == "(blocked)");
  CHECK(f.RunAs(c3, {"BLPOP", "q", "0"}) == "(blocked)");
  f.host.CloseClient(c2);
  f.Run({"RPUSH", "q", "v"});
  CHECK(f.Taken(c3) == "1) \"q\"\n2) \"v\"");
  CHECK(f.host.KeyCount() == 0);
}

TEST_CASE("list blocking: a key that became another type keeps the client waiting") {
  Fixture f(true);
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLPOP", "q", "0"}) == "(blocked)");
  CHECK(f.RunAs(c3, {"BLMOVE", "q", "d", "LEFT", "LEFT", "0"}) == "(blocked)");
  // Signalled as a list, a string by the time the waiters run.
  CHECK(f.Run({"MULTI"}) == "OK");
  f.Run({"RPUSH", "q", "tmp"});
  f.Run({"DEL", "q"});
  f.Run({"MKSTR", "q", "now a string"});
  CHECK(f.host.Call({"EXEC"}).elements.size() == 3);
  CHECK(f.host.Blocked(c2));
  CHECK(f.host.Blocked(c3));
  CHECK(f.Taken(c2).empty());
  f.Run({"DEL", "q"});
  f.Run({"RPUSH", "q", "v", "w"});
  CHECK(f.Taken(c2) == "1) \"q\"\n2) \"v\"");
  CHECK(f.Taken(c3) == "\"w\"");
}

TEST_CASE("list blocking: BLMOVE woken onto a wrong-type destination fails") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient();
  CHECK(f.RunAs(c2, {"BLMOVE", "a", "s", "LEFT", "LEFT", "0"}) == "(blocked)");
  f.Run({"MKSTR", "s", "x"});
  f.Run({"RPUSH", "a", "v"});
  CHECK(f.Taken(c2) == "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"LLEN", "a"}) == "(integer) 1");
}

TEST_CASE("list blocking: RESP3 client gets a null on timeout") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient();
  f.host.SetClientProtocol(c2, 3);
  CHECK(f.RunAs(c2, {"BLPOP", "q", "0.1"}) == "(blocked)");
  f.host.AdvanceTimeMs(200);
  std::vector<fakehost::Reply> r = f.host.TakeReplies(c2);
  REQUIRE(r.size() == 1);
  CHECK(r[0].IsNull());
}

}  // namespace
}  // namespace plinth::list::test
