// ROBUSTNESS.md items 1-12 end to end: malformed RESP gets "-ERR Protocol error: ..." and a
// closed connection, while the server keeps serving everyone else.
#include <doctest/doctest.h>

#include <string>

#include "test_server.h"

using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

// Sends bytes on a fresh connection, expects one protocol error reply and a close.
void ExpectProtocolError(const TestServer& s, const std::string& bytes, const std::string& reason) {
  RespConn c(s.port());
  c.Send(bytes);
  CHECK(c.Read() == "-ERR Protocol error: " + reason + "\r\n");
  CHECK(c.WaitClosed());
  RespConn other(s.port());
  CHECK(other.Cmd({"PING"}) == "+PONG\r\n");
}

}  // namespace

TEST_CASE("protocol: empty lines, *0 and *-1 are skipped and the pipeline goes on") {
  TestServer s;
  RespConn c(s.port());
  c.Send("\r\n\r\n*0\r\n*-1\r\n" + Multibulk({"PING"}));
  CHECK(c.Read() == "+PONG\r\n");
}

TEST_CASE("protocol: bad multibulk counts are refused") {
  TestServer s;
  for (const char* bad : {"*3000000000\r\n", "*99999999999999999999\r\n", "*abc\r\n", "*3x\r\n"})
    ExpectProtocolError(s, bad, "invalid multibulk length");
}

TEST_CASE("protocol: a huge valid count with no data does not preallocate") {
  TestServer s;
  RespConn c(s.port());
  c.Send("*2147483647\r\n");  // INT_MAX: the largest count Redis 7.0 takes
  CHECK(s.UsedMemory() < 64LL * 1024 * 1024);
}

TEST_CASE("protocol: an element that is not a bulk string is refused") {
  TestServer s;
  ExpectProtocolError(s, "*1\r\n:5\r\n", "expected '$', got ':'");
}

TEST_CASE("protocol: bad bulk lengths are refused") {
  TestServer s;
  for (const char* bad : {"*1\r\n$-10\r\n", "*1\r\n$-1\r\n", "*1\r\n$abc\r\n"})
    ExpectProtocolError(s, bad, "invalid bulk length");
  ExpectProtocolError(s, "*1\r\n$536870913\r\n", "invalid bulk length");
}

TEST_CASE("protocol: a bulk not followed by CRLF and a lone CR are refused") {
  TestServer s;
  ExpectProtocolError(s, "*1\r\n$4\r\nPINGxx", "invalid CRLF in request");
  ExpectProtocolError(s, "*1\r$4\r\nPING\r\n", "invalid CRLF in request");
}

TEST_CASE("protocol: an empty command name is an unknown command and the connection stays") {
  TestServer s;
  RespConn c(s.port());
  c.Send("*1\r\n$0\r\n\r\n");
  CHECK(c.Read() == "-ERR unknown command '', with args beginning with: \r\n");
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("protocol: inline commands support quotes and hex escapes") {
  TestServer s;
  RespConn c(s.port());
  c.Send("SET k \"a\\x41 b\"\r\n");
  CHECK(c.Read() == "+OK\r\n");
  c.Send("GET k\n");
  CHECK(c.Read() == "$4\r\naA b\r\n");
  ExpectProtocolError(s, "SET k \"open\r\n", "unbalanced quotes in request");
  ExpectProtocolError(s, std::string(70 * 1024, 'a'), "too big inline request");
}

TEST_CASE("protocol: binary junk is refused without harming the server") {
  TestServer s;
  ExpectProtocolError(s, std::string("*\x00\r\n", 4), "invalid multibulk length");
  ExpectProtocolError(s, std::string("*1\r\n$\x00\r\n", 8), "invalid bulk length");
  RespConn c(s.port());
  c.Send(std::string("\x00\x01\x02\r\n", 5));
  CHECK(c.Read().rfind("-ERR", 0) == 0);
  CHECK(c.WaitClosed());
}

TEST_CASE("protocol: RESP3 type bytes sent as requests are read as inline text") {
  TestServer s;
  RespConn c(s.port());
  for (const char* t : {"%", "~", "|", ">", "_", "#", ","}) {
    c.Send(std::string(t) + "2\r\n");
    CHECK(c.Read() ==
          std::string("-ERR unknown command '") + t + "2', with args beginning with: \r\n");
  }
}

TEST_CASE("protocol: bytes delivered one at a time give the same replies") {
  TestServer s;
  std::string script = Multibulk({"SET", "k", std::string("a\0\r\nb", 5)}) +
                       Multibulk({"GET", "k"}) + "PING\r\n" + Multibulk({"STRLEN", "k"});
  RespConn c(s.port());
  for (char ch : script) c.Send(std::string(1, ch));
  CHECK(c.Read() == "+OK\r\n");
  CHECK(c.Read() == std::string("$5\r\na\0\r\nb\r\n", 11));
  CHECK(c.Read() == "+PONG\r\n");
  CHECK(c.Read() == ":5\r\n");
}

TEST_CASE("protocol: a 10000-command pipeline in one write is answered in order") {
  TestServer s;
  RespConn c(s.port());
  std::string batch;
  for (int i = 0; i < 10000; ++i) batch += Multibulk({"ECHO", std::to_string(i)});
  c.Send(batch);
  for (int i = 0; i < 10000; ++i) {
    std::string n = std::to_string(i);
    REQUIRE(c.Read() == "$" + std::to_string(n.size()) + "\r\n" + n + "\r\n");
  }
}

TEST_CASE("protocol: unknown commands and wrong arity use Redis's texts") {
  TestServer s;
  RespConn c(s.port());
  CHECK(c.Cmd({"NOPE", "a", "b"}) ==
        "-ERR unknown command 'NOPE', with args beginning with: 'a' 'b' \r\n");
  CHECK(c.Cmd({"GET"}) == "-ERR wrong number of arguments for 'get' command\r\n");
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
}
