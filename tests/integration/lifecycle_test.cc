// Startup and shutdown as an operator sees them: --version, --help, config files, SIGTERM,
// clients that vanish mid-reply.
#include <doctest/doctest.h>
#include <plinth/plugin.h>
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "test_server.h"

using plinth::testing::FreePort;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::RunServerToExit;
using plinth::testing::TestServer;

TEST_CASE("lifecycle: --version prints the server and ABI versions") {
  std::string out;
  CHECK(RunServerToExit({"--version"}, &out) == 0);
  CHECK(out.find("plinth-server v=") != std::string::npos);
  CHECK(out.find("abi=1." + std::to_string(PLINTH_ABI_MINOR)) != std::string::npos);
}

TEST_CASE("lifecycle: --help lists host options and the loaded plugins' options") {
  std::string out;
  CHECK(RunServerToExit({"--help"}, &out) == 0);
  for (const char* want :
       {"--maxclients", "--port", "--bind", "--proto-max-bulk-len", "resp", "tcp", "strings"})
    CHECK_MESSAGE(out.find(want) != std::string::npos, want);
}

TEST_CASE("lifecycle: unknown options and bad values stop startup with a clear message") {
  std::string out;
  CHECK(RunServerToExit({"--no-such-option", "1"}, &out) != 0);
  CHECK(out.find("unknown option 'no-such-option'") != std::string::npos);
  CHECK(RunServerToExit({"--maxclients", "lots"}, &out) != 0);
  CHECK(out.find("maxclients") != std::string::npos);
}

TEST_CASE("lifecycle: a JSON config file sets options and the plugin list") {
  int port = FreePort();
  std::string path = "/tmp/plinth-config-test.json";
  {
    std::ofstream f(path);
    f << R"({"databases": 4, "bind": "127.0.0.1", "port": )" << port
      << R"(, "plugins": ["resp", "tcp", "connection", "server", "keys", "strings"]})";
  }
  TestServer s({"--config", path});
  RespConn c(s.port());
  CHECK(c.Cmd({"CONFIG", "GET", "databases"}) == "*2\r\n$9\r\ndatabases\r\n$1\r\n4\r\n");
  CHECK(c.Cmd({"SELECT", "4"}) == "-ERR DB index is out of range\r\n");
  std::remove(path.c_str());
}

TEST_CASE("lifecycle: SIGTERM while clients write exits 0") {
  TestServer s;
  RespConn c(s.port());
  std::string batch;
  for (int i = 0; i < 2000; ++i) batch += Multibulk({"SET", "k" + std::to_string(i), "v"});
  c.Send(batch);
  CHECK(s.Stop() == 0);
  CHECK(s.Log().find("bye") != std::string::npos);
}

TEST_CASE("lifecycle: SIGTERM runs the plugins' shutdown hooks in reverse load order") {
  TestServer s({"--plugin", PLINTH_TEST_PROBE_DIR "/probe_a.so", "--plugin",
                PLINTH_TEST_PROBE_DIR "/probe_b.so"});
  CHECK(s.Stop() == 0);
  std::string log = s.Log();
  size_t a = log.find("shutdown hook of probe_a"), b = log.find("shutdown hook of probe_b");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  CHECK(b < a);
}

TEST_CASE("lifecycle: clients that disconnect mid-reply leave the server healthy") {
  TestServer s;
  RespConn setup(s.port());
  CHECK(setup.Cmd({"SET", "big", std::string(8 * 1024 * 1024, 'z')}) == "+OK\r\n");
  for (int round = 0; round < 5; ++round) {
    RespConn c(s.port());
    std::string gets;
    for (int i = 0; i < 8; ++i) gets += Multibulk({"GET", "big"});
    c.Send(gets);
    if (round % 2) {
      c.ResetOnClose();  // RST instead of FIN
    }
  }
  CHECK(setup.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(setup.Cmd({"STRLEN", "big"}) == ":8388608\r\n");
  CHECK(s.Stop() == 0);
}
