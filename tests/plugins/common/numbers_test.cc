// Redis-strict integer parsing of command arguments.
#include "numbers.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using plinth::common::ParseInt32;
using plinth::common::ParseInt64;

TEST_CASE("numbers: accepts plain decimals and the int64 extremes") {
  int64_t v = -1;
  CHECK(ParseInt64("0", &v));
  CHECK(v == 0);
  CHECK(ParseInt64("42", &v));
  CHECK(v == 42);
  CHECK(ParseInt64("-17", &v));
  CHECK(v == -17);
  CHECK(ParseInt64("9223372036854775807", &v));
  CHECK(v == std::numeric_limits<int64_t>::max());
  CHECK(ParseInt64("-9223372036854775808", &v));
  CHECK(v == std::numeric_limits<int64_t>::min());
}

TEST_CASE("numbers: rejects the forms Redis rejects") {
  int64_t v = 7;
  for (const char* bad :
       {"", "-", "+1", " 1", "1 ", "01", "-0", "00", "1.5", "abc", "1e3", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999", "123456789012345678901"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseInt64(bad, &v));
  }
  CHECK(v == 7);
}

TEST_CASE("numbers: int32 parsing enforces the int range") {
  int32_t v = 0;
  CHECK(ParseInt32("2147483647", &v));
  CHECK(v == 2147483647);
  CHECK(ParseInt32("-2147483648", &v));
  CHECK_FALSE(ParseInt32("2147483648", &v));
  CHECK_FALSE(ParseInt32("x", &v));
}
