// The transport contract that RDMA needs, driven through test_notify.so: a transport with no
// pollable descriptor (readiness comes from conn_notify, the host drains reads until AGAIN) that
// keeps the buffers writev gives it until its own thread has sent them (conn_released). Every
// case talks RESP to the transport's port, not the TCP one. Under ASan a buffer the host frees
// or moves too early shows up as a report when the transport's thread sends it, or as
// test_notify_early_frees when close finds a reference to freed memory.
#include <doctest/doctest.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_server.h"

using plinth::testing::FreePort;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

constexpr size_t kMiB = 1024 * 1024;
// A reply_offload.min-size no value reaches: every reply is copied.
constexpr const char* kNever = "1gb";

// A server with test_notify loaded and listening on its own port.
struct NotifyServer {
  explicit NotifyServer(const std::vector<std::string>& extra = {})
      : port(FreePort()), server(Args(port, extra)) {}
  static std::vector<std::string> Args(int port, const std::vector<std::string>& extra) {
    std::vector<std::string> a = {"--plugin", PLINTH_TEST_NOTIFY_PLUGIN, "--test-notify-port",
                                  std::to_string(port)};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
  // A client of the notifying transport. TestServer waits for the TCP port only, so the
  // transport's listener may need a moment more.
  std::unique_ptr<RespConn> Connect() const {
    for (int i = 0; i < 300; ++i) {
      try {
        return std::make_unique<RespConn>(port);
      } catch (const std::runtime_error&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    return std::make_unique<RespConn>(port);
  }
  // Stops the server; true when it exited cleanly (an ASan report exits non-zero).
  bool StopClean() {
    int st = server.Stop();
    if (st != 0) MESSAGE("server exit status ", st, "; its log:\n", server.Log());
    return st == 0;
  }
  int port;
  TestServer server;
};

// A numeric field of INFO section, or -1 when absent.
long long InfoNum(RespConn& c, const std::string& section, const std::string& name) {
  std::string info = c.Cmd({"INFO", section});
  size_t at = info.find("\n" + name + ":");
  if (at == std::string::npos) return -1;
  return std::atoll(info.c_str() + at + name.size() + 2);
}

// Waits up to timeout_ms for INFO's field to satisfy ok; returns its last value.
template <typename Pred>
long long WaitInfo(RespConn& c, const std::string& section, const std::string& name, Pred ok,
                   int timeout_ms = 3000) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  long long v = InfoNum(c, section, name);
  while (!ok(v) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    v = InfoNum(c, section, name);
  }
  return v;
}

std::string Bulk(const std::string& s) {
  return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
}

// size bytes that differ with position and seed (CR and LF among them).
std::string Pattern(size_t size, unsigned seed) {
  std::string s(size, '\0');
  for (size_t i = 0; i < size; ++i) s[i] = static_cast<char>((i * 131 + seed + (i >> 12)) & 0xff);
  return s;
}

// The offset of the first difference between got and want, or npos when equal (a failed
// CHECK then prints two numbers instead of two megabytes).
size_t FirstDiff(const std::string& got, const std::string& want) {
  size_t n = std::min(got.size(), want.size());
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) return i;
  return got.size() == want.size() ? std::string::npos : n;
}

// The CLIENT LIST field name of the client with this id ("" when not listed).
std::string ClientField(RespConn& c, long long id, const std::string& name) {
  std::string list = c.Cmd({"CLIENT", "LIST"});
  size_t line = list.find("id=" + std::to_string(id) + " ");
  if (line == std::string::npos) return "";
  size_t end = list.find('\n', line);
  std::string l = list.substr(line, end == std::string::npos ? std::string::npos : end - line);
  size_t at = l.find(" " + name + "=");
  if (at == std::string::npos) return "";
  at += name.size() + 2;
  return l.substr(at, l.find(' ', at) - at);
}

long long ClientId(RespConn& c) { return std::atoll(c.Cmd({"CLIENT", "ID"}).c_str() + 1); }

}  // namespace

TEST_CASE("transport contract: PING, SET and GET round trips without a pollable descriptor") {
  NotifyServer s;
  auto c = s.Connect();
  CHECK(c->Cmd({"PING"}) == "+PONG\r\n");
  CHECK(c->Cmd({"SET", "k", "hello"}) == "+OK\r\n");
  CHECK(c->Cmd({"GET", "k"}) == "$5\r\nhello\r\n");
  CHECK(c->Cmd({"GET", "missing"}) == "$-1\r\n");
  CHECK(c->Cmd({"INCR", "n"}) == ":1\r\n");
  // The host sees a connection without a descriptor, from loopback.
  long long id = ClientId(*c);
  CHECK(ClientField(*c, id, "fd") == "-1");
  CHECK(ClientField(*c, id, "addr").rfind("127.0.0.1:", 0) == 0);
  CHECK(InfoNum(*c, "test_notify", "test_notify_connections") == 1);
  // With --plinth-io-threads the host reads and writes this connection on an IO thread too.
  if (std::getenv("PLINTH_TEST_IO_THREADS")) CHECK(ClientField(*c, id, "io-thread") != "0");
  // The TCP port still serves the same keyspace.
  RespConn tcp(s.server.port());
  CHECK(tcp.Cmd({"GET", "k"}) == "$5\r\nhello\r\n");
  CHECK(s.StopClean());
}

TEST_CASE("transport contract: a pipeline of 2000 mixed requests keeps order and content") {
  NotifyServer s;
  auto c = s.Connect();
  std::map<std::string, std::string> model;
  std::string batch;
  std::vector<std::string> want;
  for (int i = 0; i < 2000; ++i) {
    std::string key = "k" + std::to_string(i % 37);
    std::string ctr = "n" + std::to_string(i % 11);
    switch (i % 4) {
      case 0: {
        std::string v = "v" + std::to_string(i) + std::string(static_cast<size_t>(i % 97), 'x');
        batch += Multibulk({"SET", key, v});
        model[key] = v;
        want.push_back("+OK\r\n");
        break;
      }
      case 1:
        batch += Multibulk({"GET", key});
        want.push_back(model.count(key) ? Bulk(model[key]) : "$-1\r\n");
        break;
      case 2: {
        batch += Multibulk({"INCR", ctr});
        long long v = std::atoll(model[ctr].c_str()) + 1;
        model[ctr] = std::to_string(v);
        want.push_back(":" + std::to_string(v) + "\r\n");
        break;
      }
      default:
        batch += Multibulk({"GET", ctr});
        want.push_back(model.count(ctr) ? Bulk(model[ctr]) : "$-1\r\n");
        break;
    }
  }
  c->Send(batch);
  int wrong = 0, first_wrong = -1;
  for (size_t i = 0; i < want.size(); ++i) {
    if (c->Read() != want[i]) {
      if (first_wrong < 0) first_wrong = static_cast<int>(i);
      ++wrong;
    }
  }
  CHECK(wrong == 0);
  CHECK(first_wrong == -1);
  CHECK(c->Cmd({"PING"}) == "+PONG\r\n");
  CHECK(s.StopClean());
}

TEST_CASE("transport contract: 1 MiB values read back whole, by reference and copied") {
  // 65536: GET replies point at the value (a reference segment held until released);
  // kNever: they are copied into output buffers, which the host must keep just as long.
  for (const std::string ref_min : {"65536", kNever}) {
    CAPTURE(ref_min);
    // The transport's thread pauses 1 ms between its 64 KiB sends, and this client's receive
    // buffer stays small: the replies below back up in the transport however fast the machine
    // and however large a buffer net.ipv4.tcp_rmem lets the kernel grow (32 MiB on some).
    NotifyServer s({"--reply_offload.min-size", ref_min, "--test-notify-send-pause-us", "1000"});
    auto c = s.Connect();
    const int rcvbuf = 256 * 1024;
    REQUIRE(setsockopt(c->fd(), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf) == 0);
    const std::string v1 = Pattern(kMiB, 1), v2 = Pattern(kMiB, 2);
    REQUIRE(c->Cmd({"SET", "big", v1}) == "+OK\r\n");
    // 20 MiB of replies, more than the socket buffers hold while this client does not read;
    // then, in a second read, a SET that replaces the value while those replies are still
    // queued (they must keep the old bytes) and one more GET, whose writev finds the
    // transport's queue full (AGAIN, then WRITABLE).
    std::string batch;
    for (int i = 0; i < 20; ++i) batch += Multibulk({"GET", "big"});
    c->Send(batch);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    c->Send(Multibulk({"SET", "big", v2}) + Multibulk({"GET", "big"}));
    const std::string want1 = Bulk(v1), want2 = Bulk(v2);
    for (int i = 0; i < 20; ++i) {
      CAPTURE(i);
      std::string r = c->Read(10000);
      REQUIRE(!r.empty());
      CHECK(FirstDiff(r, want1) == std::string::npos);
    }
    CHECK(c->Read() == "+OK\r\n");
    CHECK(FirstDiff(c->Read(10000), want2) == std::string::npos);
    // The transport kept references after writev returned, said AGAIN at its limit, and has
    // released everything it took.
    CHECK(InfoNum(*c, "test_notify", "test_notify_max_unsent") >= 256 * 1024);
    CHECK(InfoNum(*c, "test_notify", "test_notify_writev_again") > 0);
    CHECK(InfoNum(*c, "test_notify", "test_notify_notify_writable") > 0);
    CHECK(InfoNum(*c, "test_notify", "test_notify_releases") > 0);
    CHECK(WaitInfo(*c, "test_notify", "test_notify_unsent_bytes",
                   [](long long v) { return v == 0; }) == 0);
    CHECK(InfoNum(*c, "test_notify", "test_notify_early_frees") == 0);
    CHECK(s.StopClean());
  }
}

TEST_CASE("transport contract: clients that leave mid-reply do not disturb the server") {
  NotifyServer s({"--test-notify-send-pause-us", "1000"});  // 64 KiB a millisecond at most
  auto setup = s.Connect();
  const std::string big = Pattern(kMiB, 3);
  REQUIRE(setup->Cmd({"SET", "big", big}) == "+OK\r\n");
  const long long base = InfoNum(*setup, "clients", "connected_clients");
  std::string gets;
  for (int i = 0; i < 8; ++i) gets += Multibulk({"GET", "big"});
  for (int round = 0; round < 6; ++round) {
    CAPTURE(round);
    auto c = s.Connect();
    long long id = ClientId(*c);
    c->Send(gets);
    if (round % 3 == 0) {  // reads one reply of eight, then leaves
      CHECK(FirstDiff(c->Read(10000), Bulk(big)) == std::string::npos);
    } else if (round % 3 == 1) {  // leaves with RST instead of FIN
      c->ResetOnClose();
    } else {  // killed by another client while its replies are queued
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      CHECK(setup->Cmd({"CLIENT", "KILL", "ID", std::to_string(id)}) == ":1\r\n");
    }
    c.reset();
  }
  CHECK(setup->Cmd({"PING"}) == "+PONG\r\n");
  CHECK(FirstDiff(setup->Cmd({"GET", "big"}), Bulk(big)) == std::string::npos);
  auto second = s.Connect();
  CHECK(second->Cmd({"STRLEN", "big"}) == ":1048576\r\n");
  second.reset();
  CHECK(WaitInfo(*setup, "clients", "connected_clients",
                 [base](long long v) { return v == base; }) == base);
  CHECK(InfoNum(*setup, "test_notify", "test_notify_connections") == 1);
  CHECK(InfoNum(*setup, "test_notify", "test_notify_early_frees") == 0);
  CHECK(s.StopClean());
}

TEST_CASE("transport contract: output memory is released once the client has read it") {
  for (const std::string ref_min : {"65536", kNever}) {
    CAPTURE(ref_min);
    NotifyServer s({"--reply_offload.min-size", ref_min});
    auto c = s.Connect();
    const std::string big = Pattern(kMiB, 4), want = Bulk(big);
    REQUIRE(c->Cmd({"SET", "big", big}) == "+OK\r\n");
    CHECK(FirstDiff(c->Cmd({"GET", "big"}), want) == std::string::npos);  // warm up
    const long long id = ClientId(*c);
    const long long used0 = InfoNum(*c, "memory", "used_memory");
    std::string gets;
    for (int i = 0; i < 10; ++i) gets += Multibulk({"GET", "big"});
    int wrong = 0;
    for (int round = 0; round < 5; ++round) {
      c->Send(gets);
      for (int i = 0; i < 10; ++i)
        if (FirstDiff(c->Read(10000), want) != std::string::npos) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(ClientField(*c, id, "omem") == "0");
    CHECK(WaitInfo(*c, "test_notify", "test_notify_unsent_bytes",
                   [](long long v) { return v == 0; }) == 0);
    CHECK(InfoNum(*c, "test_notify", "test_notify_queued_refs") == 0);
    // Copied replies: the output buffers the transport released must have been freed. ASan
    // builds see it directly (used_memory reads 0 there); tcmalloc builds in used_memory.
    if (ref_min == kNever) {
      long long live = WaitInfo(*c, "test_notify", "test_notify_released_live",
                                [](long long v) { return v <= 0; });
      CHECK(live <= 0);
    }
    // 50 MiB went out; what the host kept for the transport must have gone back.
    const long long slack = 8 * static_cast<long long>(kMiB);
    long long used1 =
        WaitInfo(*c, "memory", "used_memory", [&](long long v) { return v < used0 + slack; });
    CAPTURE(used0);
    CHECK(used1 < used0 + slack);
    CHECK(s.StopClean());
  }
}

TEST_CASE("transport contract: eight clients at once each count to 500") {
  NotifyServer s;
  constexpr int kClients = 8, kIncrs = 500, kChunk = 25;
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&, t] {
      try {
        auto c = s.Connect();
        std::string key = "ctr" + std::to_string(t);
        long long next = 1;
        for (int done = 0; done < kIncrs; done += kChunk) {
          std::string batch;
          for (int i = 0; i < kChunk; ++i) batch += Multibulk({"INCR", key});
          c->Send(batch);
          for (int i = 0; i < kChunk; ++i, ++next)
            if (c->Read() != ":" + std::to_string(next) + "\r\n") ++wrong;
        }
      } catch (const std::exception&) {
        ++failed;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(failed == 0);
  CHECK(wrong == 0);
  auto c = s.Connect();
  for (int t = 0; t < kClients; ++t)
    CHECK(c->Cmd({"GET", "ctr" + std::to_string(t)}) == "$3\r\n500\r\n");
  CHECK(s.StopClean());
}

// With test-notify-partial the transport takes only what fits below its queue limit, so a
// buffer can be taken in part: the host must then neither move it (new replies appended to it)
// nor free it (a close) while the transport holds the part it took.
TEST_CASE("transport contract: a buffer writev took in part is not moved by later replies") {
  NotifyServer s({"--test-notify-partial", "yes", "--reply_offload.min-size", kNever,
                  "--test-notify-send-pause-us", "2000"});
  auto c = s.Connect();
  const std::string big = Pattern(kMiB, 5), want = Bulk(big);
  REQUIRE(c->Cmd({"SET", "big", big}) == "+OK\r\n");
  c->Send(Multibulk({"GET", "big"}));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the reply is being sent
  std::string more = Multibulk({"GET", "big"});
  for (int i = 0; i < 10; ++i) more += Multibulk({"PING"});
  c->Send(more);
  std::string r1 = c->Read(10000), r2 = c->Read(10000);
  CHECK_MESSAGE(FirstDiff(r1, want) == std::string::npos,
                "host bug: a later reply grew (reallocated) the output buffer the transport "
                "had taken in part (ASan: heap-use-after-free in sendmsg; TSan build: "
                "sendmsg errno 14 and the connection dropped)");
  CHECK(FirstDiff(r2, want) == std::string::npos);
  for (int i = 0; i < 10; ++i) CHECK(c->Read() == "+PONG\r\n");
  if (r1.empty() || r2.empty()) MESSAGE("server log:\n", s.server.Log());
  CHECK(InfoNum(*c, "test_notify", "test_notify_partial_takes") > 0);
  CHECK(InfoNum(*c, "test_notify", "test_notify_early_frees") == 0);
  CHECK(s.StopClean());
}

TEST_CASE("transport contract: closing a client frees no buffer writev took in part") {
  NotifyServer s({"--test-notify-partial", "yes", "--reply_offload.min-size", kNever,
                  "--test-notify-send-pause-us", "2000"});
  auto killer = s.Connect();
  const std::string big = Pattern(kMiB, 6);
  REQUIRE(killer->Cmd({"SET", "big", big}) == "+OK\r\n");
  auto victim = s.Connect();
  const long long id = ClientId(*victim);
  std::string gets;
  for (int i = 0; i < 4; ++i) gets += Multibulk({"GET", "big"});
  victim->Send(gets);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));  // replies taken in part
  CHECK(killer->Cmd({"CLIENT", "KILL", "ID", std::to_string(id)}) == ":1\r\n");
  CHECK(victim->WaitClosed());
  CHECK(killer->Cmd({"PING"}) == "+PONG\r\n");
  CHECK(InfoNum(*killer, "test_notify", "test_notify_partial_takes") > 0);
  CHECK_MESSAGE(InfoNum(*killer, "test_notify", "test_notify_early_frees") == 0,
                "host bug: closing the client freed output the transport still held before "
                "calling the transport's close (see 'contract broken' in the server log)");
  CHECK(s.StopClean());
}
