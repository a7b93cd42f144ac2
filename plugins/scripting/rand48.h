// Redis's deterministic PRNG behind math.random and math.randomseed in scripts: the 48-bit
// linear congruential generator of rand48, seeded once per process (not per script), so a
// fresh server gives the same sequence as redis-server. THREAD: main.
#ifndef PLINTH_SCRIPTING_RAND48_H
#define PLINTH_SCRIPTING_RAND48_H

#include <cstdint>

namespace plinth::scripting {

// The next value in [0, 2^31).
int32_t Rand48Next();
// Restarts the sequence from seed (math.randomseed).
void Rand48Seed(int32_t seed);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_RAND48_H
