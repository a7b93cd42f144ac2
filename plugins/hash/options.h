// The hash encoding options, registered under Redis's bare names: hash-max-listpack-entries
// (default 128) and hash-max-listpack-value (default 64 bytes), both mutable with CONFIG SET.
// The current values are cached in atomics so that RDB loading (any thread) can read them.
#ifndef PLINTH_HASH_OPTIONS_H
#define PLINTH_HASH_OPTIONS_H

#include "hash/hash_value.h"

namespace plinth::hash {

// Registers both options. Returns false when the host refused one (it logs why). THREAD: main,
// plugin init only.
bool RegisterOptions();

// The thresholds in force now. THREAD: any.
Limits CurrentLimits();

}  // namespace plinth::hash

#endif  // PLINTH_HASH_OPTIONS_H
