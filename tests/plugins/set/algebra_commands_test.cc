// Command tests of SINTER, SINTERCARD, SUNION, SDIFF and their STORE forms: results, missing
// keys, type checks of every key, RESP3 sets, destination handling, events and propagation.
#include "set_fixture.h"

namespace plinth::set::test {

using V = std::vector<std::string>;

struct AlgebraFixture : Fixture {
  AlgebraFixture() {
    Run({"SADD", "a", "1", "2", "3", "x"});
    Run({"SADD", "b", "2", "3", "4", "x", "y"});
    Run({"SADD", "c", "3", "x", "z"});
    host.PutString("str", "v");
    Propagated();
    Events();
  }
};

TEST_CASE("set commands: SINTER SUNION and SDIFF of present sets") {
  AlgebraFixture f;
  CHECK(Fixture::Sorted(f.Raw({"SINTER", "a", "b", "c"})) == V{"3", "x"});
  CHECK(Fixture::Sorted(f.Raw({"SINTER", "a"})) == V{"1", "2", "3", "x"});
  CHECK(Fixture::Sorted(f.Raw({"SINTER", "a", "a"})) == V{"1", "2", "3", "x"});
  CHECK(Fixture::Sorted(f.Raw({"SUNION", "a", "c"})) == V{"1", "2", "3", "x", "z"});
  CHECK(Fixture::Sorted(f.Raw({"SDIFF", "a", "b"})) == V{"1"});
  CHECK(Fixture::Sorted(f.Raw({"SDIFF", "b", "a", "c"})) == V{"4", "y"});
  CHECK(f.Run({"SDIFF", "a", "a"}) == "(empty array)");
}

TEST_CASE("set commands: missing keys are empty sets in SINTER SUNION and SDIFF") {
  AlgebraFixture f;
  CHECK(f.Run({"SINTER", "a", "nosuch"}) == "(empty array)");
  CHECK(f.Run({"SINTER", "nosuch"}) == "(empty array)");
  CHECK(Fixture::Sorted(f.Raw({"SUNION", "nosuch", "c"})) == V{"3", "x", "z"});
  CHECK(f.Run({"SUNION", "nosuch"}) == "(empty array)");
  CHECK(Fixture::Sorted(f.Raw({"SDIFF", "c", "nosuch"})) == V{"3", "x", "z"});
  CHECK(f.Run({"SDIFF", "nosuch", "c"}) == "(empty array)");
}

TEST_CASE("set commands: every key is type-checked even after a missing one") {
  AlgebraFixture f;
  const char* kWrong = "(error) WRONGTYPE Operation against a key holding the wrong kind of value";
  CHECK(f.Run({"SINTER", "nosuch", "str"}) == kWrong);
  CHECK(f.Run({"SDIFF", "nosuch", "str"}) == kWrong);
  CHECK(f.Run({"SINTERCARD", "2", "nosuch", "str"}) == kWrong);
  CHECK(f.Run({"SINTERSTORE", "d", "nosuch", "str"}) == kWrong);
  CHECK(f.Run({"EXISTS", "d"}) == "(integer) 0");
}

TEST_CASE("set commands: RESP3 replies of the set algebra are sets") {
  AlgebraFixture f;
  f.host.SetProtocol(3);
  for (const char* cmd : {"SINTER", "SUNION", "SDIFF"}) {
    CAPTURE(cmd);
    CHECK(f.Raw({cmd, "a", "b"}).type == fakehost::ReplyType::kSet);
    CHECK(f.Raw({cmd, "nosuch"}).type == fakehost::ReplyType::kSet);
  }
}

TEST_CASE("set commands: SINTERCARD counts with and without LIMIT") {
  AlgebraFixture f;
  CHECK(f.Run({"SINTERCARD", "2", "a", "b"}) == "(integer) 3");
  CHECK(f.Run({"SINTERCARD", "3", "a", "b", "c"}) == "(integer) 2");
  CHECK(f.Run({"SINTERCARD", "2", "a", "b", "LIMIT", "2"}) == "(integer) 2");
  CHECK(f.Run({"SINTERCARD", "2", "a", "b", "limit", "0"}) == "(integer) 3");
  CHECK(f.Run({"SINTERCARD", "1", "a", "LIMIT", "1", "LIMIT", "3"}) == "(integer) 3");
  CHECK(f.Run({"SINTERCARD", "2", "a", "nosuch"}) == "(integer) 0");
}

TEST_CASE("set commands: SINTERCARD argument errors") {
  AlgebraFixture f;
  CHECK(f.Run({"SINTERCARD", "0", "a"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"SINTERCARD", "abc", "a"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"SINTERCARD", "-1", "a"}) == "(error) ERR numkeys should be greater than 0");
  CHECK(f.Run({"SINTERCARD", "3", "a", "b"}) ==
        "(error) ERR Number of keys can't be greater than number of args");
  CHECK(f.Run({"SINTERCARD", "1", "a", "LIMIT", "-1"}) == "(error) ERR LIMIT can't be negative");
  CHECK(f.Run({"SINTERCARD", "1", "a", "LIMIT", "x"}) == "(error) ERR LIMIT can't be negative");
  CHECK(f.Run({"SINTERCARD", "1", "a", "LIMIT"}) == "(error) ERR syntax error");
  CHECK(f.Run({"SINTERCARD", "1", "a", "foo"}) == "(error) ERR syntax error");
}

TEST_CASE("set commands: the STORE forms write the result and raise their event") {
  AlgebraFixture f;
  CHECK(f.Run({"SINTERSTORE", "d", "a", "b"}) == "(integer) 3");
  CHECK(f.Members("d") == V{"2", "3", "x"});
  CHECK(f.Events() == V{"n:new d", "sinterstore d"});
  CHECK(f.Run({"SUNIONSTORE", "d", "a", "c"}) == "(integer) 5");
  CHECK(f.Members("d") == V{"1", "2", "3", "x", "z"});
  CHECK(f.Events() == V{"sunionstore d"});
  CHECK(f.Run({"SDIFFSTORE", "d", "a", "b"}) == "(integer) 1");
  CHECK(f.Members("d") == V{"1"});
  CHECK(f.Events() == V{"sdiffstore d"});
  CHECK(f.Propagated() == V{"SINTERSTORE d a b", "SUNIONSTORE d a c", "SDIFFSTORE d a b"});
}

TEST_CASE("set commands: a STORE may name one of its sources as the destination") {
  AlgebraFixture f;
  CHECK(f.Run({"SUNIONSTORE", "a", "a", "c"}) == "(integer) 5");
  CHECK(f.Members("a") == V{"1", "2", "3", "x", "z"});
  CHECK(f.Run({"SDIFFSTORE", "b", "b", "a"}) == "(integer) 2");
  CHECK(f.Members("b") == V{"4", "y"});
}

TEST_CASE("set commands: a STORE of an empty result deletes the destination") {
  AlgebraFixture f;
  f.Run({"SADD", "d", "old"});
  f.Propagated();
  f.Events();
  CHECK(f.Run({"SINTERSTORE", "d", "a", "nosuch"}) == "(integer) 0");
  CHECK(f.Run({"EXISTS", "d"}) == "(integer) 0");
  CHECK(f.Events() == V{"g:del d"});
  CHECK(f.Propagated() == V{"SINTERSTORE d a nosuch"});
  // Nothing to delete: nothing changes and nothing is propagated.
  CHECK(f.Run({"SDIFFSTORE", "d", "a", "a"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  CHECK(f.Events().empty());
}

TEST_CASE("set commands: a STORE replaces a destination of another type and its TTL") {
  AlgebraFixture f;
  f.Run({"PEXPIRE", "str", "100000"});
  CHECK(f.Run({"SUNIONSTORE", "str", "c"}) == "(integer) 3");
  CHECK(f.Run({"TYPE", "str"}) == "set");
  CHECK(f.Run({"PTTL", "str"}) == "(integer) -1");
}

TEST_CASE("set commands: STORE results take the encoding their members call for") {
  AlgebraFixture f;
  f.Run({"SADD", "i1", "1", "2", "3"});
  f.Run({"SADD", "i2", "2", "3", "4"});
  f.Run({"SINTERSTORE", "d", "i1", "i2"});
  CHECK(f.Encoding("d") == "intset");
  f.Run({"SINTERSTORE", "d", "a", "b"});  // 2, 3 and x
  CHECK(f.Encoding("d") == "hashtable");
  f.Run({"SDIFFSTORE", "d", "a", "c"});  // 1 and 2 out of a hashtable
  CHECK(f.Encoding("d") == "intset");
}

}  // namespace plinth::set::test
