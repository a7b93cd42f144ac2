// Random rank picks (see random_pick.h): Floyd's sampling, so the cost follows k, not n.
#include "zset/random_pick.h"

#include <algorithm>
#include <random>
#include <unordered_set>

namespace plinth::zset {
namespace {

std::mt19937_64& Generator() {
  thread_local std::mt19937_64 gen{std::random_device{}()};
  return gen;
}

}  // namespace

size_t RandomBelow(size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(Generator());
}

std::vector<size_t> DistinctRanks(size_t k, size_t n) {
  std::vector<size_t> out;
  if (k >= n) {
    out.resize(n);
    for (size_t i = 0; i < n; ++i) out[i] = i;
    return out;
  }
  std::unordered_set<size_t> chosen;
  chosen.reserve(k * 2);
  out.reserve(k);
  for (size_t j = n - k; j < n; ++j) {
    const size_t t = std::uniform_int_distribution<size_t>(0, j)(Generator());
    const size_t pick = chosen.insert(t).second ? t : j;
    if (pick == j) chosen.insert(j);
    out.push_back(pick);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace plinth::zset
