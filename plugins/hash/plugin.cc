// The hash plugin's descriptor: registers the "hash" value type, its encoding options and the
// Redis hash commands. The only file that touches the descriptor; the logic lives in the other
// files of this folder.
#include <plinth/plugin.hpp>

#include "hash/commands.h"
#include "hash/options.h"
#include "hash/table.h"
#include "hash/type.h"

namespace {

bool Init() {
  const auto now = static_cast<uint64_t>(plinth::sdk::Api().time_us(plinth::sdk::Host::self));
  const auto here = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&now));
  plinth::hash::SetHashSeed(now * 0x9e3779b97f4a7c15ull ^ here);
  plinth::hash::SeedRandom(now ^ (here << 17));
  return plinth::hash::RegisterOptions() && plinth::hash::RegisterHashType() &&
         plinth::hash::RegisterHashCommands();
}

}  // namespace

PLINTH_PLUGIN("hash", "0.1.0", "Redis hash type and commands (HSET, HGET, HINCRBY, HSCAN, ...)",
              &Init, nullptr)
