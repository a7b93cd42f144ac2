// The zset plugin's descriptor: registers the "zset" type, its options and the sorted-set
// commands. The only file that touches the descriptor; everything else is in the family files
// listed in commands.h.
#include <plinth/plugin.hpp>

#include "zset/commands.h"
#include "zset/options.h"
#include "zset/type.h"

namespace {

bool Init() {
  using namespace plinth::zset;
  return RegisterZsetOptions() && RegisterZsetType() && RegisterWriteCommands() &&
         RegisterReadCommands() && RegisterRangeCommands() && RegisterPopCommands() &&
         RegisterSetOpCommands() && RegisterScanCommand();
}

}  // namespace

PLINTH_PLUGIN("zset", "0.1.0", "Redis sorted-set type and commands (ZADD, ZRANGE, BZPOPMIN, ...)",
              &Init, nullptr)
