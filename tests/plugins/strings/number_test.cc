// Tests of the strings plugin's Redis-exact float parsing and formatting (number.h). The
// expectations were taken from Redis 7.0's INCRBYFLOAT on the same inputs. Integer parsing is
// tested with the SDK (tests/sdk/text_test.cc).
#include "strings/number.h"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <string>

using plinth::strings::AddInt64;
using plinth::strings::FormatLongDouble;
using plinth::strings::ParseLongDouble;

namespace {

// Redis's INCRBYFLOAT: the stored value plus the increment, formatted.
std::string IncrByFloat(std::string_view stored, std::string_view incr) {
  long double a = 0, b = 0;
  REQUIRE(ParseLongDouble(stored, &a));
  REQUIRE(ParseLongDouble(incr, &b));
  return FormatLongDouble(a + b);
}

}  // namespace

TEST_CASE("strings number: parses floats like Redis's string2ld") {
  long double v = 0;
  CHECK(ParseLongDouble("1.5", &v));
  CHECK(v == 1.5L);
  CHECK(ParseLongDouble("-2e3", &v));
  CHECK(v == -2000.0L);
  CHECK(ParseLongDouble("0x10", &v));
  CHECK(v == 16.0L);
  CHECK(ParseLongDouble("inf", &v));
  CHECK(std::isinf(v));
  CHECK(ParseLongDouble("-Infinity", &v));
  CHECK(v < 0);
  CHECK(ParseLongDouble(" 1", nullptr) == false);
  CHECK(ParseLongDouble("1 ", nullptr) == false);
  CHECK(ParseLongDouble("", nullptr) == false);
  CHECK(ParseLongDouble("abc", nullptr) == false);
  CHECK(ParseLongDouble("nan", nullptr) == false);
  CHECK(ParseLongDouble("1e5000", nullptr) == false);   // overflows long double
  CHECK(ParseLongDouble("1e-5000", nullptr) == false);  // underflows to zero
  // An embedded NUL makes the text invalid, wherever it is.
  CHECK_FALSE(ParseLongDouble(std::string_view("2.5\0junk", 8), nullptr));
  CHECK_FALSE(ParseLongDouble(std::string_view("1\0", 2), nullptr));
  CHECK_FALSE(ParseLongDouble(std::string_view("\0\0", 2), nullptr));
}

TEST_CASE("strings number: refuses float texts of 5 KiB or more") {
  long double v = 0;
  CHECK(ParseLongDouble(std::string(5118, '0') + "1", &v));
  CHECK(v == 1.0L);
  CHECK_FALSE(ParseLongDouble(std::string(5119, '0') + "1", nullptr));
}

TEST_CASE("strings number: formats INCRBYFLOAT results exactly as Redis 7.0") {
  CHECK(IncrByFloat("0", "1.1") == "1.1");
  CHECK(IncrByFloat("1500", "0.1") == "1500.09999999999999998");
  CHECK(IncrByFloat("10.5", "0.1") == "10.6");
  CHECK(IncrByFloat("5.0e3", "2.0e2") == "5200");
  CHECK(IncrByFloat("1", "-1") == "0");
  CHECK(IncrByFloat("-1", "0.5") == "-0.5");
  CHECK(IncrByFloat("0", "3.0e-7") == "0.0000003");
  CHECK(IncrByFloat("0", "1e-20") == "0");
  CHECK(IncrByFloat("1.1", "2.2") == "3.3");
  CHECK(IncrByFloat("0", "0x1p-3") == "0.125");
  CHECK(IncrByFloat("0", "123456789012345678901234567890") == "123456789012345678899921813504");
  CHECK(IncrByFloat("17179869184", "1.5") == "17179869185.5");
  CHECK(IncrByFloat("3", "-3.5") == "-0.5");
  CHECK(IncrByFloat("0", "1e17") == "100000000000000000");
  CHECK(IncrByFloat("0", "99999999999999999999.99999") == "100000000000000000000");
  std::string big = IncrByFloat("0", "1e300");
  CHECK(big.size() == 301);
  CHECK(big.rfind("10000000000000000000089973240795591938705239442732907479", 0) == 0);
  CHECK(big.substr(big.size() - 10) == "5104006144");
}

TEST_CASE("strings number: writes negative zero and special values like Redis") {
  CHECK(FormatLongDouble(-0.0L) == "0");
  CHECK(FormatLongDouble(-1e-30L) == "0");
  CHECK(FormatLongDouble(INFINITY) == "inf");
  CHECK(FormatLongDouble(-INFINITY) == "-inf");
  CHECK(FormatLongDouble(NAN) == "nan");
  // The largest long double still formats in full.
  std::string max = FormatLongDouble(LDBL_MAX);
  CHECK(max.size() == 4933);
  CHECK(max.find('.') == std::string::npos);
}

TEST_CASE("strings number: detects overflowing additions") {
  int64_t out = 7;
  CHECK(AddInt64(INT64_MAX - 1, 1, &out));
  CHECK(out == INT64_MAX);
  out = 7;
  CHECK_FALSE(AddInt64(INT64_MAX, 1, &out));
  CHECK_FALSE(AddInt64(INT64_MIN, -1, &out));
  CHECK(out == 7);
  CHECK(AddInt64(INT64_MIN, INT64_MAX, &out));
  CHECK(out == -1);
}
