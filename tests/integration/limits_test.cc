// ROBUSTNESS.md items 13-18: every limit has Redis's name, a safe default, and holds.
#include <doctest/doctest.h>
#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_server.h"

using plinth::testing::InfoField;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

void Sleep(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Connects to a listener that may open a moment after the server's main port (transports start
// in load order).
std::unique_ptr<RespConn> ConnectSoon(int port) {
  for (int i = 0;; ++i) {
    try {
      return std::make_unique<RespConn>(port);
    } catch (const std::exception&) {
      if (i == 200) throw;
      Sleep(10);
    }
  }
}

// Stores a 256 KiB value, then has a client with a tiny receive buffer ask for it gets times
// without ever reading: its replies pile up in the server's output buffer.
void FloodWithoutReading(RespConn& setup, RespConn& lazy, int gets) {
  CHECK(setup.Cmd({"SET", "big", std::string(256 * 1024, 'v')}) == "+OK\r\n");
  int small = 4096;
  setsockopt(lazy.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  std::string batch;
  for (int i = 0; i < gets; ++i) batch += Multibulk({"GET", "big"});
  lazy.Send(batch);
}

// Output-buffer disconnections, after waiting up to wait_ms for at least one.
long long OutputLimitDisconnections(RespConn& c, int wait_ms) {
  const char* field = "client_output_buffer_limit_disconnections";
  for (int waited = 0; waited < wait_ms && InfoField(c, "stats", field) < 1; waited += 50)
    Sleep(50);
  return InfoField(c, "stats", field);
}

}  // namespace

TEST_CASE("limits: a bulk of exactly proto-max-bulk-len is accepted, one byte more is not") {
  TestServer s({"--proto-max-bulk-len", "1mb"});
  RespConn c(s.port());
  std::string exact(1024 * 1024, 'x');
  CHECK(c.Cmd({"SET", "k", exact}) == "+OK\r\n");
  CHECK(c.Cmd({"STRLEN", "k"}) == ":1048576\r\n");
  RespConn d(s.port());
  d.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048577\r\n");
  CHECK(d.Read() == "-ERR Protocol error: invalid bulk length\r\n");
  CHECK(d.WaitClosed());
}

TEST_CASE("limits: a query buffer over client-query-buffer-limit closes the client") {
  TestServer s({"--client-query-buffer-limit", "1mb"});
  RespConn c(s.port());
  c.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4000000\r\n");
  c.Send(std::string(2 * 1024 * 1024, 'x'));
  CHECK(c.WaitClosed());
  RespConn other(s.port());
  CHECK(InfoField(other, "stats", "client_query_buffer_limit_disconnections") == 1);
  CHECK(s.Log().find("max query buffer") != std::string::npos);
}

TEST_CASE("limits: a client that never reads is closed at the output hard limit") {
  TestServer s({"--client-output-buffer-limit", "normal 4mb 0 0"});
  RespConn setup(s.port()), lazy(s.port());
  FloodWithoutReading(setup, lazy, 400);  // 100 MB of replies
  CHECK(OutputLimitDisconnections(setup, 5000) == 1);
  CHECK(s.UsedMemory() < 64LL * 1024 * 1024);
}

TEST_CASE("limits: over the soft limit for its seconds closes the client") {
  TestServer s({"--client-output-buffer-limit", "normal 0 2mb 1"});
  RespConn setup(s.port()), lazy(s.port());
  FloodWithoutReading(setup, lazy, 64);
  Sleep(300);
  CHECK(OutputLimitDisconnections(setup, 0) == 0);
  CHECK(OutputLimitDisconnections(setup, 3000) == 1);
}

TEST_CASE("limits: maxclients + 1 gets the Redis error and is closed") {
  TestServer s({"--maxclients", "3"});
  RespConn a(s.port());
  // The start-up probe's connection may still be counted for a moment.
  for (int i = 0; i < 100 && InfoField(a, "clients", "connected_clients") != 1; ++i) Sleep(10);
  RespConn b(s.port()), c(s.port());
  CHECK(b.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  RespConn d(s.port());
  CHECK(d.Read() == "-ERR max number of clients reached\r\n");
  CHECK(d.WaitClosed());
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("limits: running out of file descriptors never kills the accept loop") {
  TestServer s({}, 48);
  std::vector<std::unique_ptr<RespConn>> conns;
  for (int i = 0; i < 80; ++i) conns.push_back(std::make_unique<RespConn>(s.port()));
  Sleep(200);
  conns.clear();  // free the server's descriptors again
  Sleep(200);
  RespConn c(s.port());
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(c.Cmd({"SET", "k", "v"}) == "+OK\r\n");
}

TEST_CASE("limits: requirepass needs AUTH, and unauthenticated clients can't send big requests") {
  TestServer s({"--requirepass", "s3cret"});
  RespConn c(s.port());
  CHECK(c.Cmd({"GET", "k"}) == "-NOAUTH Authentication required.\r\n");
  CHECK(c.Cmd({"AUTH", "wrong"}).rfind("-WRONGPASS", 0) == 0);
  CHECK(c.Cmd({"AUTH", "s3cret"}) == "+OK\r\n");
  CHECK(c.Cmd({"SET", "k", "v"}) == "+OK\r\n");
  RespConn big(s.port());
  std::vector<std::string> many(20, "x");
  many[0] = "MSET";
  big.Send(Multibulk(many));
  CHECK(big.Read() == "-ERR Protocol error: unauthenticated multibulk length\r\n");
  CHECK(big.WaitClosed());
  RespConn bulk(s.port());
  bulk.Send("*2\r\n$4\r\nAUTH\r\n$100000\r\n");
  CHECK(bulk.Read() == "-ERR Protocol error: unauthenticated bulk length\r\n");
}

TEST_CASE("limits: protected mode denies remote clients when no password is set") {
  int remote = plinth::testing::FreePort();
  TestServer s(
      {"--plugin", PLINTH_TEST_REMOTE_PLUGIN, "--test-remote-port", std::to_string(remote)});
  RespConn local(s.port());
  CHECK(local.Cmd({"PING"}) == "+PONG\r\n");
  auto outsider = ConnectSoon(remote);
  CHECK(outsider->Read().rfind("-DENIED Running in protected mode", 0) == 0);
  CHECK(outsider->WaitClosed());
  CHECK(InfoField(local, "stats", "rejected_connections") == 1);
}

TEST_CASE("limits: protected mode lets remote clients in once a password is set") {
  int remote = plinth::testing::FreePort();
  TestServer s({"--plugin", PLINTH_TEST_REMOTE_PLUGIN, "--test-remote-port", std::to_string(remote),
                "--requirepass", "pw"});
  auto outsider = ConnectSoon(remote);
  CHECK(outsider->Cmd({"GET", "k"}) == "-NOAUTH Authentication required.\r\n");
  CHECK(outsider->Cmd({"AUTH", "pw"}) == "+OK\r\n");
  CHECK(outsider->Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("limits: with protected-mode no, remote clients need no password") {
  int remote = plinth::testing::FreePort();
  TestServer s({"--plugin", PLINTH_TEST_REMOTE_PLUGIN, "--test-remote-port", std::to_string(remote),
                "--protected-mode", "no"});
  auto outsider = ConnectSoon(remote);
  CHECK(outsider->Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("limits: idle clients and half-sent commands are closed after timeout") {
  TestServer s({"--timeout", "1"});
  RespConn idle(s.port());
  RespConn half(s.port());
  half.Send("*2\r\n$3\r\nGET\r\n$10\r\nab");
  CHECK(idle.WaitClosed(5000));
  CHECK(half.WaitClosed(5000));
  RespConn fresh(s.port());
  CHECK(InfoField(fresh, "stats", "client_timeout_disconnections") == 2);
}
