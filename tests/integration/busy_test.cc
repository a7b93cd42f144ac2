// A command that runs long and yields (call_yield, as a busy script does): other clients,
// new connections included, get its -BUSY error, PLINTH_CMD_ALLOW_BUSY commands run, the busy
// client's own pipelined input waits, and a SHUTDOWN meanwhile ends it and the server cleanly.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "test_server.h"

using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

void Pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

TEST_CASE("busy: others get the busy error until an allowed command ends the busy one") {
  TestServer s({"--plugin", PLINTH_TEST_PROBE_DIR "/probe_a.so"});
  RespConn a(s.port());
  RespConn early(s.port());
  a.Send(Multibulk({"probe_a.busy", "10000"}) + Multibulk({"PING"}));
  Pause(100);
  CHECK(early.Cmd({"GET", "k"}) == "-BUSY probe_a is busy\r\n");
  RespConn late(s.port());  // accepted while busy
  CHECK(late.Cmd({"PING"}) == "-BUSY probe_a is busy\r\n");
  CHECK(late.Cmd({"SET", "k", "v"}) == "-BUSY probe_a is busy\r\n");
  CHECK(late.Cmd({"probe_a.unbusy"}) == "+OK\r\n");
  // The busy client's pipelined PING ran after its command, not during it.
  std::string got = a.Read();
  if (got.size() < 16) got += a.Read();
  CHECK(got == "+stopped\r\n+PONG\r\n");
  CHECK(late.Cmd({"GET", "k"}) == "$-1\r\n");  // the refused SET did nothing
  CHECK(early.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("busy: SHUTDOWN while busy ends the busy command, then the server") {
  TestServer s({"--plugin", PLINTH_TEST_PROBE_DIR "/probe_a.so"});
  RespConn a(s.port());
  a.Send(Multibulk({"probe_a.busy", "10000"}));
  Pause(100);
  RespConn b(s.port());
  b.Send(Multibulk({"SHUTDOWN", "NOSAVE"}));
  CHECK(b.WaitClosed(5000));
  CHECK(a.WaitClosed(5000));
  CHECK(s.WaitForExit(5000) == 0);
  CHECK(s.Log().find("shutdown hook of probe_a") != std::string::npos);
}
