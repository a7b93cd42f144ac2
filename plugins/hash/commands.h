// The hash command handlers and their registration table. Handlers run on the main thread.
#ifndef PLINTH_HASH_COMMANDS_H
#define PLINTH_HASH_COMMANDS_H

#include <plinth/plugin.hpp>

namespace plinth::hash {

using sdk::Call;

// write_commands.cc
void HSetCommand(Call& c);
void HMSetCommand(Call& c);
void HSetNxCommand(Call& c);
void HDelCommand(Call& c);
void HIncrByCommand(Call& c);
void HIncrByFloatCommand(Call& c);

// read_commands.cc
void HGetCommand(Call& c);
void HMGetCommand(Call& c);
void HExistsCommand(Call& c);
void HLenCommand(Call& c);
void HStrLenCommand(Call& c);
void HKeysCommand(Call& c);
void HValsCommand(Call& c);
void HGetAllCommand(Call& c);

// random_commands.cc
void HRandFieldCommand(Call& c);
// Seeds HRANDFIELD's generator. THREAD: main, init.
void SeedRandom(uint64_t seed);

// scan_commands.cc
void HScanCommand(Call& c);

// Registers every hash command (group "hash"). Returns false on the first failure. Init only.
bool RegisterHashCommands();

}  // namespace plinth::hash

#endif  // PLINTH_HASH_COMMANDS_H
