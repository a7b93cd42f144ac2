// The fabric's connection management: ids and addresses, rejection, disconnects, a server on
// another thread, and peers in other processes (an echo over WRITE WITH IMM, and a peer that
// gets killed).
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fabric_pair.h"

extern char** environ;

using plinth::rdma_fabric::CreateChannelForTest;
using plinth::rdma_fabric::EndForTest;
using plinth::rdma_fabric::PairForTest;
using plinth::rdma_fabric::StartConnectForTest;
using plinth::rdma_fabric::WaitEventForTest;

namespace {

uint16_t Port(const sockaddr* addr) {
  return ntohs(reinterpret_cast<const sockaddr_in*>(addr)->sin_port);
}

bool IsLoopback(const sockaddr* addr) {
  return addr->sa_family == AF_INET &&
         reinterpret_cast<const sockaddr_in*>(addr)->sin_addr.s_addr == htonl(INADDR_LOOPBACK);
}

// Starts fabric_peer with "mode" and "port"; "stats_dir" (may be empty) becomes its
// RDMA_FABRIC_STATS_DIR. Returns its pid, or -1.
pid_t SpawnPeer(const char* mode, uint16_t port, const std::string& stats_dir) {
  std::string port_arg = std::to_string(port);
  std::string stats_env = "RDMA_FABRIC_STATS_DIR=" + stats_dir;
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "RDMA_FABRIC_STATS_DIR=", 22) != 0) env.push_back(*e);
  }
  if (!stats_dir.empty()) env.push_back(stats_env.data());
  env.push_back(nullptr);
  char* argv[] = {const_cast<char*>(RDMA_FABRIC_PEER), const_cast<char*>(mode), port_arg.data(),
                  nullptr};
  pid_t pid = -1;
  if (posix_spawn(&pid, RDMA_FABRIC_PEER, nullptr, nullptr, argv, env.data()) != 0) return -1;
  return pid;
}

// Accepts the next connection on "pair"'s listener into pair.server.
bool AcceptPeer(PairForTest* pair, int recvs) {
  rdma_cm_id* child = nullptr;
  if (WaitEventForTest(pair->server_channel, &child, nullptr, nullptr, 20000) !=
      RDMA_CM_EVENT_CONNECT_REQUEST)
    return false;
  if (!pair->server->Setup(child)) return false;
  for (int i = 0; i < recvs; ++i) pair->server->PostRecv(i, static_cast<size_t>(i) * 256, 256);
  rdma_conn_param param{};
  param.rnr_retry_count = 7;
  if (rdma_accept(child, &param) != 0) return false;
  return WaitEventForTest(pair->server_channel, nullptr, nullptr, nullptr, 20000) ==
         RDMA_CM_EVENT_ESTABLISHED;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("rdma fabric: a connection fills both ids' verbs, QP and addresses") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  rdma_cm_id* c = pair.client->id;
  rdma_cm_id* s = pair.server->id;
  CHECK(c->verbs != nullptr);
  CHECK(s->verbs != nullptr);
  CHECK(s->channel == pair.server_channel);
  CHECK(s->ps == RDMA_PS_TCP);
  CHECK(IsLoopback(rdma_get_peer_addr(c)));
  CHECK(IsLoopback(rdma_get_local_addr(s)));
  CHECK(Port(rdma_get_peer_addr(c)) == pair.port);
  CHECK(Port(rdma_get_local_addr(s)) == pair.port);
  CHECK(Port(rdma_get_peer_addr(s)) == Port(rdma_get_local_addr(c)));
  CHECK(c->qp->state == IBV_QPS_RTS);
  CHECK(s->qp->state == IBV_QPS_RTS);
}

TEST_CASE("rdma fabric: connecting where nobody listens gives REJECTED") {
  PairForTest pair;
  REQUIRE(pair.Listen());
  uint16_t port = pair.port;
  rdma_destroy_id(pair.listener);  // the port is free again
  pair.listener = nullptr;
  REQUIRE(StartConnectForTest(pair.client_channel, pair.client.get(), port, 7, 1));
  CHECK(WaitEventForTest(pair.client_channel) == RDMA_CM_EVENT_REJECTED);
}

TEST_CASE("rdma fabric: rdma_reject gives REJECTED to the connecting side") {
  PairForTest pair;
  REQUIRE(pair.Listen());
  REQUIRE(StartConnectForTest(pair.client_channel, pair.client.get(), pair.port, 7, 1));
  rdma_cm_id* child = nullptr;
  REQUIRE(WaitEventForTest(pair.server_channel, &child) == RDMA_CM_EVENT_CONNECT_REQUEST);
  CHECK(rdma_reject(child, nullptr, 0) == 0);
  int status = 0;
  CHECK(WaitEventForTest(pair.client_channel, nullptr, &status) == RDMA_CM_EVENT_REJECTED);
  CHECK(status != 0);
  rdma_destroy_id(child);
}

TEST_CASE("rdma fabric: a listener on 0.0.0.0 accepts a connection to 127.0.0.1") {
  PairForTest pair;
  REQUIRE(rdma_create_id(pair.server_channel, &pair.listener, nullptr, RDMA_PS_TCP) == 0);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  REQUIRE(rdma_bind_addr(pair.listener, reinterpret_cast<sockaddr*>(&any)) == 0);
  REQUIRE(rdma_listen(pair.listener, 8) == 0);
  uint16_t port = Port(rdma_get_local_addr(pair.listener));
  REQUIRE(StartConnectForTest(pair.client_channel, pair.client.get(), port, 7, 1));
  rdma_cm_id* child = nullptr;
  REQUIRE(WaitEventForTest(pair.server_channel, &child) == RDMA_CM_EVENT_CONNECT_REQUEST);
  CHECK(IsLoopback(rdma_get_local_addr(child)));
  CHECK(Port(rdma_get_local_addr(child)) == port);
  REQUIRE(rdma_accept(child, nullptr) == 0);
  CHECK(WaitEventForTest(pair.client_channel) == RDMA_CM_EVENT_ESTABLISHED);
  CHECK(WaitEventForTest(pair.server_channel) == RDMA_CM_EVENT_ESTABLISHED);
  rdma_destroy_id(child);
  CHECK(WaitEventForTest(pair.client_channel) == RDMA_CM_EVENT_DISCONNECTED);
}

TEST_CASE("rdma fabric: a second bind to a listening address fails with EADDRINUSE") {
  PairForTest pair;
  REQUIRE(pair.Listen());
  rdma_cm_id* other = nullptr;
  REQUIRE(rdma_create_id(pair.server_channel, &other, nullptr, RDMA_PS_TCP) == 0);
  sockaddr_in sin{};
  sin.sin_family = AF_INET;
  sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  sin.sin_port = htons(pair.port);
  CHECK(rdma_bind_addr(other, reinterpret_cast<sockaddr*>(&sin)) == -1);
  CHECK(errno == EADDRINUSE);
  rdma_destroy_id(other);
}

TEST_CASE("rdma fabric: rdma_disconnect gives DISCONNECTED on both sides and flushes receives") {
  PairForTest pair;
  REQUIRE(pair.Connect(7, 7, 2, 2));
  REQUIRE(rdma_disconnect(pair.client->id) == 0);
  CHECK(WaitEventForTest(pair.client_channel) == RDMA_CM_EVENT_DISCONNECTED);
  CHECK(WaitEventForTest(pair.server_channel) == RDMA_CM_EVENT_DISCONNECTED);
  for (EndForTest* end : {pair.client.get(), pair.server.get()}) {
    ibv_wc wc{};
    for (int i = 0; i < 2; ++i) {
      REQUIRE(end->WaitWc(&wc));
      CHECK(wc.status == IBV_WC_WR_FLUSH_ERR);
    }
  }
  CHECK(rdma_disconnect(pair.server->id) == 0);  // already disconnected: no second event
  CHECK(WaitEventForTest(pair.server_channel, nullptr, nullptr, nullptr, 200) == -1);
}

TEST_CASE("rdma fabric: destroying a connected id disconnects its peer") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  pair.client.reset();
  CHECK(WaitEventForTest(pair.server_channel) == RDMA_CM_EVENT_DISCONNECTED);
}

TEST_CASE("rdma fabric: a server on another thread echoes what a client sends") {
  PairForTest pair;
  REQUIRE(pair.Listen());
  constexpr int kMessages = 200;
  std::atomic<int> echoed{0};
  std::atomic<bool> server_ok{false};
  std::thread server([&] {
    rdma_cm_id* child = nullptr;
    EndForTest end;
    if (WaitEventForTest(pair.server_channel, &child) != RDMA_CM_EVENT_CONNECT_REQUEST) return;
    if (!end.Setup(child)) return;
    for (int i = 0; i < 8; ++i) end.PostRecv(i, static_cast<size_t>(i) * 256, 256);
    if (rdma_accept(child, nullptr) != 0) return;
    if (WaitEventForTest(pair.server_channel) != RDMA_CM_EVENT_ESTABLISHED) return;
    while (echoed < kMessages) {
      ibv_wc wc{};
      if (!end.WaitWc(&wc) || wc.status != IBV_WC_SUCCESS) return;
      if (wc.opcode != IBV_WC_RECV) continue;
      std::memcpy(end.buf + 4096, end.buf + wc.wr_id * 256, wc.byte_len);
      end.PostRecv(wc.wr_id, wc.wr_id * 256, 256);
      if (end.Post(IBV_WR_SEND, 0, 4096, wc.byte_len, 0, 0, 0, 0) != 0) return;
      ++echoed;
    }
    server_ok = WaitEventForTest(pair.server_channel) == RDMA_CM_EVENT_DISCONNECTED;
  });
  REQUIRE(StartConnectForTest(pair.client_channel, pair.client.get(), pair.port, 7, 8));
  REQUIRE(WaitEventForTest(pair.client_channel) == RDMA_CM_EVENT_ESTABLISHED);
  int ok = 0;
  for (int i = 0; i < kMessages; ++i) {
    size_t len = 1 + static_cast<size_t>(i) % 200;
    std::memset(pair.client->buf + 8192, 'a' + i % 26, len);
    REQUIRE(pair.client->Post(IBV_WR_SEND, 0, 8192, len, 0, 0, 0, 0) == 0);
    ibv_wc wc{};
    while (pair.client->WaitWc(&wc) && wc.opcode != IBV_WC_RECV) {
    }
    if (wc.status == IBV_WC_SUCCESS && wc.byte_len == len &&
        pair.client->buf[wc.wr_id * 256] == 'a' + i % 26)
      ++ok;
    pair.client->PostRecv(wc.wr_id, wc.wr_id * 256, 256);
  }
  CHECK(ok == kMessages);
  rdma_disconnect(pair.client->id);
  server.join();
  CHECK(server_ok);
}

TEST_CASE("rdma fabric: a peer process echoes over WRITE_WITH_IMM and counts it in its stats") {
  char dir_template[] = "/tmp/rdma-fabric-test-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  std::string dir = dir_template;
  PairForTest pair;
  REQUIRE(pair.Listen());
  pid_t pid = SpawnPeer("echo", pair.port, dir);
  REQUIRE(pid > 0);
  REQUIRE(AcceptPeer(&pair, 8));
  EndForTest* s = pair.server.get();
  constexpr int kRounds = 50;
  constexpr uint32_t kLen = 200;
  int ok = 0;
  for (int i = 0; i < kRounds; ++i) {
    uint64_t addr = reinterpret_cast<uintptr_t>(s->buf) + 30000;
    uint8_t* msg = s->buf + 16384;
    std::memcpy(msg, &addr, 8);
    std::memcpy(msg + 8, &s->mr->rkey, 4);
    std::memcpy(msg + 12, &kLen, 4);
    for (uint32_t j = 0; j < kLen; ++j) msg[16 + j] = static_cast<uint8_t>(i + j);
    REQUIRE(s->Post(IBV_WR_SEND, 1, 16384, 16 + kLen, 0, 0, 0, 0) == 0);
    ibv_wc wc{};
    REQUIRE(s->WaitWc(&wc));
    if (wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
        wc.imm_data == htonl(kLen) && std::memcmp(s->buf + 30000, msg + 16, kLen) == 0)
      ++ok;
    s->PostRecv(wc.wr_id, wc.wr_id * 256, 256);
  }
  CHECK(ok == kRounds);
  REQUIRE(rdma_disconnect(s->id) == 0);
  int status = -1;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  std::string stats = ReadFile(dir + "/" + std::to_string(pid) + ".json");
  CHECK(stats.find("\"pid\": " + std::to_string(pid)) != std::string::npos);
  CHECK(stats.find("fabric_peer\"") != std::string::npos);
  CHECK(stats.find("\"connections_established\": 1,") != std::string::npos);
  CHECK(stats.find("\"writes_with_imm_posted\": 50,") != std::string::npos);
  CHECK(stats.find("\"bytes_written\": 10000,") != std::string::npos);
  CHECK(stats.find("\"recv_completions\": 50,") != std::string::npos);
  std::remove((dir + "/" + std::to_string(pid) + ".json").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("rdma fabric: a killed peer process gives DISCONNECTED and flushes the survivor") {
  PairForTest pair;
  REQUIRE(pair.Listen());
  pid_t pid = SpawnPeer("hang", pair.port, "");
  REQUIRE(pid > 0);
  REQUIRE(AcceptPeer(&pair, 4));
  EndForTest* s = pair.server.get();
  ibv_wc wc{};
  REQUIRE(s->WaitWc(&wc, 20000));
  CHECK(wc.opcode == IBV_WC_RECV);
  CHECK(wc.byte_len == 5);
  // The peer posts no receives and retries RNR forever: this send stays outstanding.
  REQUIRE(s->Post(IBV_WR_SEND, 42, 0, 8) == 0);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WaitEventForTest(pair.server_channel) == RDMA_CM_EVENT_DISCONNECTED);
  int flushed = 0;
  bool send_flushed = false;
  while (s->WaitWc(&wc, 500)) {
    if (wc.status == IBV_WC_WR_FLUSH_ERR) ++flushed;
    if (wc.wr_id == 42 && wc.status == IBV_WC_WR_FLUSH_ERR) send_flushed = true;
  }
  CHECK(flushed == 4);  // 3 receives and the send
  CHECK(send_flushed);
  CHECK(s->id->qp->state == IBV_QPS_ERR);
}

TEST_CASE("rdma fabric: rdma_getaddrinfo resolves numeric hosts for both roles") {
  rdma_addrinfo hints{};
  hints.ai_port_space = RDMA_PS_TCP;
  rdma_addrinfo* ai = nullptr;
  REQUIRE(rdma_getaddrinfo("127.0.0.1", "6390", &hints, &ai) == 0);
  REQUIRE(ai->ai_dst_addr != nullptr);
  CHECK(ai->ai_src_addr == nullptr);
  CHECK(Port(ai->ai_dst_addr) == 6390);
  CHECK(ai->ai_port_space == RDMA_PS_TCP);
  rdma_freeaddrinfo(ai);
  hints.ai_flags = RAI_PASSIVE;
  REQUIRE(rdma_getaddrinfo("::1", "6390", &hints, &ai) == 0);
  REQUIRE(ai->ai_src_addr != nullptr);
  CHECK(ai->ai_src_addr->sa_family == AF_INET6);
  rdma_freeaddrinfo(ai);
}
