// Strict integer parsing and fast formatting used by the resp parser and encoder.
#include "resp/digits.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "resp/memory_text.h"

namespace plinth::resp {
namespace {

bool Parses(const std::string& s, int64_t* v) { return ParseStrictInt64(s.data(), s.size(), v); }

TEST_CASE("resp digits: accepts canonical decimals across the int64 range") {
  int64_t v = 0;
  CHECK((Parses("0", &v) && v == 0));
  CHECK((Parses("7", &v) && v == 7));
  CHECK((Parses("-1", &v) && v == -1));
  CHECK((Parses("9223372036854775807", &v) && v == INT64_MAX));
  CHECK((Parses("-9223372036854775808", &v) && v == INT64_MIN));
}

TEST_CASE("resp digits: refuses what Redis's string2ll refuses") {
  int64_t v = 0;
  for (const char* bad :
       {"", "-", "+1", "01", "-0", "00", " 1", "1 ", "1a", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "123456789012345678901"}) {
    INFO(bad);
    CHECK_FALSE(Parses(bad, &v));
  }
}

TEST_CASE("resp digits: formats every magnitude like std::to_string") {
  char buf[kMaxInt64Chars];
  std::mt19937_64 rng(7);
  std::vector<int64_t> values = {0, 1, 9, 10, 99, 100, 12345, -1, -10, INT64_MAX, INT64_MIN};
  for (int i = 0; i < 2000; i++) values.push_back(static_cast<int64_t>(rng() >> (rng() % 64)));
  for (int64_t v : values) {
    CHECK(std::string(buf, WriteInt64(buf, v)) == std::to_string(v));
    if (v != INT64_MIN) CHECK(std::string(buf, WriteInt64(buf, -v)) == std::to_string(-v));
  }
  CHECK(std::string(buf, WriteUint64(buf, UINT64_MAX)) == "18446744073709551615");
}

TEST_CASE("resp memory text: reads sizes the way redis.conf writes them") {
  CHECK(ParseMemoryText("512mb") == 512LL * 1024 * 1024);
  CHECK(ParseMemoryText("1GB") == 1024LL * 1024 * 1024);
  CHECK(ParseMemoryText("1m") == 1000000);
  CHECK(ParseMemoryText("2k") == 2000);
  CHECK(ParseMemoryText("2kb") == 2048);
  CHECK(ParseMemoryText("4096") == 4096);
  CHECK(ParseMemoryText("10b") == 10);
  CHECK_FALSE(ParseMemoryText(""));
  CHECK_FALSE(ParseMemoryText("mb"));
  CHECK_FALSE(ParseMemoryText("-1"));
  CHECK_FALSE(ParseMemoryText("1tb"));
  CHECK_FALSE(ParseMemoryText("99999999999gb"));
}

}  // namespace
}  // namespace plinth::resp
