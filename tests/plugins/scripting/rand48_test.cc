// The PRNG behind math.random: the sequence a fresh redis-server 7.0 gives.
#include "scripting/rand48.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace plinth::scripting;

TEST_CASE("rand48: a fresh process starts where redis-server starts") {
  // redis-server 7.0: math.random(1000) twice on a fresh server gives 397 then 841.
  double r1 = static_cast<double>(Rand48Next() % 2147483647) / 2147483647.0;
  double r2 = static_cast<double>(Rand48Next() % 2147483647) / 2147483647.0;
  CHECK(std::floor(r1 * 1000) + 1 == 397);
  CHECK(std::floor(r2 * 1000) + 1 == 841);
}

TEST_CASE("rand48: math.randomseed(1) then math.random(100) gives 5") {
  Rand48Seed(1);
  double r = static_cast<double>(Rand48Next() % 2147483647) / 2147483647.0;
  CHECK(std::floor(r * 100) + 1 == 5);
}
