// rand48: x' = 0x5DEECE66D * x + 0xB mod 2^48; the output is the top 31 bits.
#include "scripting/rand48.h"

namespace plinth::scripting {
namespace {
constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;
uint64_t state = 0x1234ABCD330Eull;  // rand48's state before any seeding
}  // namespace

int32_t Rand48Next() {
  state = (0x5DEECE66Dull * state + 0xB) & kMask;
  return static_cast<int32_t>(state >> 17);
}

void Rand48Seed(int32_t seed) {
  state = ((static_cast<uint64_t>(static_cast<uint32_t>(seed)) << 16) | 0x330E) & kMask;
}

}  // namespace plinth::scripting
