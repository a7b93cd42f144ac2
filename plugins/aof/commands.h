// BGREWRITEAOF and the INFO persistence fields of the AOF. THREAD: main, init only.
#ifndef PLINTH_AOF_COMMANDS_H
#define PLINTH_AOF_COMMANDS_H

#include "aof/aof.h"

namespace plinth::aof {

// Registers BGREWRITEAOF, the stream consumer, the before-sleep hook and the INFO fields, all
// acting on aof (which must outlive the plugin). false when the host refused one.
bool RegisterHooks(Aof* aof);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_COMMANDS_H
