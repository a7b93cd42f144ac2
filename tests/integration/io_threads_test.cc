// IO threads as a user sees them: the option and its runtime changes, INFO io_threads and
// CLIENT LIST, per-connection order across threads, and clients that are killed or vanish
// while an IO thread is reading or writing for them. docs/io-threads.md.
#include <doctest/doctest.h>

#include <atomic>
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

// A server whose io-threads IO threads are always active (not only under load).
std::vector<std::string> AllActive(int io_threads) {
  return {"--io-threads", std::to_string(io_threads), "--io-threads-adaptive", "no"};
}

std::string Bulk(const std::string& v) {
  return "$" + std::to_string(v.size()) + "\r\n" + v + "\r\n";
}

// Waits until connected_clients is want (closes finish asynchronously).
bool ConnectedBecomes(RespConn& c, long long want) {
  for (int i = 0; i < 300; ++i) {
    if (InfoField(c, "clients", "connected_clients") == want) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("io threads: INFO io_threads and CLIENT LIST show the threads serving clients") {
  TestServer s(AllActive(3));
  std::vector<std::unique_ptr<RespConn>> conns;
  for (int i = 0; i < 4; ++i) {
    conns.push_back(std::make_unique<RespConn>(s.port()));
    for (int j = 0; j < 10; ++j) CHECK(conns.back()->Cmd({"PING"}) == "+PONG\r\n");
  }
  RespConn& c = *conns.front();
  CHECK(InfoField(c, "io_threads", "io_threads") == 3);
  CHECK(InfoField(c, "io_threads", "io_threads_active") == 2);
  std::string info = c.Cmd({"INFO", "io_threads"});
  CHECK(info.find("io_thread_1:reads=") != std::string::npos);
  CHECK(info.find("io_thread_2:reads=") != std::string::npos);
  CHECK(info.find("io_thread_3:") == std::string::npos);
  CHECK(info.find("io_poll_blocked:") != std::string::npos);
  CHECK(info.find("io_wake_syscalls:") != std::string::npos);
  CHECK(info.find("io_thread_1:reads=0,") == std::string::npos);  // the threads did the reads
  CHECK(info.find("io_thread_2:reads=0,") == std::string::npos);
  std::string list = c.Cmd({"CLIENT", "LIST"});
  CHECK(list.find("io-thread=1") != std::string::npos);
  CHECK(list.find("io-thread=2") != std::string::npos);
  // Not in the default INFO, like the other detail sections.
  CHECK(c.Cmd({"INFO"}).find("io_threads_active") == std::string::npos);
}

TEST_CASE("io threads: a lightly loaded server does its IO inline") {
  TestServer s({"--io-threads", "4", "--io-threads-adaptive", "yes"});  // threads start parked
  RespConn c(s.port());
  for (int j = 0; j < 100; ++j) CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a few policy periods
  CHECK(InfoField(c, "io_threads", "io_threads") == 4);
  CHECK(InfoField(c, "io_threads", "io_threads_active") == 0);
  std::string info = c.Cmd({"INFO", "io_threads"});
  CHECK(info.find("io_thread_3:reads=0,writes=0,") != std::string::npos);
  CHECK(c.Cmd({"CLIENT", "LIST"}).find("io-thread=0") != std::string::npos);
}

TEST_CASE("io threads: CONFIG SET io-threads changes the threads at runtime") {
  TestServer s(AllActive(2));
  RespConn c(s.port());
  CHECK(c.Cmd({"CONFIG", "SET", "io-threads", "4"}) == "+OK\r\n");
  CHECK(c.Cmd({"CONFIG", "GET", "io-threads"}) == "*2\r\n$10\r\nio-threads\r\n$1\r\n4\r\n");
  CHECK(InfoField(c, "io_threads", "io_threads_active") == 3);
  for (int j = 0; j < 50; ++j) CHECK(c.Cmd({"INCR", "n"}) == ":" + std::to_string(j + 1) + "\r\n");
  CHECK(c.Cmd({"CONFIG", "SET", "io-threads", "1"}) == "+OK\r\n");
  CHECK(InfoField(c, "io_threads", "io_threads_active") == 0);
  CHECK(c.Cmd({"INCR", "n"}) == ":51\r\n");
  CHECK(c.Cmd({"CONFIG", "SET", "io-threads", "3"}) == "+OK\r\n");
  CHECK(c.Cmd({"INCR", "n"}) == ":52\r\n");
  for (const char* bad : {"0", "129", "many"})
    CHECK(c.Cmd({"CONFIG", "SET", "io-threads", bad}).rfind("-ERR", 0) == 0);
  CHECK(c.Cmd({"CONFIG", "SET", "io-threads-adaptive", "yes"}) == "+OK\r\n");
  CHECK(c.Cmd({"PING"}) == "+PONG\r\n");
}

TEST_CASE("io threads: pipelines keep each connection's order across threads") {
  TestServer s(AllActive(4));
  constexpr int kConns = 6, kDepth = 3000;
  std::atomic<int> wrong{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < kConns; ++w) {
    workers.emplace_back([&, w] {
      RespConn c(s.port());
      const std::string key = "order:" + std::to_string(w);
      std::string batch;
      for (int i = 0; i < kDepth; ++i) {
        batch += Multibulk({"INCR", key});
        batch += Multibulk({"ECHO", std::to_string(i)});
      }
      c.Send(batch);
      for (int i = 0; i < kDepth; ++i) {
        if (c.Read() != ":" + std::to_string(i + 1) + "\r\n") ++wrong;
        if (c.Read() != Bulk(std::to_string(i))) ++wrong;
      }
    });
  }
  for (auto& t : workers) t.join();
  CHECK(wrong.load() == 0);
}

TEST_CASE("io threads: 1 MiB values behave the same at every thread count") {
  const std::string big(1 << 20, 'm');
  for (int io : {1, 2, 4}) {
    CAPTURE(io);
    TestServer s(AllActive(io));
    RespConn c(s.port());
    CHECK(c.Cmd({"SET", "big", big}) == "+OK\r\n");
    std::string gets;
    for (int i = 0; i < 8; ++i) gets += Multibulk({"GET", "big"});
    c.Send(gets);
    for (int i = 0; i < 8; ++i) CHECK(c.Read() == Bulk(big));
    CHECK(c.Cmd({"APPEND", "big", "!"}) == ":1048577\r\n");
    CHECK(c.Cmd({"STRLEN", "big"}) == ":1048577\r\n");
  }
}

// A reader that keeps up gets a long reply in write turns: between two turns the server serves
// the other clients, so a PING sent as the long reply starts is answered long before it ends.
TEST_CASE("io threads: a client reading 64 MiB of replies does not hold up another's PING") {
  const std::string big(8 << 20, 'r');
  for (int io : {1, 3}) {
    CAPTURE(io);
    TestServer s(AllActive(io));
    RespConn reader(s.port()), pinger(s.port());
    REQUIRE(reader.Cmd({"SET", "big", big}) == "+OK\r\n");
    std::string gets;
    for (int i = 0; i < 8; ++i) gets += Multibulk({"GET", "big"});
    reader.Send(gets);
    std::atomic<size_t> received{0};
    std::atomic<bool> reader_ok{true};
    std::thread t([&] {
      for (int i = 0; i < 8; ++i) {
        const std::string r = reader.Read(20000);
        if (r != Bulk(big)) reader_ok = false;
        received += r.size();
      }
    });
    while (received.load() == 0 && reader_ok)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    CHECK(pinger.Cmd({"PING"}) == "+PONG\r\n");
    const size_t when_answered = received.load();
    t.join();
    CHECK(reader_ok);
    CHECK(when_answered < 4 * big.size());  // answered in the first half of the 64 MiB
  }
}

// With IO threads the bytes of a string reply are copied by the thread that writes them, after
// the rest of the pipeline ran: each reply must still carry the value its command read.
TEST_CASE("io threads: a reply keeps the value its command read while later commands change it") {
  const std::string a(200, 'a');
  for (int io : {1, 2, 4}) {
    CAPTURE(io);
    TestServer s(AllActive(io));
    RespConn c(s.port());
    CHECK(c.Cmd({"SET", "k", a}) == "+OK\r\n");
    c.Send(Multibulk({"GET", "k"}) + Multibulk({"SETRANGE", "k", "0", "bbbb"}) +
           Multibulk({"GET", "k"}) + Multibulk({"APPEND", "k", "c"}) + Multibulk({"GET", "k"}) +
           Multibulk({"SET", "k", std::string(100, 'd')}) + Multibulk({"GET", "k"}) +
           Multibulk({"SET", "k", std::string(100, 'e')}) + Multibulk({"GET", "k"}) +
           Multibulk({"INCR", "n"}) + Multibulk({"GET", "n"}) + Multibulk({"INCRBY", "n", "8"}) +
           Multibulk({"DEL", "k"}) + Multibulk({"GET", "k"}));
    CHECK(c.Read() == Bulk(a));
    CHECK(c.Read() == ":200\r\n");
    CHECK(c.Read() == Bulk("bbbb" + a.substr(4)));
    CHECK(c.Read() == ":201\r\n");
    CHECK(c.Read() == Bulk("bbbb" + a.substr(4) + "c"));
    CHECK(c.Read() == "+OK\r\n");
    // The same size: SET writes in place unless the reply before still holds the value.
    CHECK(c.Read() == Bulk(std::string(100, 'd')));
    CHECK(c.Read() == "+OK\r\n");
    CHECK(c.Read() == Bulk(std::string(100, 'e')));
    CHECK(c.Read() == ":1\r\n");
    CHECK(c.Read() == Bulk("1"));
    CHECK(c.Read() == ":9\r\n");  // its digits rewritten in place
    CHECK(c.Read() == ":1\r\n");
    CHECK(c.Read() == "$-1\r\n");
  }
}

// A reply waiting to be written holds its value; a client that goes away before reading it
// must let the value go, and nothing may free it earlier.
TEST_CASE("io threads: values held by unwritten replies are freed when their client goes") {
  TestServer s(AllActive(3));
  RespConn keep(s.port());
  CHECK(keep.Cmd({"SET", "v", std::string(64 << 10, 'h')}) == "+OK\r\n");
  const long long alive = s.ValuesAlive();
  for (int round = 0; round < 5; ++round) {
    RespConn c(s.port());
    std::string gets;
    // 10 MiB of replies: more than the socket takes, and more segments than one writev covers
    for (int i = 0; i < 160; ++i) gets += Multibulk({"GET", "v"});
    c.Send(gets);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // executed, not yet written
    c.ResetOnClose();
  }
  CHECK(ConnectedBecomes(keep, 1));
  CHECK(s.ValuesAliveBecomes(alive) == alive);
  CHECK(keep.Cmd({"STRLEN", "v"}) == ":65536\r\n");
  CHECK(keep.Cmd({"DEL", "v"}) == ":1\r\n");
  CHECK(s.ValuesAliveBecomes(alive - 1) == alive - 1);
}

TEST_CASE("io threads: clients that vanish mid-request and mid-reply leave the server healthy") {
  TestServer s(AllActive(3));
  RespConn keep(s.port());
  CHECK(keep.Cmd({"SET", "big", std::string(1 << 20, 'v')}) == "+OK\r\n");
  for (int round = 0; round < 30; ++round) {
    RespConn c(s.port());
    if (round % 3 == 0) {
      c.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100\r\nonly-part");  // mid-request
    } else {
      std::string gets;
      for (int i = 0; i < 6; ++i) gets += Multibulk({"GET", "big"});
      c.Send(gets);  // mid-reply: closes without reading
    }
    if (round % 2) {
      c.ResetOnClose();  // RST instead of FIN
    }
  }
  CHECK(keep.Cmd({"PING"}) == "+PONG\r\n");
  CHECK(ConnectedBecomes(keep, 1));
  CHECK(keep.Cmd({"EXISTS", "k"}) == ":0\r\n");
  CHECK(s.Stop() == 0);
}

TEST_CASE("io threads: CLIENT KILL of clients whose IO is in flight") {
  TestServer s(AllActive(3));
  RespConn admin(s.port());
  CHECK(admin.Cmd({"SET", "v", std::string(64 << 10, 'k')}) == "+OK\r\n");
  std::atomic<bool> stop{false};
  std::vector<std::thread> floods;
  for (int w = 0; w < 4; ++w) {
    floods.emplace_back([&] {
      while (!stop) {  // reconnects after each kill
        RespConn c(s.port());
        std::string gets;
        for (int i = 0; i < 32; ++i) gets += Multibulk({"GET", "v"});
        for (int rounds = 0; rounds < 50 && !stop; ++rounds) {
          c.Send(gets);
          if (c.Read(2000).empty()) break;  // killed
        }
      }
    });
  }
  const std::string self = admin.Cmd({"CLIENT", "ID"}).substr(1);  // ":<id>\r\n"
  long long killed = 0;
  for (int i = 0; i < 40; ++i) {
    std::string list = admin.Cmd({"CLIENT", "LIST"});
    for (size_t at = list.find("id="); at != std::string::npos; at = list.find("\nid=", at + 1)) {
      const size_t id_at = list.find("id=", at) + 3;
      const std::string id = list.substr(id_at, list.find(' ', id_at) - id_at);
      if (id + "\r\n" == self) continue;
      if (admin.Cmd({"CLIENT", "KILL", "ID", id}) == ":1\r\n") ++killed;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  for (auto& t : floods) t.join();
  CHECK(killed > 0);
  CHECK(admin.Cmd({"STRLEN", "v"}) == ":65536\r\n");
  CHECK(ConnectedBecomes(admin, 1));
  CHECK(s.Stop() == 0);
}
