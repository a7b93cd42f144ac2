// The rdb plugin's descriptor: the RDB snapshot options, SAVE/BGSAVE/LASTSAVE/DEBUG RELOAD, the
// save points, loading dump.rdb at startup, and the persistence INFO fields. The only file that
// touches the descriptor; the logic lives in the other files of this folder.
#include <plinth/plugin.hpp>

#include "rdb/commands.h"
#include "rdb/snapshots.h"

namespace {

void InfoSection(void*, plinth_info_t* info) { plinth::rdb::Instance().Info(info); }

bool Init() {
  return plinth::rdb::Instance().Setup() && plinth::rdb::RegisterCommands() &&
         plinth::sdk::Api().info_register(plinth::sdk::Host::self, "persistence", &InfoSection,
                                          nullptr) == PLINTH_OK;
}

void Shutdown() { plinth::rdb::Instance().Teardown(); }

}  // namespace

PLINTH_PLUGIN("rdb", "0.1.0", "RDB snapshots: SAVE, BGSAVE, save points, loading dump.rdb", &Init,
              &Shutdown)
