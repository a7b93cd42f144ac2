// The rdma plugin in a real plinth-server. Without a device: the one log line, TCP serving and
// INFO saying why. Over the software fabric (tests/rdma_fabric, found through
// LD_LIBRARY_PATH, which the server inherits): requests and large values round trip, the
// connection shows in CLIENT LIST and INFO, client limits hold, keepalives flow, and every
// fault closes only its own connection while TCP and other RDMA clients keep being served.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "rdma/client.h"
#include "rdma/codec.h"
#include "test_server.h"

using plinth::rdma::ClientOptions;
using plinth::rdma::Fault;
using plinth::rdma::RdmaClient;
using plinth::testing::CompleteReplyLength;
using plinth::testing::FreePort;
using plinth::testing::InfoField;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

// The software fabric is built and this process (so every server it starts) runs on it.
bool HaveFabric() {
  const char* path = std::getenv("LD_LIBRARY_PATH");
  if (path == nullptr || access(PLINTH_FABRIC_DIR "/libibverbs.so.1", R_OK) != 0 ||
      access(PLINTH_FABRIC_DIR "/librdmacm.so.1", R_OK) != 0) {
    return false;
  }
  const std::string first(path, std::strcspn(path, ":"));  // the loader searches it first
  char* have = realpath(first.c_str(), nullptr);
  char* want = realpath(PLINTH_FABRIC_DIR, nullptr);
  const bool same = have != nullptr && want != nullptr && std::strcmp(have, want) == 0;
  std::free(have);
  std::free(want);
  return same;
}

// A server with the rdma plugin listening on a free RDMA port of 127.0.0.1.
struct RdmaServer {
  int rdma_port = FreePort();
  TestServer server;
  // Returns once the server answers INFO, so every transport has started (a TCP connect
  // alone can succeed from the kernel's backlog before the server listens on RDMA).
  explicit RdmaServer(std::vector<std::string> extra = {})
      : server(WithRdma(rdma_port, std::move(extra))) {
    RespConn probe(server.port());
    probe.Cmd({"INFO", "rdma"});
  }
  // A clean exit: under the sanitizers that includes no leak, race or bad access, whatever
  // the case's faults left behind.
  ~RdmaServer() {
    const int status = server.Stop();
    const std::string log = server.Log();
    CHECK_MESSAGE(status == 0, log);
    CHECK_MESSAGE(log.find("Sanitizer") == std::string::npos, log);
  }
  static std::vector<std::string> WithRdma(int port, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--plugin", "rdma", "--rdma-port", std::to_string(port)};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

// RESP over an RdmaClient.
struct RdmaResp {
  RdmaClient client;
  std::string buf;
  bool Connect(int port, const ClientOptions& options = {}) {
    std::string error;
    const bool ok = client.Connect("127.0.0.1", port, options, &error);
    if (!ok) MESSAGE("connect: " << error);
    return ok;
  }
  // The next complete reply, or "" when none came within timeout_ms or the connection ended.
  std::string Read(int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (const size_t n = CompleteReplyLength(buf); n > 0) {
        std::string reply = buf.substr(0, n);
        buf.erase(0, n);
        return reply;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || client.Recv(&buf, static_cast<int>(left.count())) < 0) return "";
    }
  }
  std::string Cmd(const std::vector<std::string>& args) {
    if (!client.SendAll(Multibulk(args))) return "";
    return Read();
  }
  // True when the server ends the connection within timeout_ms.
  bool WaitClosed(int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      if (client.Recv(&buf, 100) < 0) return true;
    }
    return false;
  }
};

// TCP and a fresh RDMA client both still work, and the server counted the connection error.
void CheckStillServing(RdmaServer& s, long long errors_before) {
  RespConn tcp(s.server.port());
  CHECK(tcp.Cmd({"PING"}) == "+PONG\r\n");
  RdmaResp other;
  REQUIRE(other.Connect(s.rdma_port));
  CHECK(other.Cmd({"SET", "after", "fault"}) == "+OK\r\n");
  CHECK(other.Cmd({"GET", "after"}) == "$5\r\nfault\r\n");
  CHECK(InfoField(tcp, "rdma", "rdma_connection_errors") > errors_before);
}

}  // namespace

TEST_CASE("rdma: without a device the plugin logs one line, stays off and TCP serves") {
  // The server must not find the software fabric: it gets the system's rdma-core.
  const char* saved = std::getenv("LD_LIBRARY_PATH");
  const std::string keep = saved != nullptr ? saved : "";
  unsetenv("LD_LIBRARY_PATH");
  RdmaServer s;
  if (saved != nullptr) setenv("LD_LIBRARY_PATH", keep.c_str(), 1);
  RespConn tcp(s.server.port());
  CHECK(tcp.Cmd({"PING"}) == "+PONG\r\n");
  const std::string info = tcp.Cmd({"INFO", "rdma"});
  if (info.find("rdma_status:listening") != std::string::npos) {
    MESSAGE("this machine has an RDMA device: the no-device path cannot be shown here");
    return;
  }
  CHECK(info.find("rdma_enabled:0") != std::string::npos);
  CHECK(info.find("rdma_status:unavailable") != std::string::npos);
  CHECK(info.find("rdma_reason:no RDMA device: ") != std::string::npos);
  const std::string log = s.server.Log();
  const std::string line =
      "# rdma: no RDMA device: ibv_get_device_list failed (Function not implemented); RDMA stays "
      "disabled, other transports serve";
  CHECK(log.find(line) != std::string::npos);
  size_t lines = 0;
  for (size_t at = log.find("rdma:"); at != std::string::npos; at = log.find("rdma:", at + 1)) {
    ++lines;
  }
  CHECK(lines == 1);
}

TEST_CASE("rdma: with rdma-port 0 the plugin stays off without a word") {
  TestServer s({"--plugin", "rdma"});
  RespConn tcp(s.port());
  const std::string info = tcp.Cmd({"INFO", "rdma"});
  CHECK(info.find("rdma_status:off") != std::string::npos);
  CHECK(s.Log().find("rdma: ") == std::string::npos);
}

TEST_CASE("rdma: requests, pipelines and a 1 MiB value round trip over the fabric") {
  REQUIRE_MESSAGE(HaveFabric(),
                  "LD_LIBRARY_PATH must start with " PLINTH_FABRIC_DIR " (ctest sets it)");
  RdmaServer s;
  RdmaResp c;
  REQUIRE(c.Connect(s.rdma_port));
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(c.Cmd({"SET", "k", "v"}) == "+OK\r\n");
  CHECK(c.Cmd({"GET", "k"}) == "$1\r\nv\r\n");
  // Larger than the RX buffers of both sides: the writes wrap through buffer refreshes.
  std::string big(3 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + (i * 7919) % 26);
  CHECK(c.Cmd({"SET", "big", big}) == "+OK\r\n");
  CHECK(c.Cmd({"GET", "big"}) == "$" + std::to_string(big.size()) + "\r\n" + big + "\r\n");
  std::string pipeline;
  for (int i = 0; i < 10000; ++i) pipeline += Multibulk({"INCR", "n"});
  REQUIRE(c.client.SendAll(pipeline));
  std::string last;
  for (int i = 0; i < 10000; ++i) last = c.Read();
  CHECK(last == ":10000\r\n");
  RespConn tcp(s.server.port());
  CHECK(tcp.Cmd({"GET", "n"}) == "$5\r\n10000\r\n");
  const std::string list = tcp.Cmd({"CLIENT", "LIST"});
  CHECK(list.find("laddr=127.0.0.1:" + std::to_string(s.rdma_port)) != std::string::npos);
  CHECK(InfoField(tcp, "rdma", "rdma_connected_clients") == 1);
  CHECK(InfoField(tcp, "rdma", "rdma_bytes_sent") > (3 << 20));
  CHECK(InfoField(tcp, "rdma", "rdma_buffer_refreshes") >= 3);
}

TEST_CASE("rdma: maxclients counts RDMA connections and refuses the one too many") {
  REQUIRE_MESSAGE(HaveFabric(),
                  "LD_LIBRARY_PATH must start with " PLINTH_FABRIC_DIR " (ctest sets it)");
  RdmaServer s;
  RespConn tcp(s.server.port());
  // Once the start-up probe's close is handled, this connection and one RDMA client fill it.
  for (int i = 0; i < 100 && InfoField(tcp, "clients", "connected_clients") != 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(InfoField(tcp, "clients", "connected_clients") == 1);
  REQUIRE(tcp.Cmd({"CONFIG", "SET", "maxclients", "2"}) == "+OK\r\n");
  RdmaResp first;
  REQUIRE(first.Connect(s.rdma_port));
  CHECK(first.Cmd({"PING"}) == "+PONG\r\n");
  RdmaResp second;
  const bool refused = !second.Connect(s.rdma_port) || second.WaitClosed();
  CHECK(refused);
  CHECK(InfoField(tcp, "stats", "rejected_connections") == 1);
  CHECK(first.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("rdma: an idle connection gets a keepalive every 3 seconds") {
  REQUIRE_MESSAGE(HaveFabric(),
                  "LD_LIBRARY_PATH must start with " PLINTH_FABRIC_DIR " (ctest sets it)");
  RdmaServer s;
  RdmaResp c;
  REQUIRE(c.Connect(s.rdma_port));
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  RespConn tcp(s.server.port());
  const auto start = std::chrono::steady_clock::now();
  while (InfoField(tcp, "rdma", "rdma_keepalives_sent") < 1 &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(15)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(InfoField(tcp, "rdma", "rdma_keepalives_sent") >= 1);
  CHECK(waited >= std::chrono::milliseconds(2500));  // not long before 3 s of silence
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");             // the keepalive did not disturb the stream
}

TEST_CASE("rdma: each fault closes only its own connection") {
  REQUIRE_MESSAGE(HaveFabric(),
                  "LD_LIBRARY_PATH must start with " PLINTH_FABRIC_DIR " (ctest sets it)");
  RdmaServer s;
  RespConn tcp(s.server.port());
  RdmaResp bystander;
  REQUIRE(bystander.Connect(s.rdma_port));
  CHECK(bystander.Cmd({"SET", "kept", "yes"}) == "+OK\r\n");

  SUBCASE("a control message of 40 bytes") {
    const long long errors = InfoField(tcp, "rdma", "rdma_connection_errors");
    RdmaResp bad;
    REQUIRE(bad.Connect(s.rdma_port));
    REQUIRE(bad.client.SendRaw(std::string(40, '\0')));
    CHECK(bad.WaitClosed());
    CheckStillServing(s, errors);
  }
  SUBCASE("an unknown opcode") {
    const long long errors = InfoField(tcp, "rdma", "rdma_connection_errors");
    RdmaResp bad;
    REQUIRE(bad.Connect(s.rdma_port));
    std::string msg(plinth::rdma::kCtlSize, '\0');
    msg[1] = 9;
    REQUIRE(bad.client.SendRaw(msg));
    CHECK(bad.WaitClosed());
    CheckStillServing(s, errors);
  }
  SUBCASE("a bad rkey: the server's reply write fails with a remote access error") {
    const long long errors = InfoField(tcp, "rdma", "rdma_connection_errors");
    RdmaResp bad;
    ClientOptions options;
    options.fault = Fault::kBadRkey;
    REQUIRE(bad.Connect(s.rdma_port, options));
    REQUIRE(bad.client.SendAll(Multibulk({"PING"})));
    CHECK(bad.WaitClosed());
    CheckStillServing(s, errors);
  }
  SUBCASE("a receive-queue overrun: the server's replies find no receive posted (RNR)") {
    const long long errors = InfoField(tcp, "rdma", "rdma_connection_errors");
    RdmaResp bad;
    ClientOptions options;
    options.rnr_retry = 0;            // the server's queue pair gives up at once
    options.repost_receives = false;  // the client's 1024 receive slots run out
    REQUIRE(bad.Connect(s.rdma_port, options));
    int answered = 0;
    for (int i = 0; i < 2000; ++i) {
      if (!bad.client.SendAll(Multibulk({"PING"}), 2000) || bad.Read(2000) != "+PONG\r\n") break;
      ++answered;
    }
    CHECK(answered > 900);   // the slots served until they ran out
    CHECK(answered < 1024);  // then the server's write hit RNR
    CHECK(bad.WaitClosed());
    CheckStillServing(s, errors);
  }
  SUBCASE("a peer that dies in the middle of a large request") {
    const pid_t child = fork();
    if (child == 0) {
      execl(PLINTH_DYING_CLIENT, PLINTH_DYING_CLIENT, std::to_string(s.rdma_port).c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status));
    for (int i = 0; i < 100 && InfoField(tcp, "rdma", "rdma_connected_clients") > 1; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(InfoField(tcp, "rdma", "rdma_connected_clients") == 1);  // the bystander
    CHECK(tcp.Cmd({"EXISTS", "half"}) == ":0\r\n");
  }
  CHECK(bystander.Cmd({"GET", "kept"}) == "$3\r\nyes\r\n");
  CHECK(tcp.Cmd({"PING"}) == "+PONG\r\n");
}
