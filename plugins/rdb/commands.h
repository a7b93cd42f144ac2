// The rdb plugin's commands: SAVE, BGSAVE [SCHEDULE], LASTSAVE, DEBUG RELOAD. Init only.
#pragma once

namespace plinth::rdb {

// Registers the commands. false when the host refused one.
bool RegisterCommands();

}  // namespace plinth::rdb
