// Command tests of the bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP) through the
// fake host. The scripted expectations were recorded from Redis 7.0 running the same commands
// (a list stood where MKOTHER stores a non-string value); the rest checks TTLs, propagation
// and the proto-max-bulk-len offset limit.
#include <doctest/doctest.h>

#include <string>

#include "commands_fixture.h"

using namespace std::string_literals;
using plinth::fakehost::FakeHost;
using plinth::strings::test::Fixture;

TEST_CASE("strings commands: SETBIT and GETBIT check offsets and values") {
  Fixture f;
  CHECK(f.Run({"setbit", "k", "7", "1"}) == "(integer) 0");
  CHECK(f.Run({"get", "k"}) == "\"\\x01\"");
  CHECK(f.Run({"setbit", "k", "7", "1"}) == "(integer) 1");
  CHECK(f.Run({"setbit", "k", "7", "0"}) == "(integer) 1");
  CHECK(f.Run({"getbit", "k", "7"}) == "(integer) 0");
  CHECK(f.Run({"setbit", "k", "0", "1"}) == "(integer) 0");
  CHECK(f.Run({"getbit", "k", "0"}) == "(integer) 1");
  CHECK(f.Run({"getbit", "k", "100"}) == "(integer) 0");
  CHECK(f.Run({"getbit", "missing", "0"}) == "(integer) 0");
  CHECK(f.Run({"setbit", "k", "-1", "1"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "x", "1"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "4294967296", "1"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "0", "2"}) == "(error) ERR bit is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "0", "-1"}) == "(error) ERR bit is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "0", "x"}) == "(error) ERR bit is not an integer or out of range");
  CHECK(f.Run({"setbit", "k", "x", "2"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"getbit", "k", "-1"}) == "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"getbit", "k", "4294967296"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"setbit", "z", "17", "0"}) == "(integer) 0");
  CHECK(f.Run({"get", "z"}) == "\"\\x00\\x00\\x00\"");
  CHECK(f.Run({"set", "s", "a"}) == "OK");
  CHECK(f.Run({"setbit", "s", "6", "1"}) == "(integer) 0");
  CHECK(f.Run({"get", "s"}) == "\"c\"");
  CHECK(f.Run({"getbit", "s", "1"}) == "(integer) 1");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"setbit", "l", "0", "1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"setbit", "l", "0", "2"}) == "(error) ERR bit is not an integer or out of range");
  CHECK(f.Run({"getbit", "l", "0"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"getbit", "l", "x"}) == "(error) ERR bit offset is not an integer or out of range");
}

TEST_CASE("strings commands: BITCOUNT and BITPOS answer like Redis") {
  Fixture f;
  CHECK(f.Run({"set", "k", "foobar"}) == "OK");
  CHECK(f.Run({"bitcount", "k"}) == "(integer) 26");
  CHECK(f.Run({"bitcount", "k", "1", "1"}) == "(integer) 6");
  CHECK(f.Run({"bitcount", "k", "5", "30", "BIT"}) == "(integer) 17");
  CHECK(f.Run({"bitcount", "k", "0", "-1", "byte"}) == "(integer) 26");
  CHECK(f.Run({"bitcount", "k", "1"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitcount", "k", "a", "b"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"bitcount", "k", "0", "1", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitcount", "k", "0", "1", "bit", "x"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitcount", "missing", "a", "b"}) == "(integer) 0");
  // A reversed negative range answers 0 before BYTE|BIT is looked at; otherwise it is checked.
  CHECK(f.Run({"bitcount", "k", "-1", "-3", "foo"}) == "(integer) 0");
  CHECK(f.Run({"bitcount", "k", "-3", "-1", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitcount", "k", "3", "1", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"set", "p", "\377\360\000"s}) == "OK");
  CHECK(f.Run({"bitpos", "p", "0"}) == "(integer) 12");
  CHECK(f.Run({"bitpos", "p", "1"}) == "(integer) 0");
  CHECK(f.Run({"bitpos", "p", "0", "2"}) == "(integer) 16");
  CHECK(f.Run({"bitpos", "p", "0", "0", "-1"}) == "(integer) 12");
  CHECK(f.Run({"bitpos", "p", "1", "-20", "-30"}) == "(integer) 0");
  CHECK(f.Run({"bitpos", "p", "0", "12", "23", "bit"}) == "(integer) 12");
  CHECK(f.Run({"bitpos", "p", "0", "9", "11", "BIT"}) == "(integer) -1");
  CHECK(f.Run({"bitpos", "p", "2"}) == "(error) ERR The bit argument must be 1 or 0.");
  CHECK(f.Run({"bitpos", "p", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"bitpos", "p", "1", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"bitpos", "p", "1", "0", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"bitpos", "p", "1", "0", "1", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitpos", "p", "1", "x", "1", "foo"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"bitpos", "p", "1", "0", "x", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitpos", "p", "1", "0", "1", "bit", "x"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitpos", "missing", "1"}) == "(integer) -1");
  CHECK(f.Run({"bitpos", "missing", "0"}) == "(integer) 0");
  CHECK(f.Run({"bitpos", "missing", "0", "x"}) == "(integer) 0");
  CHECK(f.Run({"bitpos", "missing", "2"}) == "(error) ERR The bit argument must be 1 or 0.");
  CHECK(f.Run({"set", "e", ""}) == "OK");
  CHECK(f.Run({"bitpos", "e", "0"}) == "(integer) -1");
  CHECK(f.Run({"bitpos", "e", "1"}) == "(integer) -1");
  CHECK(f.Run({"bitcount", "e"}) == "(integer) 0");
  CHECK(f.Run({"bitcount", "e", "0", "-1"}) == "(integer) 0");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"bitcount", "l"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"bitcount", "l", "x"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"bitpos", "l", "1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"bitpos", "l", "2"}) == "(error) ERR The bit argument must be 1 or 0.");
}

TEST_CASE("strings commands: BITOP stores, deletes and refuses like Redis") {
  Fixture f;
  CHECK(f.Run({"set", "a", "\377\017"}) == "OK");
  CHECK(f.Run({"set", "b", "\017"}) == "OK");
  CHECK(f.Run({"bitop", "and", "d", "a", "b"}) == "(integer) 2");
  CHECK(f.Run({"get", "d"}) == "\"\\x0f\\x00\"");
  CHECK(f.Run({"bitop", "OR", "d", "a", "b"}) == "(integer) 2");
  CHECK(f.Run({"get", "d"}) == "\"\\xff\\x0f\"");
  CHECK(f.Run({"bitop", "xor", "d", "a", "b"}) == "(integer) 2");
  CHECK(f.Run({"get", "d"}) == "\"\\xf0\\x0f\"");
  CHECK(f.Run({"bitop", "not", "d", "a"}) == "(integer) 2");
  CHECK(f.Run({"get", "d"}) == "\"\\x00\\xf0\"");
  CHECK(f.Run({"bitop", "not", "d", "a", "b"}) ==
        "(error) ERR BITOP NOT must be called with a single source key.");
  CHECK(f.Run({"bitop", "nand", "d", "a"}) == "(error) ERR syntax error");
  CHECK(f.Run({"bitop", "and", "d", "missing"}) == "(integer) 0");
  CHECK(f.Run({"get", "d"}) == "(nil)");
  CHECK(f.Run({"bitop", "or", "d", "a", "missing"}) == "(integer) 2");
  CHECK(f.Run({"get", "d"}) == "\"\\xff\\x0f\"");
  CHECK(f.Run({"bitop", "not", "d", "missing"}) == "(integer) 0");
  CHECK(f.Run({"get", "d"}) == "(nil)");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"bitop", "and", "d", "a", "l"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"bitop", "and", "l", "a"}) == "(integer) 2");
  CHECK(f.Run({"get", "l"}) == "\"\\xff\\x0f\"");
  CHECK(f.Run({"set", "e", ""}) == "OK");
  CHECK(f.Run({"bitop", "or", "e2", "e"}) == "(integer) 0");
  CHECK(f.Run({"get", "e2"}) == "(nil)");
}

TEST_CASE("strings commands: SETBIT keeps the TTL and propagates only real changes") {
  Fixture f;
  CHECK(f.Run({"setex", "k", "10", "a"}) == "OK");
  f.host.ClearPropagated();
  CHECK(f.Run({"setbit", "k", "7", "1"}) == "(integer) 1");
  CHECK(f.Run({"setbit", "k", "0", "0"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  CHECK(f.Run({"setbit", "k", "6", "1"}) == "(integer) 0");
  CHECK(f.Propagated() == std::vector<std::string>{"setbit k 6 1"});
  CHECK(f.host.GetString("k") == "c");
  CHECK(f.host.ExpireAtMs("k") == FakeHost::kDefaultTimeMs + 10000);
  // Growing the string is a change even when the bit written is 0.
  CHECK(f.Run({"setbit", "k", "15", "0"}) == "(integer) 0");
  CHECK(f.host.GetString("k") == "c\0"s);
}

TEST_CASE("strings commands: bit offsets are limited by proto-max-bulk-len") {
  Fixture f;
  REQUIRE(f.host.SetOption("proto-max-bulk-len", "2"));
  CHECK(f.Run({"setbit", "k", "15", "1"}) == "(integer) 0");
  CHECK(f.Run({"setbit", "k", "16", "1"}) ==
        "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"getbit", "k", "16"}) == "(error) ERR bit offset is not an integer or out of range");
  CHECK(f.Run({"getbit", "k", "15"}) == "(integer) 1");
}

TEST_CASE("strings commands: BITOP clears the destination's TTL and deletes on empty") {
  Fixture f;
  CHECK(f.Run({"set", "a", "x"}) == "OK");
  CHECK(f.Run({"setex", "d", "10", "old"}) == "OK");
  CHECK(f.Run({"bitop", "or", "d", "a"}) == "(integer) 1");
  CHECK(f.host.ExpireAtMs("d") == -1);
  f.host.ClearPropagated();
  CHECK(f.Run({"bitop", "and", "d", "nothing"}) == "(integer) 0");
  CHECK(f.host.GetString("d") == std::nullopt);
  CHECK(f.Propagated() == std::vector<std::string>{"bitop and d nothing"});
  CHECK(f.Run({"bitop", "and", "d", "nothing"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
}
