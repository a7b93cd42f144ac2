// The AOF options under Redis 7.0's bare names (appendonly, appendfsync, ...), mirrored into
// the Aof's Config by their apply callbacks. THREAD: main, plugin init only.
#ifndef PLINTH_AOF_OPTIONS_H
#define PLINTH_AOF_OPTIONS_H

#include "aof/aof.h"

namespace plinth::aof {

// Registers every option with apply callbacks writing into aof->config(). Once SetRunning was
// called, CONFIG SET appendonly yes/no switches the AOF on (through a rewrite) or off. Returns
// false when the host refused one (it logs why).
bool RegisterOptions(Aof* aof);

// From now on appendonly changes act (after init; before it they only set the config).
void SetRunning(bool running);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_OPTIONS_H
