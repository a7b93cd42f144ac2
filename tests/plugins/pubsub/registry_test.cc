// Unit tests of the subscription registry: channel -> subscribers in subscription order,
// client -> its names, the three independent kinds, and cleanup.
#include "pubsub/registry.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace plinth::pubsub {
namespace {

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST_CASE("pubsub registry: subscribers are kept in subscription order") {
  Registry r;
  CHECK(r.Subscribe(Kind::kChannel, 7, "news"));
  CHECK(r.Subscribe(Kind::kChannel, 3, "news"));
  CHECK(r.Subscribe(Kind::kChannel, 5, "news"));
  const Registry::Ids* ids = r.Subscribers(Kind::kChannel, "news");
  REQUIRE(ids != nullptr);
  CHECK(*ids == Registry::Ids{7, 3, 5});
  CHECK(r.Size(Kind::kChannel) == 1);
}

TEST_CASE("pubsub registry: a repeated subscription changes nothing") {
  Registry r;
  CHECK(r.Subscribe(Kind::kChannel, 1, "a"));
  CHECK_FALSE(r.Subscribe(Kind::kChannel, 1, "a"));
  CHECK(r.Count(Kind::kChannel, 1) == 1);
  CHECK(r.Subscribers(Kind::kChannel, "a")->size() == 1);
}

TEST_CASE("pubsub registry: the last unsubscribe removes the channel") {
  Registry r;
  r.Subscribe(Kind::kChannel, 1, "a");
  r.Subscribe(Kind::kChannel, 2, "a");
  CHECK(r.Unsubscribe(Kind::kChannel, 1, "a"));
  CHECK(*r.Subscribers(Kind::kChannel, "a") == Registry::Ids{2});
  CHECK_FALSE(r.Unsubscribe(Kind::kChannel, 1, "a"));
  CHECK(r.Unsubscribe(Kind::kChannel, 2, "a"));
  CHECK(r.Subscribers(Kind::kChannel, "a") == nullptr);
  CHECK(r.Size(Kind::kChannel) == 0);
  CHECK_FALSE(r.Unsubscribe(Kind::kChannel, 2, "missing"));
}

TEST_CASE("pubsub registry: channels patterns and shard channels are separate") {
  Registry r;
  r.Subscribe(Kind::kChannel, 1, "x");
  r.Subscribe(Kind::kPattern, 1, "x");
  r.Subscribe(Kind::kShard, 1, "x");
  CHECK(r.Count(Kind::kChannel, 1) == 1);
  CHECK(r.Count(Kind::kPattern, 1) == 1);
  CHECK(r.Count(Kind::kShard, 1) == 1);
  CHECK(r.Unsubscribe(Kind::kPattern, 1, "x"));
  CHECK(r.Subscribers(Kind::kChannel, "x") != nullptr);
  CHECK(r.Subscribers(Kind::kShard, "x") != nullptr);
  CHECK(r.Subscribers(Kind::kPattern, "x") == nullptr);
}

TEST_CASE("pubsub registry: names lists what a client subscribes to") {
  Registry r;
  r.Subscribe(Kind::kChannel, 1, "b");
  r.Subscribe(Kind::kChannel, 1, "a");
  r.Subscribe(Kind::kChannel, 2, "c");
  CHECK(Sorted(r.Names(Kind::kChannel, 1)) == std::vector<std::string>{"a", "b"});
  CHECK(r.Names(Kind::kPattern, 1).empty());
  CHECK(r.Names(Kind::kChannel, 9).empty());
  CHECK(r.Count(Kind::kChannel, 9) == 0);
}

TEST_CASE("pubsub registry: dropping a client removes it everywhere and keeps the others") {
  Registry r;
  r.Subscribe(Kind::kChannel, 1, "a");
  r.Subscribe(Kind::kChannel, 2, "a");
  r.Subscribe(Kind::kPattern, 1, "a*");
  r.Subscribe(Kind::kShard, 1, "s");
  r.DropClient(1);
  CHECK(*r.Subscribers(Kind::kChannel, "a") == Registry::Ids{2});
  CHECK(r.Size(Kind::kPattern) == 0);
  CHECK(r.Size(Kind::kShard) == 0);
  CHECK(r.Count(Kind::kChannel, 1) == 0);
  r.DropClient(1);  // twice is harmless
  r.DropClient(42);
  CHECK(r.Size(Kind::kChannel) == 1);
}

TEST_CASE("pubsub registry: binary names and the empty name work") {
  Registry r;
  const std::string bin("a\0b\r\n", 5);
  r.Subscribe(Kind::kChannel, 1, bin);
  r.Subscribe(Kind::kChannel, 1, "");
  CHECK(r.Subscribers(Kind::kChannel, bin) != nullptr);
  CHECK(r.Subscribers(Kind::kChannel, "a") == nullptr);
  CHECK(r.Subscribers(Kind::kChannel, "") != nullptr);
  CHECK(r.Count(Kind::kChannel, 1) == 2);
}

TEST_CASE("pubsub registry: for each visits every name with its subscribers") {
  Registry r;
  r.Subscribe(Kind::kPattern, 1, "a*");
  r.Subscribe(Kind::kPattern, 2, "a*");
  r.Subscribe(Kind::kPattern, 2, "b?");
  std::vector<std::string> seen;
  r.ForEach(Kind::kPattern, [&](const std::string& name, const Registry::Ids& ids) {
    seen.push_back(name + ":" + std::to_string(ids.size()));
  });
  CHECK(Sorted(seen) == std::vector<std::string>{"a*:2", "b?:1"});
}

TEST_CASE("pubsub registry: many clients on one channel unsubscribe in any order") {
  Registry r;
  for (uint64_t id = 1; id <= 1000; ++id) r.Subscribe(Kind::kChannel, id, "big");
  for (uint64_t id = 1000; id >= 1; id -= 2) r.Unsubscribe(Kind::kChannel, id, "big");
  const Registry::Ids* ids = r.Subscribers(Kind::kChannel, "big");
  REQUIRE(ids != nullptr);
  CHECK(ids->size() == 500);
  CHECK(ids->front() == 1);
  CHECK(ids->back() == 999);
}

}  // namespace
}  // namespace plinth::pubsub
