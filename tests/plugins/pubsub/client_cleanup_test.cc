// A closed or RESET client's subscriptions are forgotten: no messages, no counts, and the
// other subscribers are undisturbed.
#include "pubsub_fixture.h"

namespace plinth::pubsub::test {
namespace {

TEST_CASE("pubsub cleanup: a closed client no longer counts or receives") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient();
  f.RunAs(a, {"SUBSCRIBE", "ch"});
  f.RunAs(a, {"PSUBSCRIBE", "c*"});
  f.RunAs(a, {"SSUBSCRIBE", "s"});
  f.RunAs(b, {"SUBSCRIBE", "ch"});
  CHECK(f.Run({"PUBLISH", "ch", "1"}) == "3");
  f.host.CloseClient(a);
  CHECK(f.Run({"PUBLISH", "ch", "2"}) == "1");
  CHECK(f.Taken(b) == Lines{"> message ch 1", "> message ch 2"});
  CHECK(f.Run({"PUBSUB", "NUMSUB", "ch"}) == "* ch 1");
  CHECK(f.Run({"PUBSUB", "NUMPAT"}) == "0");
  CHECK(f.Run({"PUBSUB", "SHARDCHANNELS"}) == "*");
}

TEST_CASE("pubsub cleanup: RESET drops the subscriptions and leaves subscriber mode") {
  Fixture f;
  const uint64_t a = f.host.AddClient();
  f.RunAs(a, {"SUBSCRIBE", "ch", "ch2"});
  f.RunAs(a, {"PSUBSCRIBE", "c*"});
  CHECK(f.RunAs(a, {"RESET"}) == "RESET");
  CHECK(f.RunAs(a, {"EXISTS", "x"}) == "0");
  CHECK(f.Run({"PUBLISH", "ch", "m"}) == "0");
  CHECK(f.Run({"PUBSUB", "NUMPAT"}) == "0");
  CHECK(f.RunAs(a, {"UNSUBSCRIBE"}) == "> unsubscribe nil 0");
  f.Taken(a);
  CHECK(f.RunAs(a, {"SUBSCRIBE", "again"}) == "> subscribe again 1");
}

TEST_CASE("pubsub cleanup: a client that never subscribed closes quietly") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient();
  f.RunAs(b, {"SUBSCRIBE", "ch"});
  f.host.CloseClient(a);
  CHECK(f.Run({"PUBLISH", "ch", "m"}) == "1");
}

TEST_CASE("pubsub cleanup: reloading the plugin starts with no subscriptions") {
  {
    Fixture f;
    f.Run({"SUBSCRIBE", "left-over"});
  }
  Fixture g;
  CHECK(g.Run({"PUBSUB", "CHANNELS"}) == "*");
  CHECK(g.Run({"PUBLISH", "left-over", "m"}) == "0");
}

}  // namespace
}  // namespace plinth::pubsub::test
