// The aof plugin's descriptor: the append-only file (Redis 7 multi-part layout) as a consumer
// of the host's propagation stream. The only file that touches the descriptor; the logic lives
// in the other files of this folder.
#include <memory>
#include <plinth/plugin.hpp>

#include "aof/aof.h"
#include "aof/commands.h"
#include "aof/options.h"

namespace {

std::unique_ptr<plinth::aof::Aof> aof;

bool Init() {
  const plinth_host_api_t& api = plinth::sdk::Api();
  if (!PLINTH_HAS(&api, fork_active)) {
    plinth::sdk::Log(PLINTH_LOG_WARNING, "the host is too old: it has no persistence functions");
    return false;
  }
  aof = std::make_unique<plinth::aof::Aof>(plinth::sdk::Host::self);
  if (!plinth::aof::RegisterOptions(aof.get()) || !plinth::aof::RegisterHooks(aof.get()) ||
      !aof->Start())
    return false;
  plinth::aof::SetRunning(true);
  return true;
}

void Shutdown() {
  plinth::aof::SetRunning(false);
  if (aof) aof->Stop();
}

}  // namespace

PLINTH_PLUGIN("aof", "0.1.0", "append-only file persistence (Redis 7 multi-part AOF)", &Init,
              &Shutdown)
