// EXPIRE-family rules: option parsing, time conversion with overflow, NX/XX/GT/LT, TTL replies.
#include "keys/expire_args.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

using namespace plinth::keys;

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
}  // namespace

TEST_CASE("expire args: options parse in any case and combine") {
  uint32_t flags = 0;
  std::string err;
  CHECK(ParseExpireOptions({}, &flags, &err));
  CHECK(flags == 0);
  CHECK(ParseExpireOptions({"nx"}, &flags, &err));
  CHECK(flags == kExpireNx);
  CHECK(ParseExpireOptions({"XX", "gt"}, &flags, &err));
  CHECK(flags == (kExpireXx | kExpireGt));
  CHECK(ParseExpireOptions({"lt", "LT"}, &flags, &err));
  CHECK(flags == kExpireLt);
}

TEST_CASE("expire args: incompatible and unknown options give Redis's errors") {
  uint32_t flags = 0;
  std::string err;
  CHECK_FALSE(ParseExpireOptions({"nx", "xx"}, &flags, &err));
  CHECK(err == "ERR NX and XX, GT or LT options at the same time are not compatible");
  CHECK_FALSE(ParseExpireOptions({"nx", "gt"}, &flags, &err));
  CHECK(err == "ERR NX and XX, GT or LT options at the same time are not compatible");
  CHECK_FALSE(ParseExpireOptions({"gt", "lt"}, &flags, &err));
  CHECK(err == "ERR GT and LT options at the same time are not compatible");
  CHECK_FALSE(ParseExpireOptions({"nx", "foo"}, &flags, &err));
  CHECK(err == "ERR Unsupported option foo");
}

TEST_CASE("expire args: relative seconds become absolute ms from now") {
  int64_t when = 0;
  CHECK(ExpireAtMs(10, {true, true}, 1000000, &when));
  CHECK(when == 1010000);
  CHECK(ExpireAtMs(250, {false, true}, 1000000, &when));
  CHECK(when == 1000250);
  CHECK(ExpireAtMs(5, {true, false}, 1000000, &when));
  CHECK(when == 5000);
  CHECK(ExpireAtMs(-5, {true, true}, 1000000, &when));
  CHECK(when == 995000);
}

TEST_CASE("expire args: overflowing times are refused exactly where Redis refuses them") {
  int64_t when = 0;
  CHECK_FALSE(ExpireAtMs(kMax, {true, true}, 1, &when));
  CHECK_FALSE(ExpireAtMs(kMax, {false, true}, 1, &when));
  CHECK_FALSE(ExpireAtMs(kMax, {true, false}, 1, &when));
  CHECK(ExpireAtMs(kMax, {false, false}, 1, &when));  // PEXPIREAT max is a valid time
  CHECK(when == kMax);
  CHECK_FALSE(ExpireAtMs(kMin, {true, true}, 1, &when));
  CHECK(ExpireAtMs(kMin, {false, false}, 1, &when));  // far past: deletes the key
  CHECK(InvalidExpireTimeError("pexpire") == "ERR invalid expire time in 'pexpire' command");
}

TEST_CASE("expire args: NX/XX/GT/LT conditions treat no TTL as infinite") {
  CHECK(ExpireConditionHolds(kExpireNx, -1, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireNx, 50, 100));
  CHECK(ExpireConditionHolds(kExpireXx, 50, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireXx, -1, 100));
  CHECK(ExpireConditionHolds(kExpireGt, 50, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireGt, 100, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireGt, -1, 100));
  CHECK(ExpireConditionHolds(kExpireLt, 150, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireLt, 100, 100));
  CHECK(ExpireConditionHolds(kExpireLt, -1, 100));
  CHECK(ExpireConditionHolds(kExpireXx | kExpireGt, 50, 100));
  CHECK_FALSE(ExpireConditionHolds(kExpireXx | kExpireLt, -1, 100));
}

TEST_CASE("expire args: TTL rounds to the nearest second and keeps -1/-2") {
  CHECK(TtlReply(-2, 1000, false) == -2);
  CHECK(TtlReply(-1, 1000, true) == -1);
  CHECK(TtlReply(10499, 0, false) == 10);
  CHECK(TtlReply(10500, 0, false) == 11);
  CHECK(TtlReply(10500, 0, true) == 10500);
  CHECK(TtlReply(500, 1000, true) == 0);  // already past but still present
  CHECK(TtlReply(kMax, 0, false) == kMax / 1000 + 1);
  CHECK(ExpireTimeReply(1700000000499, false) == 1700000000);
  CHECK(ExpireTimeReply(1700000000500, false) == 1700000001);
  CHECK(ExpireTimeReply(1700000000500, true) == 1700000000500);
  CHECK(ExpireTimeReply(-2, false) == -2);
}
