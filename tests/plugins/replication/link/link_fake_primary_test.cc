// The link against scripted fake primaries: the handshake it sends, both payload forms, offsets,
// acks, and every way a primary can fail it (garbage, truncation, silence, refusal) ending in
// exactly one down() with a reason, quickly and without a crash.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include "link_test_support.h"
#include "replication/link/link.h"

using namespace plinth::replication;
using namespace plinth::replication::test;

namespace {

const std::string kId(40, 'a');
const std::string kPingCmd = "*1\r\n$4\r\nPING\r\n";

struct Harness {
  FakeLoop loop;
  Recorder rec;
  std::string dir = MakeTempDir();
  std::unique_ptr<Link> link;

  ~Harness() {
    link.reset();
    std::system(("rm -rf '" + dir + "'").c_str());
  }
  LinkConfig Config(int port, int timeout_ms = 2000) {
    LinkConfig c;
    c.host = "127.0.0.1";
    c.port = port;
    c.listening_port = 6380;
    c.rdb_path = dir + "/dump.rdb";
    c.timeout_ms = timeout_ms;
    return c;
  }
  void Start(LinkConfig c) { link = std::make_unique<Link>(loop.self(), c, rec.Events()); }
  bool WaitDown(int ms = 3000) {
    return loop.RunUntil([&] { return !rec.downs.empty(); }, ms);
  }
  // Gives late events a chance to show, then checks down() came exactly once.
  void ExpectOneDown(const std::string& part) {
    REQUIRE(WaitDown());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    loop.RunPending();
    REQUIRE(rec.downs.size() == 1);
    CHECK_MESSAGE(rec.downs[0].find(part) != std::string::npos, rec.downs[0]);
    CHECK(rec.log.back() == "down");
  }
};

}  // namespace

TEST_CASE("link: sends the Redis handshake and takes a sized payload then the stream") {
  FakePrimary primary(
      [](FakePrimary& p, const std::vector<std::string>&) {
        p.Send("\n\n+FULLRESYNC " + kId + " 100\r\n\n\n$9\r\nREDIS0011" + kPingCmd);
        p.Send("*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n");
      },
      true, true);
  Harness h;
  LinkConfig c = h.Config(primary.port());
  c.user = "u";
  c.password = "pw";
  h.Start(c);
  REQUIRE(h.loop.RunUntil([&] { return h.rec.commands.size() >= 2; }));
  CHECK(h.rec.log == std::vector<std::string>{"syncing", "full_sync", "commands"});
  CHECK(h.rec.replid == kId);
  CHECK(h.rec.offset == 100);
  CHECK(ReadFile(c.rdb_path) == "REDIS0011");
  CHECK_FALSE(FileExists(c.rdb_path + ".tmp"));
  REQUIRE(!h.rec.progress.empty());
  CHECK(h.rec.progress.back() == std::make_pair(uint64_t{9}, int64_t{9}));
  CHECK(h.rec.commands[0].argv == std::vector<std::string>{"PING"});
  CHECK(h.rec.commands[0].end_offset == 100 + kPingCmd.size());
  CHECK(h.rec.commands[1].end_offset == 100 + kPingCmd.size() + EncodedSize({"ECHO", "hi"}));
  const auto got = primary.Received();
  REQUIRE(got.size() == 5);
  CHECK(got[0] == std::vector<std::string>{"PING"});
  CHECK(got[1] == std::vector<std::string>{"AUTH", "u", "pw"});
  CHECK(got[2] == std::vector<std::string>{"REPLCONF", "listening-port", "6380"});
  CHECK(got[3] == std::vector<std::string>{"REPLCONF", "capa", "eof", "capa", "psync2"});
  CHECK(got[4] == std::vector<std::string>{"PSYNC", "?", "-1"});
  h.link.reset();
  CHECK(h.rec.downs.empty());
}

TEST_CASE("link: an EOF-mark payload split across reads and then the first ack opens the stream") {
  const std::string mark(40, 'm');
  std::vector<std::string> first_ack, later_ack;
  std::mutex mu;
  FakePrimary primary([&](FakePrimary& p, const std::vector<std::string>&) {
    p.Send("+FULLRESYNC " + kId + " 7\r\n$EOF:" + mark + "\r\nREDIS0011" + mark.substr(0, 25));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    p.Send(mark.substr(25));
    auto ack = p.ReadCommand();  // like Redis 7: nothing streams before the replica's ACK
    p.Send(kPingCmd);
    auto ack2 = p.ReadCommand();
    std::lock_guard<std::mutex> lock(mu);
    first_ack = ack;
    later_ack = ack2;
  });
  Harness h;
  const LinkConfig c = h.Config(primary.port());
  h.Start(c);
  REQUIRE(h.loop.RunUntil([&] { return h.rec.commands.size() == 1; }));
  CHECK(ReadFile(c.rdb_path) == "REDIS0011");
  CHECK(h.rec.progress.back().second == -1);
  CHECK(h.rec.commands[0].end_offset == 7 + kPingCmd.size());
  h.link->Ack(h.rec.commands[0].end_offset);
  REQUIRE(h.loop.RunUntil([&] {
    std::lock_guard<std::mutex> lock(mu);
    return !later_ack.empty();
  }));
  std::lock_guard<std::mutex> lock(mu);
  CHECK(first_ack == std::vector<std::string>{"REPLCONF", "ACK", "7"});
  CHECK(later_ack == std::vector<std::string>{"REPLCONF", "ACK", "21"});
}

TEST_CASE("link: +CONTINUE streams from the offset PSYNC asked for") {
  FakePrimary primary([](FakePrimary& p, const std::vector<std::string>&) {
    p.Send("+CONTINUE " + std::string(40, 'b') + "\r\n" + kPingCmd);
  });
  Harness h;
  LinkConfig c = h.Config(primary.port());
  c.replid = kId;
  c.offset = 501;  // the replica has bytes up to 500
  h.Start(c);
  REQUIRE(h.loop.RunUntil([&] { return h.rec.commands.size() == 1; }));
  CHECK(h.rec.log == std::vector<std::string>{"syncing", "partial_sync", "commands"});
  CHECK(h.rec.replid == std::string(40, 'b'));
  CHECK(h.rec.commands[0].end_offset == 500 + kPingCmd.size());
  CHECK(primary.Received().back() == std::vector<std::string>{"PSYNC", kId, "501"});
}

TEST_CASE("link: a +CONTINUE id that is not 40 letters or digits leaves ours") {
  for (const std::string& bad : {std::string("x y\rz"), std::string(39, 'b'), std::string(41, 'b'),
                                 std::string(39, 'b') + "\r"}) {
    FakePrimary primary([bad](FakePrimary& p, const std::vector<std::string>&) {
      p.Send("+CONTINUE " + bad + "\r\n" + kPingCmd);
    });
    Harness h;
    LinkConfig c = h.Config(primary.port());
    c.replid = kId;
    c.offset = 501;
    h.Start(c);
    REQUIRE(h.loop.RunUntil([&] { return h.rec.commands.size() == 1; }));
    CHECK(h.rec.replid == kId);
  }
}

TEST_CASE("link: a +FULLRESYNC id that is not 40 letters or digits ends the link") {
  for (const std::string& bad : {std::string("a\rb"), std::string(39, 'a') + "\r",
                                 std::string(41, 'a'), std::string(40, '-')}) {
    FakePrimary primary([bad](FakePrimary& p, const std::vector<std::string>&) {
      p.Send("+FULLRESYNC " + bad + " 0\r\n$5\r\nREDIS" + kPingCmd);
    });
    Harness h;
    h.Start(h.Config(primary.port()));
    h.ExpectOneDown("bad reply to PSYNC");
    CHECK(h.rec.log == std::vector<std::string>{"syncing", "down"});
  }
}

TEST_CASE("link: garbage instead of the payload line ends the link") {
  FakePrimary primary([](FakePrimary& p, const std::vector<std::string>&) {
    p.Send("+FULLRESYNC " + kId + " 0\r\nHELLO\r\n");
  });
  Harness h;
  h.Start(h.Config(primary.port()));
  h.ExpectOneDown("protocol error");
  CHECK(h.rec.log == std::vector<std::string>{"syncing", "down"});
}

TEST_CASE("link: garbage in the stream ends the link after the commands before it") {
  FakePrimary primary([](FakePrimary& p, const std::vector<std::string>&) {
    p.Send("+FULLRESYNC " + kId + " 0\r\n$5\r\nREDIS" + kPingCmd + "GARBAGE\r\n");
  });
  Harness h;
  h.Start(h.Config(primary.port()));
  h.ExpectOneDown("protocol error");
  CHECK(h.rec.log == std::vector<std::string>{"syncing", "full_sync", "commands", "down"});
  CHECK(h.rec.commands.size() == 1);
}

TEST_CASE("link: absurd sizes in the stream end the link without allocating them") {
  for (const std::string& bad :
       {std::string("*99999999\r\n"), std::string("*1\r\n$99999999999\r\n")}) {
    FakePrimary primary(
        [bad](FakePrimary& p, const std::vector<std::string>&) { p.Send("+CONTINUE\r\n" + bad); });
    Harness h;
    LinkConfig c = h.Config(primary.port());
    c.replid = kId;
    c.offset = 1;
    h.Start(c);
    h.ExpectOneDown("over");
  }
}

TEST_CASE("link: a payload cut short by a closed connection leaves no snapshot") {
  for (const std::string& head :
       {std::string("$100\r\n0123456789"), "$EOF:" + std::string(40, 'm') + "\r\nREDIS"}) {
    FakePrimary primary([head](FakePrimary& p, const std::vector<std::string>&) {
      p.Send("+FULLRESYNC " + kId + " 0\r\n" + head);
      p.Close();
    });
    Harness h;
    const LinkConfig c = h.Config(primary.port());
    h.Start(c);
    h.ExpectOneDown("closed");
    CHECK(h.rec.log == std::vector<std::string>{"syncing", "down"});
    CHECK_FALSE(FileExists(c.rdb_path));
    CHECK_FALSE(FileExists(c.rdb_path + ".tmp"));
  }
}

TEST_CASE("link: a silent primary times the link out in the handshake and in the stream") {
  {
    FakePrimary primary(nullptr, false);
    Harness h;
    const auto t0 = std::chrono::steady_clock::now();
    h.Start(h.Config(primary.port(), 300));
    h.ExpectOneDown("timeout");
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  }
  {
    FakePrimary primary(
        [](FakePrimary& p, const std::vector<std::string>&) { p.Send("+CONTINUE\r\n"); });
    Harness h;
    LinkConfig c = h.Config(primary.port(), 300);
    c.replid = kId;
    c.offset = 10;
    h.Start(c);
    h.ExpectOneDown("timeout");
    CHECK(h.rec.log == std::vector<std::string>{"syncing", "partial_sync", "down"});
  }
}

TEST_CASE("link: a refused PSYNC and a refused connection each end the link once") {
  {
    FakePrimary primary([](FakePrimary& p, const std::vector<std::string>&) {
      p.Send("-NOMASTERLINK Can't SYNC while not connected with my master\r\n");
    });
    Harness h;
    h.Start(h.Config(primary.port()));
    h.ExpectOneDown("NOMASTERLINK");
  }
  Harness h;
  h.Start(h.Config(FreePort()));
  h.ExpectOneDown("refused");
  CHECK(h.rec.log == std::vector<std::string>{"down"});
}

TEST_CASE("link: events still queued when the link is destroyed never run") {
  FakePrimary primary([](FakePrimary& p, const std::vector<std::string>&) {
    p.Send("+FULLRESYNC " + kId + " 0\r\n$5\r\nREDIS" + kPingCmd);
  });
  Harness h;
  h.Start(h.Config(primary.port()));
  // syncing, progress, full_sync, commands: queued, none run yet.
  for (int i = 0; i < 2500 && h.loop.Queued() < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(h.loop.Queued() >= 4);
  h.link.reset();
  CHECK(h.loop.RunPending() >= 4);
  CHECK(h.rec.log.empty());
}

TEST_CASE("link: a host that refuses posts (shutting down) loses the events and nothing else") {
  Harness h;
  h.loop.set_refuse(true);
  h.Start(h.Config(FreePort()));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  h.link.reset();
  CHECK(h.loop.RunPending() == 0);
  CHECK(h.rec.log.empty());
}
