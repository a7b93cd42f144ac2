// Random picks of ranks for ZRANDMEMBER. Uses a per-thread generator seeded once per process.
// THREAD: any.
#ifndef PLINTH_ZSET_RANDOM_PICK_H
#define PLINTH_ZSET_RANDOM_PICK_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plinth::zset {

// A uniform integer in [0, n) (n > 0).
size_t RandomBelow(size_t n);
// k distinct ranks out of [0, n) (k <= n), in ascending order.
std::vector<size_t> DistinctRanks(size_t k, size_t n);

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_RANDOM_PICK_H
