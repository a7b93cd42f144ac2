// SCAN cursor syntax (strtoul-like, as Redis) and MATCH/COUNT/TYPE options.
#include "keys/scan_args.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace plinth::keys;

TEST_CASE("scan args: cursors accept what Redis accepts") {
  uint64_t c = 99;
  CHECK(ParseScanCursor("0", &c));
  CHECK(c == 0);
  CHECK(ParseScanCursor("17", &c));
  CHECK(c == 17);
  CHECK(ParseScanCursor("", &c));
  CHECK(c == 0);
  CHECK(ParseScanCursor("+5", &c));
  CHECK(c == 5);
  CHECK(ParseScanCursor("-1", &c));
  CHECK(c == UINT64_MAX);
  CHECK(ParseScanCursor("007", &c));
  CHECK(c == 7);
  CHECK(ParseScanCursor("18446744073709551615", &c));
  CHECK(c == UINT64_MAX);
  CHECK(ParseScanCursor(std::string_view("12\0junk", 7), &c));
  CHECK(c == 12);
}

TEST_CASE("scan args: cursors Redis calls invalid are refused") {
  uint64_t c = 0;
  for (const char* bad : {"abc", " 1", "1 ", "-", "+", "0x10", "1.0", "18446744073709551616"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseScanCursor(bad, &c));
  }
}

TEST_CASE("scan args: options parse in any order and case") {
  ScanOptions o;
  std::string err;
  CHECK(ParseScanOptions({"MATCH", "a*", "count", "100", "Type", "string"}, &o, &err));
  CHECK(o.has_pattern);
  CHECK(o.pattern == "a*");
  CHECK(o.count == 100);
  CHECK(o.has_type);
  CHECK(o.type == "string");
}

TEST_CASE("scan args: MATCH * is the same as no pattern") {
  ScanOptions o;
  std::string err;
  CHECK(ParseScanOptions({"match", "*"}, &o, &err));
  CHECK_FALSE(o.has_pattern);
  CHECK(o.count == 10);
}

TEST_CASE("scan args: bad options give syntax or integer errors") {
  std::string err;
  ScanOptions o;
  CHECK_FALSE(ParseScanOptions({"count", "0"}, &o, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseScanOptions({"count", "abc"}, &o, &err));
  CHECK(err == "ERR value is not an integer or out of range");
  CHECK_FALSE(ParseScanOptions({"match"}, &o, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseScanOptions({"type", "string", "foo"}, &o, &err));
  CHECK(err == "ERR syntax error");
}
