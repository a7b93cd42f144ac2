// DEBUG's pure parts: how SLEEP and SET-ACTIVE-EXPIRE read their argument as Redis does, the
// RDB sizes behind DEBUG OBJECT's serializedlength, its reply line and the HELP lines.
#include "diagnostics/debug_text.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::diagnostics;

TEST_CASE("debug text: SLEEP reads seconds as strtod does, nonsense and negatives as 0") {
  CHECK(SleepSeconds("0.25") == doctest::Approx(0.25));
  CHECK(SleepSeconds("2") == doctest::Approx(2));
  CHECK(SleepSeconds("abc") == 0);
  CHECK(SleepSeconds("-1") == 0);
  CHECK(SleepSeconds("nan") == 0);
  CHECK(SleepSeconds(std::string("1\0"
                                 "5",
                                 3)) == doctest::Approx(1));
}

TEST_CASE("debug text: SET-ACTIVE-EXPIRE reads its argument as atoi does") {
  CHECK(ActiveExpireOn("1"));
  CHECK(ActiveExpireOn("2"));
  CHECK_FALSE(ActiveExpireOn("0"));
  CHECK_FALSE(ActiveExpireOn("x"));  // Redis: atoi("x") is 0, which turns expiry off
}

TEST_CASE("debug text: RDB lengths and strings take Redis's encoded sizes") {
  CHECK(RdbLengthBytes(63) == 1);
  CHECK(RdbLengthBytes(64) == 2);
  CHECK(RdbLengthBytes(16383) == 2);
  CHECK(RdbLengthBytes(16384) == 5);
  CHECK(RdbLengthBytes(1ull << 32) == 9);
  CHECK(RdbStringBytes("v") == 2);             // as redis-server 7.0's DEBUG OBJECT of "v"
  CHECK(RdbStringBytes("123") == 2);           // an 8-bit integer
  CHECK(RdbStringBytes("1234") == 3);          // 16 bits
  CHECK(RdbStringBytes("1234567") == 5);       // 32 bits
  CHECK(RdbStringBytes("12345678901") == 12);  // too wide: a string
  CHECK(RdbStringBytes("0123") == 5);          // not canonical: a string
  CHECK(RdbStringBytes(std::string(100, 'a')) == 102);
}

TEST_CASE("debug text: DEBUG OBJECT's line has Redis's fields and 24-bit LRU clock") {
  const std::string line =
      DebugObjectLine(reinterpret_cast<const void*>(0x1234), "embstr", 2, 5000000, 3000);
  CHECK(line ==
        "Value at:0x1234 refcount:1 encoding:embstr serializedlength:2 lru:4997 "
        "lru_seconds_idle:3");
  const int64_t big_ms = int64_t{1} << 40;  // past the 24-bit clock: it wraps, as in Redis
  CHECK(DebugObjectLine(nullptr, "raw", 1, big_ms, 0)
            .find(" lru:" + std::to_string((big_ms / 1000) & 0xFFFFFF) + " ") != std::string::npos);
}

TEST_CASE("debug text: HELP lists the other plugins' subcommands only when they are there") {
  const auto without = DebugHelpLines(false, false);
  const auto with = DebugHelpLines(true, true);
  CHECK(without.front() == "DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  CHECK(without.back() == "    Prints this help.");
  CHECK(with.size() == without.size() + 5);
  bool reload = false;
  for (std::string_view l : with) reload = reload || l == "RELOAD";
  CHECK(reload);
}
