// Tests of SET / GETEX option parsing and expire resolution (set_options.h) against Redis
// 7.0's acceptance rules and error conditions.
#include "strings/set_options.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace plinth::strings;

namespace {

bool Parse(std::vector<std::string_view> args, OptionsFor f, SetOptions* o) {
  return ParseSetOptions(args, f, o);
}

bool SetOk(std::vector<std::string_view> args) {
  SetOptions o;
  return Parse(args, OptionsFor::kSet, &o);
}

bool GetExOk(std::vector<std::string_view> args) {
  SetOptions o;
  return Parse(args, OptionsFor::kGetEx, &o);
}

constexpr int64_t kNow = 1700000000000;

}  // namespace

TEST_CASE("strings set options: accepts every SET form Redis 7.0 accepts") {
  SetOptions o;
  REQUIRE(Parse({}, OptionsFor::kSet, &o));
  CHECK(o.expire == ExpireKind::kNone);
  REQUIRE(Parse({"nx", "GET", "Ex", "10"}, OptionsFor::kSet, &o));
  CHECK(o.nx);
  CHECK(o.get);  // NX with GET is allowed since 7.0
  CHECK(o.expire == ExpireKind::kEx);
  CHECK(o.expire_arg == "10");
  REQUIRE(Parse({"XX", "KEEPTTL"}, OptionsFor::kSet, &o));
  CHECK(o.xx);
  CHECK(o.keepttl);
  REQUIRE(Parse({"PXAT", "5", "pxat", "6"}, OptionsFor::kSet, &o));  // a repeat: last wins
  CHECK(o.expire == ExpireKind::kPxAt);
  CHECK(o.expire_arg == "6");
  CHECK(SetOk({"NX", "NX"}));
  CHECK(SetOk({"GET", "GET"}));
  CHECK(SetOk({"EXAT", "1"}));
  CHECK(SetOk({"PX", "abc"}));  // the value is only checked later
}

TEST_CASE("strings set options: refuses conflicting or incomplete SET options") {
  CHECK_FALSE(SetOk({"NX", "XX"}));
  CHECK_FALSE(SetOk({"XX", "NX"}));
  CHECK_FALSE(SetOk({"EX"}));
  CHECK_FALSE(SetOk({"EX", "10", "PX", "10"}));
  CHECK_FALSE(SetOk({"EX", "10", "KEEPTTL"}));
  CHECK_FALSE(SetOk({"KEEPTTL", "EX", "10"}));
  CHECK_FALSE(SetOk({"PERSIST"}));
  CHECK_FALSE(SetOk({"FOO"}));
  CHECK_FALSE(SetOk({"N"}));
  CHECK_FALSE(SetOk({"NXX"}));
}

TEST_CASE("strings set options: GETEX takes expires and PERSIST, nothing of SET's own") {
  SetOptions o;
  REQUIRE(Parse({"persist"}, OptionsFor::kGetEx, &o));
  CHECK(o.persist);
  CHECK(GetExOk({"PX", "100"}));
  CHECK(GetExOk({}));
  CHECK_FALSE(GetExOk({"NX"}));
  CHECK_FALSE(GetExOk({"GET"}));
  CHECK_FALSE(GetExOk({"KEEPTTL"}));
  CHECK_FALSE(GetExOk({"PERSIST", "EX", "10"}));
  CHECK_FALSE(GetExOk({"EX", "10", "PERSIST"}));
  CHECK_FALSE(GetExOk({"EX"}));
}

TEST_CASE("strings set options: options are C strings, as Redis compares them") {
  CHECK(SetOk({std::string_view("NX\0zz", 5)}));
  CHECK(IsGetOption(std::string_view("get\0", 4)));
  CHECK(IsGetOption("Get"));
  CHECK_FALSE(IsGetOption("GETX"));
}

TEST_CASE("strings set options: resolves relative and absolute expires to unix ms") {
  int64_t when = 0;
  CHECK(ResolveExpire(ExpireKind::kEx, "10", kNow, &when) == ExpireStatus::kOk);
  CHECK(when == kNow + 10000);
  CHECK(ResolveExpire(ExpireKind::kPx, "10", kNow, &when) == ExpireStatus::kOk);
  CHECK(when == kNow + 10);
  CHECK(ResolveExpire(ExpireKind::kExAt, "10", kNow, &when) == ExpireStatus::kOk);
  CHECK(when == 10000);
  CHECK(ResolveExpire(ExpireKind::kPxAt, "10", kNow, &when) == ExpireStatus::kOk);
  CHECK(when == 10);
}

TEST_CASE("strings set options: invalid expires give Redis's two errors") {
  int64_t when = 0;
  CHECK(ResolveExpire(ExpireKind::kEx, "abc", kNow, &when) == ExpireStatus::kNotInteger);
  CHECK(ResolveExpire(ExpireKind::kEx, "1.5", kNow, &when) == ExpireStatus::kNotInteger);
  CHECK(ResolveExpire(ExpireKind::kEx, "0", kNow, &when) == ExpireStatus::kInvalid);
  CHECK(ResolveExpire(ExpireKind::kPx, "-1", kNow, &when) == ExpireStatus::kInvalid);
  CHECK(ResolveExpire(ExpireKind::kExAt, "0", kNow, &when) == ExpireStatus::kInvalid);
  // Seconds that overflow when turned into ms, and relative times that overflow with now.
  CHECK(ResolveExpire(ExpireKind::kEx, "9223372036854775807", kNow, &when) ==
        ExpireStatus::kInvalid);
  CHECK(ResolveExpire(ExpireKind::kExAt, "9223372036854776", kNow, &when) ==
        ExpireStatus::kInvalid);
  CHECK(ResolveExpire(ExpireKind::kExAt, "9223372036854775", kNow, &when) == ExpireStatus::kOk);
  CHECK(ResolveExpire(ExpireKind::kPx, "9223372036854775807", kNow, &when) ==
        ExpireStatus::kInvalid);
  CHECK(ResolveExpire(ExpireKind::kPxAt, "9223372036854775807", kNow, &when) == ExpireStatus::kOk);
}
