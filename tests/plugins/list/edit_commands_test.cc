// Command tests of LSET, LINSERT, LREM and LTRIM: replies, errors, events, propagation and
// the no-change cases that must write nothing.
#include "list_fixture.h"

namespace plinth::list::test {
namespace {

const char* kWrongType =
    "(error) WRONGTYPE Operation against a key holding the wrong kind of value";

Argv Push(std::initializer_list<const char*> values) {
  Argv a{"RPUSH", "l"};
  for (const char* v : values) a.push_back(v);
  return a;
}

TEST_CASE("list edit: LSET replaces by index") {
  Fixture f;
  f.Run(Push({"a", "b", "c"}));
  f.Events();
  f.Propagated();
  CHECK(f.Run({"LSET", "l", "1", "B"}) == "OK");
  CHECK(f.Run({"LSET", "l", "-1", std::string(20000, 'z')}) == "OK");
  CHECK(f.Run({"LINDEX", "l", "1"}) == "\"B\"");
  CHECK(f.Run({"LINDEX", "l", "2"}).size() == 20002);
  CHECK(f.Run({"LSET", "l", "3", "x"}) == "(error) ERR index out of range");
  CHECK(f.Run({"LSET", "l", "-4", "x"}) == "(error) ERR index out of range");
  CHECK(f.Run({"LSET", "l", "x", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"LSET", "nokey", "x", "x"}) == "(error) ERR no such key");
  f.host.PutString("s", "x");
  CHECK(f.Run({"LSET", "s", "0", "x"}) == kWrongType);
  CHECK(f.Events() == std::vector<std::string>{"lset:l", "lset:l"});
  CHECK(f.Propagated().size() == 2);
}

TEST_CASE("list edit: LINSERT before and after a pivot") {
  Fixture f;
  f.Run(Push({"a", "b", "c"}));
  f.Events();
  f.Propagated();
  CHECK(f.Run({"LINSERT", "l", "BEFORE", "b", "x"}) == "(integer) 4");
  CHECK(f.Run({"LINSERT", "l", "after", "c", "y"}) == "(integer) 5");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"a\"\n2) \"x\"\n3) \"b\"\n4) \"c\"\n5) \"y\"");
  CHECK(f.Run({"LINSERT", "l", "BEFORE", "zz", "x"}) == "(integer) -1");
  CHECK(f.Run({"LINSERT", "nokey", "BEFORE", "a", "x"}) == "(integer) 0");
  CHECK(f.Run({"LINSERT", "l", "MIDDLE", "a", "x"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LINSERT", "nokey", "MIDDLE", "a", "x"}) == "(error) ERR syntax error");
  f.host.PutString("s", "x");
  CHECK(f.Run({"LINSERT", "s", "BEFORE", "a", "x"}) == kWrongType);
  CHECK(f.Events() == std::vector<std::string>{"linsert:l", "linsert:l"});
  CHECK(f.Propagated() == std::vector<std::string>{"LINSERT l BEFORE b x", "LINSERT l after c y"});
}

TEST_CASE("list edit: LINSERT into full nodes keeps the order") {
  Fixture f;
  REQUIRE(f.host.SetOption("list-max-listpack-size", "3"));
  f.Run(Push({"0", "1", "2", "3", "4", "5", "6", "7", "8"}));
  for (int i = 0; i < 9; ++i)
    f.Run({"LINSERT", "l", "AFTER", std::to_string(i), std::to_string(i) + "b"});
  fakehost::Reply r = f.host.Call({"LRANGE", "l", "0", "-1"});
  REQUIRE(r.elements.size() == 18);
  for (int i = 0; i < 9; ++i) {
    CHECK(r.elements[2 * i].str == std::to_string(i));
    CHECK(r.elements[2 * i + 1].str == std::to_string(i) + "b");
  }
}

TEST_CASE("list edit: LREM from the head the tail or everywhere") {
  Fixture f;
  f.Run(Push({"a", "b", "a", "c", "a", "b"}));
  f.Events();
  f.Propagated();
  CHECK(f.Run({"LREM", "l", "1", "a"}) == "(integer) 1");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"b\"\n2) \"a\"\n3) \"c\"\n4) \"a\"\n5) \"b\"");
  CHECK(f.Run({"LREM", "l", "-1", "b"}) == "(integer) 1");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"b\"\n2) \"a\"\n3) \"c\"\n4) \"a\"");
  CHECK(f.Run({"LREM", "l", "0", "a"}) == "(integer) 2");
  CHECK(f.Run({"LREM", "l", "0", "zz"}) == "(integer) 0");
  CHECK(f.Run({"LREM", "nokey", "0", "a"}) == "(integer) 0");
  CHECK(f.Run({"LREM", "l", "x", "a"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"LREM", "l", "-9223372036854775808", "b"}) == "(integer) 1");
  CHECK(f.Run({"LREM", "l", "5", "c"}) == "(integer) 1");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.Events() ==
        std::vector<std::string>{"lrem:l", "lrem:l", "lrem:l", "lrem:l", "lrem:l", "del:l"});
  CHECK(f.Propagated().size() == 5);  // the no-match LREMs wrote nothing
}

TEST_CASE("list edit: LTRIM keeps a range and deletes an emptied key") {
  Fixture f;
  f.Run(Push({"a", "b", "c", "d", "e"}));
  f.Events();
  f.Propagated();
  CHECK(f.Run({"LTRIM", "l", "1", "-2"}) == "OK");
  CHECK(f.Run({"LRANGE", "l", "0", "-1"}) == "1) \"b\"\n2) \"c\"\n3) \"d\"");
  CHECK(f.Run({"LTRIM", "l", "0", "100"}) == "OK");  // nothing to trim: not propagated
  CHECK(f.Run({"LTRIM", "l", "5", "10"}) == "OK");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.Run({"LTRIM", "nokey", "0", "1"}) == "OK");
  CHECK(f.Run({"LTRIM", "l", "x", "1"}) == "(error) ERR value is not an integer or out of range");
  f.host.PutString("s", "x");
  CHECK(f.Run({"LTRIM", "s", "0", "1"}) == kWrongType);
  CHECK(f.Events() == std::vector<std::string>{"ltrim:l", "ltrim:l", "ltrim:l", "del:l"});
  CHECK(f.Propagated() == std::vector<std::string>{"LTRIM l 1 -2", "LTRIM l 5 10"});
}

TEST_CASE("list edit: LTRIM of a long list trims whole nodes") {
  Fixture f;
  Argv argv{"RPUSH", "l"};
  for (int i = 0; i < 10000; ++i) argv.push_back(std::to_string(i));
  f.Run(argv);
  CHECK(f.Run({"LTRIM", "l", "2500", "-2501"}) == "OK");
  CHECK(f.Run({"LLEN", "l"}) == "(integer) 5000");
  CHECK(f.Run({"LINDEX", "l", "0"}) == "\"2500\"");
  CHECK(f.Run({"LINDEX", "l", "-1"}) == "\"7499\"");
}

}  // namespace
}  // namespace plinth::list::test
