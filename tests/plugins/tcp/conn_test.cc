// The tcp transport's connection helpers: the warning throttle.
#include "tcp/conn.h"

#include <doctest/doctest.h>

#include <chrono>

namespace plinth::tcp {
namespace {

TEST_CASE("tcp conn: the warning throttle lets one warning through per interval") {
  WarningThrottle t(std::chrono::seconds(1));
  const auto t0 = std::chrono::steady_clock::time_point(std::chrono::hours(1));
  uint64_t held = 99;
  CHECK(t.Allow(t0, &held));
  CHECK(held == 0);
  CHECK_FALSE(t.Allow(t0 + std::chrono::milliseconds(10), &held));
  CHECK_FALSE(t.Allow(t0 + std::chrono::milliseconds(999), &held));
  CHECK(t.Allow(t0 + std::chrono::milliseconds(1000), &held));
  CHECK(held == 2);
}

}  // namespace
}  // namespace plinth::tcp
