// Unit tests of notify-keyspace-events parsing and Redis 7.0's normalised text (the outputs
// below were read from redis-server 7.0.15's CONFIG GET).
#include "pubsub/notify_flags.h"

#include <doctest/doctest.h>
#include <plinth/plugin.h>

namespace plinth::pubsub {
namespace {

std::string Normalised(std::string_view text) {
  uint32_t flags = 0;
  REQUIRE(ParseNotifyFlags(text, &flags));
  return NotifyFlagsText(flags);
}

TEST_CASE("pubsub notify flags: the empty text is no events") {
  uint32_t flags = 99;
  CHECK(ParseNotifyFlags("", &flags));
  CHECK(flags == 0);
  CHECK(NotifyFlagsText(0) == "");
}

TEST_CASE("pubsub notify flags: each letter sets its class bit") {
  const struct {
    char c;
    uint32_t bit;
  } cases[] = {
      {'K', PLINTH_NOTIFY_KEYSPACE}, {'E', PLINTH_NOTIFY_KEYEVENT}, {'g', PLINTH_NOTIFY_GENERIC},
      {'$', PLINTH_NOTIFY_STRING},   {'l', PLINTH_NOTIFY_LIST},     {'s', PLINTH_NOTIFY_SET},
      {'h', PLINTH_NOTIFY_HASH},     {'z', PLINTH_NOTIFY_ZSET},     {'x', PLINTH_NOTIFY_EXPIRED},
      {'e', PLINTH_NOTIFY_EVICTED},  {'t', PLINTH_NOTIFY_STREAM},   {'m', PLINTH_NOTIFY_KEY_MISS},
      {'d', PLINTH_NOTIFY_MODULE},   {'n', PLINTH_NOTIFY_NEW}};
  for (const auto& c : cases) {
    uint32_t flags = 0;
    CHECK(ParseNotifyFlags(std::string(1, c.c), &flags));
    CHECK(flags == c.bit);
  }
}

TEST_CASE("pubsub notify flags: A is every class but K E m and n") {
  uint32_t flags = 0;
  REQUIRE(ParseNotifyFlags("A", &flags));
  CHECK(flags == kNotifyAll);
  const uint32_t others =
      PLINTH_NOTIFY_KEYSPACE | PLINTH_NOTIFY_KEYEVENT | PLINTH_NOTIFY_KEY_MISS | PLINTH_NOTIFY_NEW;
  CHECK((flags & others) == 0u);
}

TEST_CASE("pubsub notify flags: unknown letters are refused and leave the flags alone") {
  uint32_t flags = 7;
  CHECK_FALSE(ParseNotifyFlags("Kq", &flags));
  CHECK_FALSE(ParseNotifyFlags("k", &flags));  // case-sensitive
  CHECK_FALSE(ParseNotifyFlags("K E", &flags));
  CHECK_FALSE(ParseNotifyFlags(std::string_view("K\0", 2), &flags));
  CHECK(flags == 7);
}

TEST_CASE("pubsub notify flags: the normalised text is Redis 7.0's") {
  CHECK(Normalised("KEA") == "AKE");
  CHECK(Normalised("A") == "A");
  CHECK(Normalised("AA") == "A");
  CHECK(Normalised("Eg") == "gE");
  CHECK(Normalised("ggK") == "gK");
  CHECK(Normalised("Kn") == "nK");
  CHECK(Normalised("ndteE") == "etdnE");
  CHECK(Normalised("mdnK") == "dnKm");
  CHECK(Normalised("g$lshzxet") == "g$lshzxet");
  CHECK(Normalised("g$lshzxetd") == "A");
  CHECK(Normalised("AKEmn") == "AKEm");  // Redis 7.0 prints no n after A
}

}  // namespace
}  // namespace plinth::pubsub
