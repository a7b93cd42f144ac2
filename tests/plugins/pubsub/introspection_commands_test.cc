// PUBSUB CHANNELS, NUMSUB, NUMPAT, SHARDCHANNELS, SHARDNUMSUB and HELP in the fake host, with
// Redis 7.0's error texts.
#include <algorithm>

#include "pubsub_fixture.h"

namespace plinth::pubsub::test {
namespace {

Lines SortedElements(const fakehost::Reply& r) {
  Lines out;
  for (const fakehost::Reply& e : r.elements) out.push_back(e.str);
  std::sort(out.begin(), out.end());
  return out;
}

struct Populated : Fixture {
  Populated() {
    a = host.AddClient();
    b = host.AddClient();
    RunAs(a, {"SUBSCRIBE", "news", "news.eu", "weather"});
    RunAs(b, {"SUBSCRIBE", "news"});
    RunAs(a, {"PSUBSCRIBE", "n*", "w*"});
    RunAs(b, {"PSUBSCRIBE", "n*"});
    RunAs(b, {"SSUBSCRIBE", "shard1", "shard2"});
  }
  uint64_t a = 0, b = 0;
};

TEST_CASE("pubsub channels: active channels optionally filtered by a pattern") {
  Populated f;
  CHECK(SortedElements(f.host.Call({"PUBSUB", "CHANNELS"})) == Lines{"news", "news.eu", "weather"});
  CHECK(SortedElements(f.host.Call({"pubsub", "channels", "news*"})) == Lines{"news", "news.eu"});
  CHECK(f.Run({"PUBSUB", "CHANNELS", "x*"}) == "*");
}

TEST_CASE("pubsub channels: more than one pattern is Redis's subcommand error") {
  Fixture f;
  CHECK(f.Run({"PUBSUB", "ChanNels", "a", "b"}) ==
        "ERR unknown subcommand or wrong number of arguments for 'ChanNels'. Try PUBSUB HELP.");
  CHECK(f.Run({"PUBSUB", "SHARDCHANNELS", "a", "b"}) ==
        "ERR unknown subcommand or wrong number of arguments for 'SHARDCHANNELS'. Try PUBSUB "
        "HELP.");
}

TEST_CASE("pubsub numsub: channel subscriber counts without pattern subscribers") {
  Populated f;
  CHECK(f.Run({"PUBSUB", "NUMSUB", "news", "weather", "none", "shard1"}) ==
        "* news 2 weather 1 none 0 shard1 0");
  CHECK(f.Run({"PUBSUB", "NUMSUB"}) == "*");
  f.host.SetProtocol(3);
  CHECK(f.host.Call({"PUBSUB", "NUMSUB", "news"}).type == fakehost::ReplyType::kArray);
}

TEST_CASE("pubsub numpat: distinct patterns") {
  Populated f;
  CHECK(f.Run({"PUBSUB", "NUMPAT"}) == "2");
  f.RunAs(f.a, {"PUNSUBSCRIBE", "n*"});
  CHECK(f.Run({"PUBSUB", "NUMPAT"}) == "2");
  f.RunAs(f.b, {"PUNSUBSCRIBE"});
  CHECK(f.Run({"PUBSUB", "NUMPAT"}) == "1");
  CHECK(f.Run({"PUBSUB", "NUMPAT", "x"}) ==
        "ERR wrong number of arguments for 'pubsub|numpat' command");
}

TEST_CASE("pubsub shardchannels and shardnumsub: only shard channels") {
  Populated f;
  CHECK(SortedElements(f.host.Call({"PUBSUB", "SHARDCHANNELS"})) == Lines{"shard1", "shard2"});
  CHECK(SortedElements(f.host.Call({"PUBSUB", "SHARDCHANNELS", "*1"})) == Lines{"shard1"});
  CHECK(f.Run({"PUBSUB", "SHARDNUMSUB", "shard1", "news"}) == "* shard1 1 news 0");
}

TEST_CASE("pubsub help: Redis's help text") {
  Fixture f;
  fakehost::Reply r = f.host.Call({"PUBSUB", "HELP"});
  REQUIRE(r.elements.size() == 14);
  CHECK(r.elements[0].str == "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  CHECK(r.elements[0].type == fakehost::ReplyType::kSimple);
  CHECK(r.elements[13].str == "    Prints this help.");
  CHECK(f.Run({"PUBSUB", "HELP", "x"}) ==
        "ERR wrong number of arguments for 'pubsub|help' command");
}

TEST_CASE("pubsub: unknown subcommands and a missing one") {
  Fixture f;
  CHECK(f.Run({"PUBSUB", "foo"}) == "ERR unknown subcommand 'foo'. Try PUBSUB HELP.");
  CHECK(f.Run({"PUBSUB"}) == "ERR wrong number of arguments for 'pubsub' command");
}

}  // namespace
}  // namespace plinth::pubsub::test
