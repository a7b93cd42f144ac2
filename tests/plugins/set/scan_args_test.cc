// Unit tests of SSCAN's cursor and option parsing.
#include "set/scan_args.h"

#include <doctest/doctest.h>

namespace plinth::set {

TEST_CASE("set sscan args: cursors follow strtoul") {
  uint64_t v = 99;
  CHECK(ParseCursor("0", &v));
  CHECK(v == 0);
  CHECK(ParseCursor("", &v));
  CHECK(v == 0);
  CHECK(ParseCursor("+17", &v));
  CHECK(v == 17);
  CHECK(ParseCursor("-1", &v));
  CHECK(v == UINT64_MAX);
  CHECK(ParseCursor("18446744073709551615", &v));
  CHECK(v == UINT64_MAX);
  CHECK(ParseCursor(std::string_view("12\0junk", 7), &v));
  CHECK(v == 12);
  for (const char* bad : {"18446744073709551616", " 1", "1 ", "+", "-", "0x1", "abc", "1.5"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseCursor(bad, &v));
  }
}

TEST_CASE("set sscan args: MATCH and COUNT in any order, the last one wins") {
  ScanOptions o;
  std::string error;
  REQUIRE(ParseScanOptions({"count", "5", "MATCH", "a*", "COUNT", "7"}, &o, &error));
  CHECK(o.count == 7);
  CHECK(o.has_pattern);
  CHECK(o.pattern == "a*");
  ScanOptions all;
  REQUIRE(ParseScanOptions({"MATCH", "*"}, &all, &error));
  CHECK_FALSE(all.has_pattern);
}

TEST_CASE("set sscan args: errors") {
  std::string error;
  ScanOptions o;
  CHECK_FALSE(ParseScanOptions({"COUNT", "0"}, &o, &error));
  CHECK(error == "ERR syntax error");
  CHECK_FALSE(ParseScanOptions({"COUNT", "x"}, &o, &error));
  CHECK(error == "ERR value is not an integer or out of range");
  CHECK_FALSE(ParseScanOptions({"TYPE", "set"}, &o, &error));
  CHECK(error == "ERR syntax error");
  CHECK_FALSE(ParseScanOptions({"MATCH"}, &o, &error));
  CHECK(error == "ERR syntax error");
}

}  // namespace plinth::set
