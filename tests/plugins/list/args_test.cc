// Unit tests of the list commands' argument parsing: timeouts, sides and index ranges as Redis
// 7.0 reads them.
#include "list/args.h"

#include <doctest/doctest.h>

#include <string>

namespace plinth::list {
namespace {

std::string Timeout(std::string_view s, int64_t* ms = nullptr) {
  int64_t v = -1;
  const char* err = ParseTimeoutMs(s, &v);
  if (ms) *ms = v;
  return err ? err : "ok";
}

TEST_CASE("list args: timeouts are seconds as a float") {
  int64_t ms = 0;
  CHECK(Timeout("0", &ms) == "ok");
  CHECK(ms == 0);
  CHECK(Timeout("1.5", &ms) == "ok");
  CHECK(ms == 1500);
  CHECK(Timeout("0x10", &ms) == "ok");
  CHECK(ms == 16000);
  CHECK(Timeout("0.0001", &ms) == "ok");
  CHECK(ms == 1);  // rounded up to a millisecond, as Redis
  CHECK(Timeout("-0.0001", &ms) == "ok");
  CHECK(ms == 0);  // rounds up to 0: no limit
  CHECK(Timeout("1e-5") == "ok");
  CHECK(Timeout("9223372036854775", &ms) == "ok");
  CHECK(ms > 0);
}

TEST_CASE("list args: bad timeouts give Redis's errors") {
  const std::string kFloat = "ERR timeout is not a float or out of range";
  const std::string kNeg = "ERR timeout is negative";
  CHECK(Timeout("abc") == kFloat);
  CHECK(Timeout("") == kFloat);
  CHECK(Timeout(" 1") == kFloat);
  CHECK(Timeout("1 ") == kFloat);
  CHECK(Timeout("nan") == kFloat);
  CHECK(Timeout(std::string("1\0", 2)) == kFloat);
  CHECK(Timeout(std::string(6000, '1')) == kFloat);
  CHECK(Timeout("-1") == kNeg);
  CHECK(Timeout("inf") == kNeg);
  CHECK(Timeout("-inf") == kNeg);
  CHECK(Timeout("1e300") == kNeg);
  CHECK(Timeout("9223372036854775807") == kNeg);
}

TEST_CASE("list args: sides and tokens ignore case") {
  bool left = false;
  CHECK(ParseSide("left", &left));
  CHECK(left);
  CHECK(ParseSide("RiGhT", &left));
  CHECK_FALSE(left);
  CHECK_FALSE(ParseSide("up", &left));
  CHECK_FALSE(ParseSide("", &left));
  CHECK(IsToken(std::string("count\0x", 7), "COUNT"));
}

TEST_CASE("list args: ranges clamp like LRANGE") {
  uint64_t first = 0, count = 0;
  CHECK(ClampRange(0, -1, 5, &first, &count));
  CHECK(first == 0);
  CHECK(count == 5);
  CHECK(ClampRange(-100, 100, 5, &first, &count));
  CHECK(count == 5);
  CHECK(ClampRange(-2, -1, 5, &first, &count));
  CHECK(first == 3);
  CHECK(count == 2);
  CHECK_FALSE(ClampRange(3, 2, 5, &first, &count));
  CHECK_FALSE(ClampRange(5, 10, 5, &first, &count));
  CHECK_FALSE(ClampRange(0, -6, 5, &first, &count));
  CHECK(ClampRange(INT64_MIN, INT64_MAX, 5, &first, &count));
  CHECK(count == 5);
  CHECK(ClampRange(0, 1000000000000000000, 3, &first, &count));
  CHECK(count == 3);
}

}  // namespace
}  // namespace plinth::list
