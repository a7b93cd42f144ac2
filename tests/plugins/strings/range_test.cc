// Tests of Redis's index range rules (range.h): GETRANGE results and the normalization quirks
// shared with BITCOUNT and BITPOS. Expectations come from Redis 7.0 on the same inputs.
#include "strings/range.h"

#include <doctest/doctest.h>

#include <cstdint>

using plinth::strings::GetRange;
using plinth::strings::IndexRange;
using plinth::strings::NormalizeRange;

TEST_CASE("strings range: GETRANGE answers like Redis") {
  const std::string_view s = "This is a string";
  CHECK(GetRange(s, 0, 3) == "This");
  CHECK(GetRange(s, -3, -1) == "ing");
  CHECK(GetRange(s, 0, -1) == s);
  CHECK(GetRange(s, 10, 100) == "string");
  CHECK(GetRange(s, -1, -3) == "");
  CHECK(GetRange(s, -100, -50) == "T");  // both clamp to 0
  CHECK(GetRange(s, -50, -100) == "");   // both negative and reversed: empty before clamping
  CHECK(GetRange(s, 5, 3) == "");
  CHECK(GetRange(s, -100, 100) == s);
  CHECK(GetRange(s, 16, 20) == "");
  CHECK(GetRange(s, 15, 15) == "g");
  CHECK(GetRange(s, 0, 0) == "T");
  CHECK(GetRange(s, INT64_MIN, INT64_MAX) == s);
  CHECK(GetRange("", 0, -1) == "");
  CHECK(GetRange("", 0, 0) == "");
}

TEST_CASE("strings range: normalization clamps and counts negatives from the end") {
  IndexRange r = NormalizeRange(-3, -1, 10, true);
  CHECK(r.start == 7);
  CHECK(r.end == 9);
  r = NormalizeRange(2, 1000, 10, true);
  CHECK(r.start == 2);
  CHECK(r.end == 9);
  CHECK(NormalizeRange(0, -1, 0, true).Empty());
  CHECK(NormalizeRange(INT64_MIN, INT64_MIN, 5, false).start == 0);
}

TEST_CASE("strings range: only GETRANGE and BITCOUNT empty a reversed negative range early") {
  // BITPOS does not: -20 and -30 both clamp to index 0 and the range is byte 0.
  IndexRange bitpos = NormalizeRange(-20, -30, 3, false);
  CHECK_FALSE(bitpos.Empty());
  CHECK(bitpos.start == 0);
  CHECK(bitpos.end == 0);
  CHECK(NormalizeRange(-20, -30, 3, true).Empty());
}
