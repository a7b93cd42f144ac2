// Command tests of SADD, SREM, SMEMBERS, SISMEMBER, SMISMEMBER, SCARD and SMOVE: replies,
// errors, RESP3 shapes, propagation and keyspace events.
#include "set_fixture.h"

namespace plinth::set::test {

using V = std::vector<std::string>;
constexpr const char* kWrongType =
    "(error) WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_CASE("set commands: SADD counts new members and creates the key") {
  Fixture f;
  CHECK(f.Run({"SADD", "s", "a", "b", "a"}) == "(integer) 2");
  CHECK(f.Run({"SADD", "s", "b", "c"}) == "(integer) 1");
  CHECK(f.Run({"TYPE", "s"}) == "set");
  CHECK(f.Members("s") == V{"a", "b", "c"});
  CHECK(f.Propagated() == V{"SADD s a b a", "SADD s b c"});
  CHECK(f.Events() == V{"n:new s", "sadd s", "sadd s"});
}

TEST_CASE("set commands: SADD of existing members changes nothing and is not propagated") {
  Fixture f;
  f.Run({"SADD", "s", "a", "b"});
  f.Propagated();
  f.Events();
  uint64_t dirty = f.host.Dirty();
  CHECK(f.Run({"SADD", "s", "a", "b"}) == "(integer) 0");
  CHECK(f.host.Dirty() == dirty);
  CHECK(f.Propagated().empty());
  CHECK(f.Events().empty());
}

TEST_CASE("set commands: every set command refuses a string key") {
  Fixture f;
  f.host.PutString("str", "x");
  for (const Argv& a :
       {Argv{"SADD", "str", "a"}, Argv{"SREM", "str", "a"}, Argv{"SMEMBERS", "str"},
        Argv{"SISMEMBER", "str", "a"}, Argv{"SMISMEMBER", "str", "a"}, Argv{"SCARD", "str"},
        Argv{"SPOP", "str"}, Argv{"SPOP", "str", "0"}, Argv{"SRANDMEMBER", "str"},
        Argv{"SRANDMEMBER", "str", "0"}, Argv{"SINTER", "str"}, Argv{"SUNION", "str"},
        Argv{"SDIFF", "str"}, Argv{"SINTERCARD", "1", "str"}, Argv{"SINTERSTORE", "d", "str"},
        Argv{"SUNIONSTORE", "d", "str"}, Argv{"SDIFFSTORE", "d", "str"}, Argv{"SSCAN", "str", "0"},
        Argv{"SMOVE", "str", "d", "a"}}) {
    CAPTURE(a[0]);
    CHECK(f.Run(a) == kWrongType);
  }
  CHECK(f.Propagated().empty());
}

TEST_CASE("set commands: arity errors come from the host") {
  Fixture f;
  CHECK(f.Run({"SADD", "s"}) == "(error) ERR wrong number of arguments for 'sadd' command");
  CHECK(f.Run({"SCARD"}) == "(error) ERR wrong number of arguments for 'scard' command");
  CHECK(f.Run({"SMOVE", "a", "b"}) == "(error) ERR wrong number of arguments for 'smove' command");
  CHECK(f.Run({"SINTERCARD", "1"}) ==
        "(error) ERR wrong number of arguments for 'sintercard' command");
}

TEST_CASE("set commands: SREM removes and deletes the emptied key") {
  Fixture f;
  f.Run({"SADD", "s", "a", "b", "c"});
  f.Propagated();
  f.Events();
  CHECK(f.Run({"SREM", "s", "x", "y"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  CHECK(f.Run({"SREM", "s", "a", "x"}) == "(integer) 1");
  CHECK(f.Propagated() == V{"SREM s a x"});
  CHECK(f.Events() == V{"srem s"});
  CHECK(f.Run({"SREM", "s", "b", "c", "b"}) == "(integer) 2");
  CHECK(f.Run({"EXISTS", "s"}) == "(integer) 0");
  CHECK(f.Events() == V{"srem s", "g:del s"});
  CHECK(f.Run({"SREM", "nosuch", "a"}) == "(integer) 0");
}

TEST_CASE("set commands: membership and cardinality on present and missing keys") {
  Fixture f;
  f.Run({"SADD", "s", "a", "1"});
  CHECK(f.Run({"SISMEMBER", "s", "a"}) == "(integer) 1");
  CHECK(f.Run({"SISMEMBER", "s", "1"}) == "(integer) 1");
  CHECK(f.Run({"SISMEMBER", "s", "01"}) == "(integer) 0");
  CHECK(f.Run({"SISMEMBER", "nosuch", "a"}) == "(integer) 0");
  CHECK(f.Run({"SMISMEMBER", "s", "a", "z", "1"}) ==
        "1) (integer) 1\n2) (integer) 0\n3) (integer) 1");
  CHECK(f.Run({"SMISMEMBER", "nosuch", "a", "b"}) == "1) (integer) 0\n2) (integer) 0");
  CHECK(f.Run({"SCARD", "s"}) == "(integer) 2");
  CHECK(f.Run({"SCARD", "nosuch"}) == "(integer) 0");
  CHECK(f.Run({"SMEMBERS", "nosuch"}) == "(empty array)");
}

TEST_CASE("set commands: RESP3 shapes of SMEMBERS and SMISMEMBER") {
  Fixture f;
  f.host.SetProtocol(3);
  f.Run({"SADD", "s", "3", "1", "2"});
  fakehost::Reply r = f.Raw({"SMEMBERS", "s"});
  CHECK(r.type == fakehost::ReplyType::kSet);
  CHECK(r.ToString() == "1~ \"1\"\n2~ \"2\"\n3~ \"3\"");  // an intset is sorted
  CHECK(f.Raw({"SMEMBERS", "nosuch"}).type == fakehost::ReplyType::kSet);
  r = f.Raw({"SMISMEMBER", "s", "1", "9"});
  CHECK(r.type == fakehost::ReplyType::kArray);
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].type == fakehost::ReplyType::kInteger);
}

TEST_CASE("set commands: SMOVE moves a member and raises srem then sadd") {
  Fixture f;
  f.Run({"SADD", "src", "a", "b"});
  f.Propagated();
  f.Events();
  CHECK(f.Run({"SMOVE", "src", "dst", "a"}) == "(integer) 1");
  CHECK(f.Members("src") == V{"b"});
  CHECK(f.Members("dst") == V{"a"});
  CHECK(f.Propagated() == V{"SMOVE src dst a"});
  CHECK(f.Events() == V{"srem src", "n:new dst", "sadd dst"});
  CHECK(f.Run({"SMOVE", "src", "dst", "zz"}) == "(integer) 0");
  CHECK(f.Run({"SMOVE", "nosuch", "dst", "a"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  // The last member: src is deleted; dst already has it, so no sadd.
  f.Run({"SADD", "dst", "b"});
  f.Events();
  CHECK(f.Run({"SMOVE", "src", "dst", "b"}) == "(integer) 1");
  CHECK(f.Run({"EXISTS", "src"}) == "(integer) 0");
  CHECK(f.Events() == V{"srem src", "g:del src"});
}

TEST_CASE("set commands: SMOVE onto the same key and type errors") {
  Fixture f;
  f.Run({"SADD", "s", "a"});
  f.host.PutString("str", "x");
  f.Propagated();
  CHECK(f.Run({"SMOVE", "s", "s", "a"}) == "(integer) 1");
  CHECK(f.Run({"SMOVE", "s", "s", "b"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  CHECK(f.Run({"SMOVE", "nosuch", "str", "a"}) == "(integer) 0");
  CHECK(f.Run({"SMOVE", "s", "str", "a"}) == kWrongType);
  CHECK(f.Run({"SMOVE", "str", "s", "a"}) == kWrongType);
  CHECK(f.Members("s") == V{"a"});
}

TEST_CASE("set commands: SMOVE between two keys that share one payload after COPY") {
  Fixture f;
  f.Run({"SADD", "a", "x", "y"});
  CHECK(f.Run({"COPY", "a", "b"}) == "(integer) 1");
  CHECK(f.Run({"SMOVE", "a", "b", "x"}) == "(integer) 1");
  CHECK(f.Members("a") == V{"y"});
  CHECK(f.Members("b") == V{"x", "y"});
}

TEST_CASE("set commands: COPY then changing one side leaves the other intact") {
  Fixture f;
  f.Run({"SADD", "a", "1", "2", "word"});
  f.Run({"COPY", "a", "b"});
  f.Run({"SADD", "b", "3"});
  f.Run({"SREM", "a", "1"});
  CHECK(f.Members("a") == V{"2", "word"});
  CHECK(f.Members("b") == V{"1", "2", "3", "word"});
  f.Run({"SADD", "i", "1", "2"});
  f.Run({"COPY", "i", "j"});
  CHECK(f.Encoding("j") == "intset");
  f.Run({"SPOP", "j"});
  CHECK(f.Run({"SCARD", "i"}) == "(integer) 2");
  CHECK(f.Run({"SCARD", "j"}) == "(integer) 1");
}

TEST_CASE("set commands: binary and empty members") {
  Fixture f;
  std::string bin("a\0b", 3);
  CHECK(f.Run({"SADD", "s", bin, "", "a"}) == "(integer) 3");
  CHECK(f.Run({"SISMEMBER", "s", bin}) == "(integer) 1");
  CHECK(f.Run({"SISMEMBER", "s", ""}) == "(integer) 1");
  CHECK(f.Run({"SISMEMBER", "s", std::string("a\0", 2)}) == "(integer) 0");
  CHECK(f.Members("s") == V{"", "a", bin});
}

}  // namespace plinth::set::test
