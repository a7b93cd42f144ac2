// The link against a real Redis 7 primary (Debian's /usr/bin/redis-server) on loopback: full
// sync in both payload forms, a valid RDB, the stream's commands and offsets matching the
// primary's master_repl_offset, a partial resync that continues, and acks the primary records.
// Skips with a message when redis-server is not installed.
#include <doctest/doctest.h>
#include <strings.h>

#include <chrono>
#include <functional>
#include <memory>

#include "link_test_support.h"
#include "replication/link/link.h"

using namespace plinth::replication;
using namespace plinth::replication::test;

namespace {

struct Replica {
  FakeLoop loop;
  Recorder rec;
  std::unique_ptr<Link> link;

  void Start(const RedisServer& primary, const std::string& replid, int64_t offset) {
    LinkConfig c;
    c.host = "localhost";  // resolved with getaddrinfo (IPv4)
    c.port = primary.port();
    c.listening_port = 16380;
    c.rdb_path = primary.dir() + "/replica.rdb";
    c.timeout_ms = 5000;
    c.replid = replid;
    c.offset = offset;
    link = std::make_unique<Link>(loop.self(), c, rec.Events());
  }
  // Runs the loop until done(), acking what arrived every 200 ms as the plugin does each
  // second: a Redis 7 primary starts a diskless sync's stream on the first ack it gets after
  // it saw the transfer end, and the link's own ack may come before that.
  bool Pump(const std::function<bool()>& done) {
    auto next_ack = std::chrono::steady_clock::now();
    return loop.RunUntil([&] {
      if (link && !rec.replid.empty() && std::chrono::steady_clock::now() >= next_ack) {
        link->Ack(rec.commands.empty() ? rec.offset : rec.commands.back().end_offset);
        next_ack += std::chrono::milliseconds(200);
      }
      return done();
    });
  }
  // Waits until the stream reached the primary's master_repl_offset.
  bool CatchUp(RedisServer& primary) {
    const uint64_t target = std::stoull(primary.Info("master_repl_offset"));
    const bool reached =
        Pump([&] { return !rec.commands.empty() && rec.commands.back().end_offset >= target; });
    INFO("target ", target, ", commands ", rec.commands.size(),
         ", down: ", rec.downs.empty() ? "no" : rec.downs[0]);
    CHECK(reached);
    return reached && rec.commands.back().end_offset == target;
  }
};

// Each command's end_offset is the previous one plus its own encoded size, from start.
void CheckOffsets(const std::vector<StreamCommand>& commands, uint64_t start) {
  uint64_t at = start;
  for (const StreamCommand& c : commands) {
    at += EncodedSize(c.argv);
    REQUIRE(c.end_offset == at);
  }
}

bool HasSet(const std::vector<StreamCommand>& commands, const std::string& key) {
  for (const StreamCommand& c : commands) {
    if (c.argv.size() == 3 && strcasecmp(c.argv[0].c_str(), "set") == 0 && c.argv[1] == key)
      return true;
  }
  return false;
}

void FullSyncThenPartial(bool diskless) {
  if (!RedisServer::Available()) {
    MESSAGE("skipped: ", RedisServer::kBinary, " is not installed");
    return;
  }
  RedisServer primary(
      {"--repl-diskless-sync", diskless ? "yes" : "no", "--repl-diskless-sync-delay", "0"});
  REQUIRE(primary.ok());
  for (int i = 0; i < 20; ++i) primary.Call({"SET", "k" + std::to_string(i), "v"});

  Replica first;
  first.Start(primary, "?", -1);
  REQUIRE(first.loop.RunUntil([&] { return !first.rec.replid.empty(); }));
  CHECK(first.rec.log == std::vector<std::string>{"syncing", "full_sync"});
  CHECK(first.rec.replid == primary.Info("master_replid"));
  CHECK(ReadFile(primary.dir() + "/replica.rdb").compare(0, 7, "REDIS00") == 0);
  REQUIRE(!first.rec.progress.empty());
  CHECK(first.rec.progress.back().second ==
        (diskless ? -1 : int64_t(first.rec.progress.back().first)));

  for (int i = 0; i < 50; ++i) primary.Call({"SET", "w" + std::to_string(i), std::to_string(i)});
  REQUIRE(first.CatchUp(primary));
  CheckOffsets(first.rec.commands, first.rec.offset);
  CHECK(HasSet(first.rec.commands, "w0"));
  CHECK(HasSet(first.rec.commands, "w49"));

  // The primary records the offset an ack carries.
  const uint64_t acked = first.rec.commands.back().end_offset;
  first.link->Ack(acked);
  const std::string want = "offset=" + std::to_string(acked);
  REQUIRE(
      first.loop.RunUntil([&] { return primary.Info("slave0").find(want) != std::string::npos; }));
  CHECK(primary.Info("slave0").find("port=16380") != std::string::npos);
  first.link.reset();
  CHECK(first.rec.downs.empty());

  // A new link asking for the byte after the last one it has continues the stream.
  Replica second;
  second.Start(primary, first.rec.replid, static_cast<int64_t>(acked) + 1);
  second.rec.offset = acked;  // what Pump acks until commands arrive
  primary.Call({"SET", "after", "1"});
  REQUIRE(second.Pump([&] { return HasSet(second.rec.commands, "after"); }));
  CHECK(second.rec.log[0] == "syncing");
  CHECK(second.rec.log[1] == "partial_sync");
  CHECK(second.rec.replid == first.rec.replid);
  REQUIRE(second.CatchUp(primary));
  CheckOffsets(second.rec.commands, acked);
  CHECK(!HasSet(second.rec.commands, "w49"));  // nothing it already had comes twice
}

}  // namespace

TEST_CASE("link with redis 7: disk-based full sync ($len) then stream and ack and +CONTINUE") {
  FullSyncThenPartial(false);
}

TEST_CASE("link with redis 7: diskless full sync (EOF mark) then stream and ack and +CONTINUE") {
  FullSyncThenPartial(true);
}

TEST_CASE("link with redis 7: a wrong password ends the link with the primary's reason") {
  if (!RedisServer::Available()) {
    MESSAGE("skipped: ", RedisServer::kBinary, " is not installed");
    return;
  }
  RedisServer primary({"--requirepass", "secret"});
  REQUIRE(primary.ok());
  {
    Replica replica;
    LinkConfig c;
    c.host = "127.0.0.1";
    c.port = primary.port();
    c.password = "wrong";
    c.rdb_path = primary.dir() + "/replica.rdb";
    replica.link = std::make_unique<Link>(replica.loop.self(), c, replica.rec.Events());
    REQUIRE(replica.loop.RunUntil([&] { return !replica.rec.downs.empty(); }));
    CHECK(replica.rec.downs[0].find("AUTH") == 0);
  }
}
