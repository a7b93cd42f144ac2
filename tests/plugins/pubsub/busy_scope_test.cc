// Unit tests of the deferred cleanup: a client that closes while the plugin walks subscriber
// lists (a client_push closing a client over its output limit) is forgotten afterwards.
#include <doctest/doctest.h>

#include "pubsub/handlers.h"

namespace plinth::pubsub {
namespace {

TEST_CASE("pubsub cleanup: a close outside any walk drops the client at once") {
  ResetSubscriptions();
  Subs().Subscribe(Kind::kChannel, 5, "a");
  OnClientEvent(nullptr, 5, PLINTH_CLIENT_CLOSED);
  CHECK(Subs().Subscribers(Kind::kChannel, "a") == nullptr);
}

TEST_CASE("pubsub cleanup: a close during a walk waits for the outermost scope") {
  ResetSubscriptions();
  Subs().Subscribe(Kind::kChannel, 5, "a");
  Subs().Subscribe(Kind::kChannel, 6, "a");
  {
    BusyScope outer;
    const Registry::Ids* ids = Subs().Subscribers(Kind::kChannel, "a");
    {
      BusyScope inner;
      OnClientEvent(nullptr, 5, PLINTH_CLIENT_CLOSED);
      OnClientEvent(nullptr, 6, PLINTH_CLIENT_RESET);
    }
    REQUIRE(Subs().Subscribers(Kind::kChannel, "a") == ids);  // still intact under the walk
    CHECK(ids->size() == 2);
  }
  CHECK(Subs().Subscribers(Kind::kChannel, "a") == nullptr);
  ResetSubscriptions();
}

TEST_CASE("pubsub cleanup: other client events are ignored") {
  ResetSubscriptions();
  Subs().Subscribe(Kind::kChannel, 5, "a");
  OnClientEvent(nullptr, 5, 99);
  CHECK(Subs().Subscribers(Kind::kChannel, "a") != nullptr);
  ResetSubscriptions();
}

}  // namespace
}  // namespace plinth::pubsub
