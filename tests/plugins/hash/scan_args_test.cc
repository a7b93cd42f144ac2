// Tests of HSCAN's argument rules (scan_args.h), with Redis 7.0's answers to the same texts.
#include "hash/scan_args.h"

#include <doctest/doctest.h>

#include <string>

using plinth::hash::ParseScanCursor;
using plinth::hash::ParseScanOptions;
using plinth::hash::ScanArgsError;
using plinth::hash::ScanOptions;

TEST_CASE("hash scan args: cursors follow strtoul as Redis reads them") {
  uint64_t c = 99;
  CHECK(ParseScanCursor("0", &c));
  CHECK(c == 0);
  CHECK(ParseScanCursor("18446744073709551615", &c));
  CHECK(c == UINT64_MAX);
  CHECK(ParseScanCursor("-1", &c));  // wraps, as in Redis
  CHECK(c == UINT64_MAX);
  CHECK(ParseScanCursor("+5", &c));
  CHECK(c == 5);
  CHECK(ParseScanCursor("", &c));
  CHECK(c == 0);
  CHECK(ParseScanCursor(std::string("7\0x", 3), &c));
  CHECK(c == 7);
  CHECK_FALSE(ParseScanCursor("18446744073709551616", &c));
  CHECK_FALSE(ParseScanCursor(" 5", &c));
  CHECK_FALSE(ParseScanCursor("5 ", &c));
  CHECK_FALSE(ParseScanCursor("x", &c));
  CHECK_FALSE(ParseScanCursor("1.5", &c));
}

TEST_CASE("hash scan args: MATCH and COUNT in any order and case") {
  ScanOptions o;
  CHECK(ParseScanOptions({"count", "5", "MATCH", "a*", "Count", "7"}, &o) == ScanArgsError::kNone);
  CHECK(o.count == 7);
  CHECK(o.has_pattern);
  CHECK(o.pattern == "a*");
  ScanOptions star;
  CHECK(ParseScanOptions({"match", "*"}, &star) == ScanArgsError::kNone);
  CHECK_FALSE(star.has_pattern);
  CHECK(star.count == 10);
}

TEST_CASE("hash scan args: refuses what Redis refuses") {
  ScanOptions o;
  CHECK(ParseScanOptions({"count", "x"}, &o) == ScanArgsError::kNotInteger);
  CHECK(ParseScanOptions({"count", "0"}, &o) == ScanArgsError::kSyntax);
  CHECK(ParseScanOptions({"count", "-1"}, &o) == ScanArgsError::kSyntax);
  CHECK(ParseScanOptions({"match"}, &o) == ScanArgsError::kSyntax);
  CHECK(ParseScanOptions({"type", "hash"}, &o) == ScanArgsError::kSyntax);
  CHECK(ParseScanOptions({"novalues"}, &o) == ScanArgsError::kSyntax);
}
