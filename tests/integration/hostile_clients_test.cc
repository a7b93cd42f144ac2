// ROBUSTNESS.md items 34-36 (issue 31, rows 2-4): no client is freed under a running command,
// no size from a client or an option wraps, and an unauthenticated client's output is bounded.
// Each case ends with the server still serving; run under valgrind or ASan they also show no
// invalid access.
#include <doctest/doctest.h>
#include <sys/socket.h>

#include <chrono>
#include <string>
#include <thread>

#include "test_server.h"

using plinth::testing::InfoField;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

void Sleep(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void SmallReceiveBuffer(RespConn& c) {
  int small = 4096;
  setsockopt(c.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
}

// Output-buffer disconnections, after waiting up to 5 s for at least want.
long long OutputLimitDisconnections(RespConn& c, long long want) {
  const char* field = "client_output_buffer_limit_disconnections";
  for (int i = 0; i < 100 && InfoField(c, "stats", field) < want; ++i) Sleep(50);
  return InfoField(c, "stats", field);
}

// The id CLIENT ID gives c.
std::string ClientId(RespConn& c) {
  const std::string r = c.Cmd({"CLIENT", "ID"});
  return r.substr(1, r.size() - 3);
}

}  // namespace

TEST_CASE("hostile clients: a RESP3 subscriber publishing to itself past its limit is closed") {
  // Row 2: the client's own PUBLISH pushes to it until its pubsub limit closes it, while the
  // command, the slowlog and a MONITOR still use its arguments.
  TestServer s(
      {"--client-output-buffer-limit", "pubsub 2mb 0 0", "--slowlog-log-slower-than", "0"});
  RespConn watch(s.port()), self(s.port());
  CHECK(watch.Cmd({"MONITOR"}) == "+OK\r\n");
  CHECK(self.Cmd({"HELLO", "3"}).rfind("%", 0) == 0);
  CHECK(self.Cmd({"SUBSCRIBE", "ch"}) == ">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n");
  SmallReceiveBuffer(self);
  const std::string publish = Multibulk({"PUBLISH", "ch", std::string(1 << 20, 'm')});
  std::string batch;
  for (int i = 0; i < 4; ++i) batch += publish;
  for (int i = 0; i < 16; ++i) self.Send(batch);  // stops taking bytes once closed
  CHECK(self.WaitClosed());
  RespConn other(s.port());
  CHECK(OutputLimitDisconnections(other, 1) == 1);
  CHECK(other.Cmd({"PING"}) == "+PONG\r\n");
  // The slowlog kept the arguments of a PUBLISH that closed its own client, intact.
  const std::string slow = other.Cmd({"SLOWLOG", "GET", "128"});
  CHECK(slow.find("$7\r\nPUBLISH\r\n$2\r\nch\r\n$") != std::string::npos);
  CHECK(slow.find("mmmmmmmmmmmmmmmm") != std::string::npos);
}

TEST_CASE("hostile clients: a MONITOR over its output limit is closed, the commands go on") {
  TestServer s({"--client-output-buffer-limit", "normal 1mb 0 0"});
  RespConn watch(s.port()), writer(s.port());
  const std::string id = ClientId(watch);
  CHECK(watch.Cmd({"MONITOR"}) == "+OK\r\n");
  SmallReceiveBuffer(watch);
  const std::string value(256 * 1024, 'v');
  std::string batch;
  for (int i = 0; i < 64; ++i) batch += Multibulk({"SET", "k" + std::to_string(i), value});
  writer.Send(batch);
  for (int i = 0; i < 64; ++i) CHECK(writer.Read() == "+OK\r\n");
  CHECK(OutputLimitDisconnections(writer, 1) == 1);
  // Gone from the server (its socket still drains what the kernel holds, slowly).
  CHECK(writer.Cmd({"CLIENT", "LIST", "ID", id}) == "$0\r\n\r\n");
  CHECK(writer.Cmd({"DBSIZE"}) == ":64\r\n");
}

TEST_CASE("hostile clients: CLIENT KILL of its own id answers as Redis, then closes") {
  TestServer s;
  RespConn c(s.port());
  const std::string id = ClientId(c);
  // SKIPME defaults to yes, as in Redis: the caller is not killed.
  CHECK(c.Cmd({"CLIENT", "KILL", "ID", id}) == ":0\r\n");
  CHECK(c.Cmd({"CLIENT", "KILL", "ID", id, "SKIPME", "no"}) == ":1\r\n");
  CHECK(c.WaitClosed());
  RespConn other(s.port());
  CHECK(other.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("hostile clients: CLIENT KILL of itself inside MULTI closes after EXEC's reply") {
  TestServer s;
  RespConn c(s.port());
  const std::string id = ClientId(c);
  CHECK(c.Cmd({"MULTI"}) == "+OK\r\n");
  CHECK(c.Cmd({"CLIENT", "KILL", "ID", id, "SKIPME", "no"}) == "+QUEUED\r\n");
  CHECK(c.Cmd({"SET", "k", "v"}) == "+QUEUED\r\n");
  // Redis cuts EXEC's reply after the kill; the whole reply comes here, then the close.
  CHECK(c.Cmd({"EXEC"}).rfind("*2\r\n:1\r\n", 0) == 0);
  CHECK(c.WaitClosed());
  RespConn other(s.port());
  CHECK(other.Cmd({"GET", "k"}) == "$1\r\nv\r\n");
}

TEST_CASE("hostile clients: a script may not CLIENT KILL its caller, as in Redis") {
  TestServer s;
  RespConn c(s.port());
  const std::string id = ClientId(c);
  const std::string r = c.Cmd({"EVAL", "return redis.call('CLIENT','KILL','ID',ARGV[1])", "0", id});
  CHECK(r.rfind("-ERR This Redis command is not allowed from script", 0) == 0);
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("hostile clients: CLIENT KILL of another client in a pipeline takes effect at once") {
  TestServer s;
  RespConn victim(s.port()), c(s.port());
  const std::string id = ClientId(victim);
  c.Send(Multibulk({"CLIENT", "KILL", "ID", id}) + Multibulk({"CLIENT", "LIST", "ID", id}));
  CHECK(c.Read() == ":1\r\n");
  CHECK(c.Read() == "$0\r\n\r\n");
  CHECK(victim.WaitClosed());
}

TEST_CASE("hostile clients: proto-max-bulk-len stops at 1pb and a huge bulk never wraps") {
  // Row 3: Redis 7.0 takes LONG_MAX, then wraps its buffer size on a bulk header that large.
  TestServer s;
  RespConn c(s.port());
  CHECK(c.Cmd({"CONFIG", "SET", "proto-max-bulk-len", "9223372036854775807"}).rfind("-ERR", 0) ==
        0);
  CHECK(c.Cmd({"CONFIG", "GET", "proto-max-bulk-len"}) ==
        "*2\r\n$18\r\nproto-max-bulk-len\r\n$9\r\n536870912\r\n");
  CHECK(c.Cmd({"CONFIG", "SET", "proto-max-bulk-len", "1125899906842624"}) == "+OK\r\n");
  // Past the query buffer limit before a byte of it came: closed at once.
  RespConn big(s.port());
  big.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1125899906842624\r\n");
  CHECK(big.WaitClosed());
  CHECK(InfoField(c, "stats", "client_query_buffer_limit_disconnections") == 1);
  // Within a limit as large as it goes: only what arrives is held.
  CHECK(c.Cmd({"CONFIG", "SET", "client-query-buffer-limit", "9223372036854775807"}) == "+OK\r\n");
  RespConn huge(s.port());
  huge.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1125899906842624\r\n" + std::string(100000, 'x'));
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(s.UsedMemory() < 64LL * 1024 * 1024);
  CHECK(c.Cmd({"CONFIG", "SET", "proto-max-bulk-len", "1125899906842625"}).rfind("-ERR", 0) == 0);
}

TEST_CASE("hostile clients: an unauthenticated client that never reads is closed at 16 KiB") {
  // Row 4: 200k pipelined PINGs get as many -NOAUTH replies, which used to pile up.
  TestServer s({"--requirepass", "secret"});
  RespConn c(s.port());
  CHECK(c.Cmd({"AUTH", "secret"}) == "+OK\r\n");
  const long long before = s.UsedMemory();
  RespConn flood(s.port());
  SmallReceiveBuffer(flood);
  std::string batch;
  for (int i = 0; i < 10000; ++i) batch += "*1\r\n$4\r\nPING\r\n";
  for (int i = 0; i < 20; ++i) flood.Send(batch);  // stops taking bytes once closed
  CHECK(flood.WaitClosed());
  CHECK(OutputLimitDisconnections(c, 1) == 1);
  CHECK(s.UsedMemory() - before < 8LL * 1024 * 1024);
  CHECK(s.Log().find("output buffer limit of unauthenticated clients") != std::string::npos);
  // One that reads its replies is served as before; so is one that authenticates.
  RespConn polite(s.port());
  for (int i = 0; i < 100; ++i)
    CHECK(polite.Cmd({"PING"}) == "-NOAUTH Authentication required.\r\n");
  CHECK(polite.Cmd({"AUTH", "secret"}) == "+OK\r\n");
  CHECK(polite.Cmd({"SET", "big", std::string(64 * 1024, 'b')}) == "+OK\r\n");
  CHECK(polite.Cmd({"GET", "big"}).size() > 64 * 1024);
}
