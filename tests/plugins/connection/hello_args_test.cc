// HELLO grammar, client-name validation and AUTH credential checks.
#include "connection/hello_args.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::connection;

TEST_CASE("hello args: client names must be printable without spaces") {
  CHECK(ValidClientName("web-1"));
  CHECK(ValidClientName(""));
  CHECK(ValidClientName("!~"));
  CHECK_FALSE(ValidClientName("a b"));
  CHECK_FALSE(ValidClientName("a\nb"));
  CHECK_FALSE(ValidClientName("caf\xc3\xa9"));
}

TEST_CASE("hello args: protocol, AUTH and SETNAME in any order") {
  HelloArgs a;
  std::string err;
  REQUIRE(ParseHello({"3", "SETNAME", "me", "auth", "default", "pw"}, &a, &err));
  CHECK(a.proto == 3);
  CHECK(a.has_name);
  CHECK(a.name == "me");
  CHECK(a.has_auth);
  CHECK(a.user == "default");
  CHECK(a.pass == "pw");
  HelloArgs none;
  REQUIRE(ParseHello({}, &none, &err));
  CHECK(none.proto == 0);
}

TEST_CASE("hello args: errors match Redis 7.0") {
  HelloArgs a;
  std::string err;
  CHECK_FALSE(ParseHello({"4"}, &a, &err));
  CHECK(err == "NOPROTO unsupported protocol version");
  CHECK_FALSE(ParseHello({"1"}, &a, &err));
  CHECK(err == "NOPROTO unsupported protocol version");
  CHECK_FALSE(ParseHello({"abc"}, &a, &err));
  CHECK(err == "ERR Protocol version is not an integer or out of range");
  CHECK_FALSE(ParseHello({"3", "foo"}, &a, &err));
  CHECK(err == "ERR Syntax error in HELLO option 'foo'");
  CHECK_FALSE(ParseHello({"3", "auth", "a"}, &a, &err));
  CHECK(err == "ERR Syntax error in HELLO option 'auth'");
  CHECK_FALSE(ParseHello({"2", "setname"}, &a, &err));
  CHECK(err == "ERR Syntax error in HELLO option 'setname'");
  CHECK_FALSE(ParseHello({"3", "setname", "a b"}, &a, &err));
  CHECK(err == "ERR Client names cannot contain spaces, newlines or special characters.");
}
