// Fast integer formatting used by the resp encoder (parsing is tested with the SDK, in
// tests/sdk/text_test.cc).
#include "resp/digits.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace plinth::resp {
namespace {

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

}  // namespace
}  // namespace plinth::resp
