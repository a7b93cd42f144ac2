// PUBLISH and SPUBLISH in the fake host: fan-out to channel and pattern subscribers across
// clients, Redis's receiver count, message shapes, and propagation.
#include <algorithm>

#include "pubsub_fixture.h"

namespace plinth::pubsub::test {
namespace {

TEST_CASE("pubsub publish: with no subscriber it reaches nobody") {
  Fixture f;
  CHECK(f.Run({"PUBLISH", "nobody", "hi"}) == "0");
}

TEST_CASE("pubsub publish: every channel subscriber gets the message in subscription order") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient(), c = f.host.AddClient();
  f.RunAs(a, {"SUBSCRIBE", "news"});
  f.RunAs(b, {"SUBSCRIBE", "news", "other"});
  f.RunAs(c, {"SUBSCRIBE", "other"});
  f.Taken(b);
  CHECK(f.Run({"PUBLISH", "news", "hello"}) == "2");
  CHECK(f.Taken(a) == Lines{"> message news hello"});
  CHECK(f.Taken(b) == Lines{"> message news hello"});
  CHECK(f.Taken(c).empty());
  CHECK(f.Run({"PUBLISH", "other", "x"}) == "2");
  CHECK(f.Taken(b) == Lines{"> message other x"});
}

TEST_CASE("pubsub publish: pattern subscribers get pmessage with the pattern") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient();
  f.RunAs(a, {"PSUBSCRIBE", "news.*", "*.sport"});
  f.Taken(a);
  f.RunAs(b, {"PSUBSCRIBE", "n[ae]ws.?"});
  CHECK(f.Run({"PUBLISH", "news.sport", "goal"}) == "2");
  Lines got = f.Taken(a);
  std::sort(got.begin(), got.end());
  CHECK(got == Lines{"> pmessage *.sport news.sport goal", "> pmessage news.* news.sport goal"});
  CHECK(f.Taken(b).empty());
  CHECK(f.Run({"PUBLISH", "news.x", "m"}) == "2");
  CHECK(f.Taken(a) == Lines{"> pmessage news.* news.x m"});
  CHECK(f.Taken(b) == Lines{"> pmessage n[ae]ws.? news.x m"});
}

TEST_CASE("pubsub publish: a client subscribed by channel and by pattern counts twice") {
  Fixture f;
  const uint64_t a = f.host.AddClient();
  f.RunAs(a, {"SUBSCRIBE", "a"});
  f.RunAs(a, {"PSUBSCRIBE", "a*"});
  CHECK(f.Run({"PUBLISH", "a", "hello"}) == "2");
  CHECK(f.Taken(a) == Lines{"> message a hello", "> pmessage a* a hello"});
}

TEST_CASE("pubsub publish: payloads and channel names are binary safe") {
  Fixture f;
  const uint64_t a = f.host.AddClient();
  const std::string channel("c\0h", 3), payload("x\r\n\0y", 5);
  f.RunAs(a, {"SUBSCRIBE", channel});
  CHECK(f.Run({"PUBLISH", channel, payload}) == "1");
  std::vector<fakehost::Reply> got = f.host.TakeReplies(a);
  REQUIRE(got.size() == 1);
  REQUIRE(got[0].elements.size() == 3);
  CHECK(got[0].elements[1].str == channel);
  CHECK(got[0].elements[2].str == payload);
  CHECK(f.Run({"PUBLISH", "c", payload}) == "0");
}

TEST_CASE("pubsub publish: a RESP3 client publishing to itself gets the message before the count") {
  Fixture f;
  f.host.SetProtocol(3);
  f.host.SetClientProtocol(1, 3);
  f.Run({"SUBSCRIBE", "me"});
  CHECK(f.Run({"PUBLISH", "me", "hi"}) == "1");
  std::vector<fakehost::Reply> got = f.host.TakeReplies(1);
  REQUIRE(got.size() == 1);
  CHECK(got[0].type == fakehost::ReplyType::kPush);
  CHECK(Fixture::Show(got[0]) == "> message me hi");
}

TEST_CASE("pubsub publish: it is propagated verbatim though it is not a write") {
  Fixture f;
  f.Propagated();
  f.Run({"PUBLISH", "a", "m"});
  CHECK(f.Propagated() == Lines{"publish a m"});
  f.Run({"SPUBLISH", "s", "m"});
  CHECK(f.Propagated() == Lines{"spublish s m"});
  f.Run({"SUBSCRIBE", "a"});
  f.Run({"UNSUBSCRIBE"});
  f.Run({"PUBSUB", "CHANNELS"});
  CHECK(f.Propagated().empty());
}

TEST_CASE("pubsub spublish: only shard channel subscribers hear it") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient();
  f.RunAs(a, {"SSUBSCRIBE", "s"});
  f.RunAs(b, {"SUBSCRIBE", "s"});
  f.RunAs(b, {"PSUBSCRIBE", "*"});
  CHECK(f.Run({"SPUBLISH", "s", "m"}) == "1");
  CHECK(f.Taken(a) == Lines{"> smessage s m"});
  CHECK(f.Taken(b).empty());
  CHECK(f.Run({"PUBLISH", "s", "n"}) == "2");
  CHECK(f.Taken(a).empty());
  CHECK(f.Taken(b) == Lines{"> message s n", "> pmessage * s n"});
}

TEST_CASE("pubsub publish: arity errors come from the host") {
  Fixture f;
  CHECK(f.Run({"PUBLISH", "a"}) == "ERR wrong number of arguments for 'publish' command");
  CHECK(f.Run({"PUBLISH", "a", "b", "c"}) == "ERR wrong number of arguments for 'publish' command");
  CHECK(f.Run({"SPUBLISH", "a"}) == "ERR wrong number of arguments for 'spublish' command");
}

}  // namespace
}  // namespace plinth::pubsub::test
