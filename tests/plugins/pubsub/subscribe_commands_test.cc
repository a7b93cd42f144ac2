// SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, SSUBSCRIBE and SUNSUBSCRIBE in the fake
// host: one confirmation per name in order (all but the last pushed before the reply),
// Redis 7.0's counts, RESP2 and RESP3 shapes, and the RESP2 subscriber mode.
#include <algorithm>

#include "pubsub_fixture.h"

namespace plinth::pubsub::test {
namespace {

constexpr const char* kSubscriberError =
    "ERR Can't execute 'exists': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
    "allowed in this context";

TEST_CASE("pubsub subscribe: one confirmation per channel with the running count") {
  Fixture f;
  CHECK(f.Run({"SUBSCRIBE", "a", "b", "a"}) == "> subscribe a 2");
  CHECK(f.Taken() == Lines{"> subscribe a 1", "> subscribe b 2"});
  CHECK(f.Run({"subscribe", "c"}) == "> subscribe c 3");
  CHECK(f.Taken().empty());
}

TEST_CASE("pubsub subscribe: the confirmations before the last are push replies") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient();
  const uint64_t c3 = f.host.AddClient();
  f.host.SetClientProtocol(c3, 3);
  f.RunAs(c2, {"SUBSCRIBE", "a", "b"});
  f.RunAs(c3, {"SUBSCRIBE", "a", "b"});
  // The plugin sends push items to both; the host's encoder writes them as '*' arrays to a
  // RESP2 client and as '>' pushes to a RESP3 one (tests/plugins/resp covers the bytes).
  for (uint64_t c : {c2, c3}) {
    const std::vector<fakehost::Reply> got = f.host.TakeReplies(c);
    REQUIRE(got.size() == 1);
    CHECK(got[0].type == fakehost::ReplyType::kPush);
    CHECK(Fixture::Show(got[0]) == "> subscribe a 1");
  }
}

TEST_CASE("pubsub subscribe: a subscriber in RESP2 may only run the subscriber commands") {
  Fixture f;
  f.Run({"SUBSCRIBE", "a"});
  CHECK(f.Run({"EXISTS", "x"}) == kSubscriberError);
  CHECK(f.Run({"PING"}) == "* pong ");
  CHECK(f.Run({"PING", "hi"}) == "* pong hi");
  CHECK(f.Run({"PSUBSCRIBE", "p*"}) == "> psubscribe p* 2");
  CHECK(f.Run({"SSUBSCRIBE", "s"}) == "> ssubscribe s 1");
  CHECK(f.Run({"PUBLISH", "a", "m"}).rfind("ERR Can't execute 'publish'", 0) == 0);
  CHECK(f.Run({"PUBSUB", "NUMPAT"}).rfind("ERR Can't execute 'pubsub|numpat'", 0) == 0);
}

TEST_CASE("pubsub subscribe: a RESP3 subscriber runs any command") {
  Fixture f;
  f.host.SetProtocol(3);
  f.host.SetClientProtocol(1, 3);
  f.Run({"SUBSCRIBE", "a"});
  CHECK(f.Run({"EXISTS", "x"}) == "0");
  CHECK(f.Run({"PING"}) == "PONG");
  CHECK(f.Run({"PUBLISH", "a", "m"}) == "1");
  CHECK(f.Taken() == Lines{"> message a m"});
}

TEST_CASE("pubsub subscribe: unsubscribing every channel leaves subscriber mode") {
  Fixture f;
  f.Run({"SUBSCRIBE", "a", "b"});
  f.Taken();
  CHECK(f.Run({"UNSUBSCRIBE", "a"}) == "> unsubscribe a 1");
  CHECK(f.Run({"EXISTS", "x"}) == kSubscriberError);
  CHECK(f.Run({"UNSUBSCRIBE", "b"}) == "> unsubscribe b 0");
  CHECK(f.Run({"EXISTS", "x"}) == "0");
}

TEST_CASE("pubsub unsubscribe: without arguments it confirms every channel") {
  Fixture f;
  f.Run({"SUBSCRIBE", "a", "b", "c"});
  f.Run({"PSUBSCRIBE", "p*"});
  f.Taken();
  const std::string last = f.Run({"UNSUBSCRIBE"});
  Lines all = f.Taken();
  REQUIRE(all.size() == 2);
  all.push_back(last);
  // Redis's order is its dict's; the count (channels and patterns) still falls by one each.
  Lines names;
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string prefix = i + 1 == all.size() ? "> unsubscribe " : "> unsubscribe ";
    CHECK(all[i].rfind(prefix, 0) == 0);
    CHECK(all[i].substr(prefix.size() + 1) == " " + std::to_string(3 - i));
    names.push_back(all[i].substr(prefix.size(), 1));
  }
  std::sort(names.begin(), names.end());
  CHECK(names == Lines{"a", "b", "c"});
  CHECK(f.Run({"EXISTS", "x"}) == kSubscriberError);  // the pattern keeps it subscribed
  CHECK(f.Run({"PUNSUBSCRIBE"}) == "> punsubscribe p* 0");
  CHECK(f.Run({"PUBSUB", "NUMSUB", "a"}) == "* a 0");
}

TEST_CASE("pubsub unsubscribe: with nothing subscribed it replies a nil name") {
  Fixture f;
  CHECK(f.Run({"UNSUBSCRIBE"}) == "> unsubscribe nil 0");
  CHECK(f.Run({"PUNSUBSCRIBE"}) == "> punsubscribe nil 0");
  CHECK(f.Run({"SUNSUBSCRIBE"}) == "> sunsubscribe nil 0");
  f.Run({"PSUBSCRIBE", "p*"});
  CHECK(f.Run({"UNSUBSCRIBE"}) == "> unsubscribe nil 1");  // counts channels and patterns
  CHECK(f.Taken().empty());
}

TEST_CASE("pubsub unsubscribe: names not subscribed still get a confirmation") {
  Fixture f;
  CHECK(f.Run({"UNSUBSCRIBE", "x", "y"}) == "> unsubscribe y 0");
  CHECK(f.Taken() == Lines{"> unsubscribe x 0"});
  f.Run({"SUBSCRIBE", "a"});
  CHECK(f.Run({"UNSUBSCRIBE", "zz"}) == "> unsubscribe zz 1");
}

TEST_CASE("pubsub psubscribe: patterns count with channels") {
  Fixture f;
  f.Run({"SUBSCRIBE", "a"});
  CHECK(f.Run({"PSUBSCRIBE", "x*", "y*", "x*"}) == "> psubscribe x* 3");
  CHECK(f.Taken() == Lines{"> psubscribe x* 2", "> psubscribe y* 3"});
  CHECK(f.Run({"PUNSUBSCRIBE", "x*"}) == "> punsubscribe x* 2");
  CHECK(f.Run({"PUNSUBSCRIBE", "a"}) == "> punsubscribe a 2");  // a is a channel, not a pattern
}

TEST_CASE("pubsub ssubscribe: shard channels have their own count and still mean subscriber mode") {
  Fixture f;
  f.Run({"SUBSCRIBE", "a"});
  CHECK(f.Run({"SSUBSCRIBE", "s1", "s2"}) == "> ssubscribe s2 2");
  CHECK(f.Taken() == Lines{"> ssubscribe s1 1"});
  CHECK(f.Run({"UNSUBSCRIBE", "a"}) == "> unsubscribe a 0");
  CHECK(f.Run({"EXISTS", "x"}) == kSubscriberError);
  const std::string last = f.Run({"SUNSUBSCRIBE"});
  CHECK(f.Taken().size() == 1);
  CHECK(last.substr(last.size() - 2) == " 0");
  CHECK(f.Run({"EXISTS", "x"}) == "0");
}

TEST_CASE("pubsub subscribe: RESP3 confirmations and the nil name") {
  Fixture f;
  f.host.SetProtocol(3);
  f.host.SetClientProtocol(1, 3);
  f.Run({"SUBSCRIBE", "a", "b"});
  std::vector<fakehost::Reply> pushed = f.host.TakeReplies(1);
  REQUIRE(pushed.size() == 1);
  CHECK(pushed[0].type == fakehost::ReplyType::kPush);
  f.Run({"UNSUBSCRIBE"});
  f.Taken();
  fakehost::Reply none = f.host.Call({"UNSUBSCRIBE"});
  REQUIRE(none.elements.size() == 3);
  CHECK(none.elements[1].type == fakehost::ReplyType::kNull);
}

TEST_CASE("pubsub subscribe: arity errors come from the host") {
  Fixture f;
  CHECK(f.Run({"SUBSCRIBE"}) == "ERR wrong number of arguments for 'subscribe' command");
  CHECK(f.Run({"PSUBSCRIBE"}) == "ERR wrong number of arguments for 'psubscribe' command");
  CHECK(f.Run({"SSUBSCRIBE"}) == "ERR wrong number of arguments for 'ssubscribe' command");
}

TEST_CASE("pubsub subscribe: the specs carry Redis's flags and the subscriber flag") {
  Fixture f;
  for (const char* name :
       {"subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe"}) {
    const plinth_command_spec_t* s = f.host.FindCommand(name);
    REQUIRE(s != nullptr);
    CHECK((s->flags & PLINTH_CMD_SUBSCRIBER) != 0);
    CHECK((s->flags & PLINTH_CMD_PUBSUB) != 0);
    CHECK((s->flags & PLINTH_CMD_NOSCRIPT) != 0);
    CHECK((s->flags & PLINTH_CMD_WRITE) == 0);
    CHECK(std::string(s->group) == "pubsub");
  }
  for (const char* name : {"publish", "spublish", "pubsub"}) {
    const plinth_command_spec_t* s = f.host.FindCommand(name);
    REQUIRE(s != nullptr);
    CHECK((s->flags & PLINTH_CMD_SUBSCRIBER) == 0);
    CHECK((s->flags & PLINTH_CMD_PUBSUB) != 0);
  }
  CHECK(f.host.FindCommand("publish")->arity == 3);
  CHECK((f.host.FindCommand("publish")->flags & PLINTH_CMD_FAST) != 0);
  CHECK(f.host.FindCommand("unsubscribe")->arity == -1);
  CHECK(f.host.FindCommand("spublish")->first_key == 1);
}

}  // namespace
}  // namespace plinth::pubsub::test
