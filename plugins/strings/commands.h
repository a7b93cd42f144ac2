// The string and bitmap command handlers and their registration. plugin.cc calls the Register*
// functions from the plugin's init; the handlers live in strings.cc (GET/SET family),
// counters.cc (INCR family), substrings.cc (APPEND, ranges, LCS) and bitmap_commands.cc.
// Main thread only.
#ifndef PLINTH_STRINGS_COMMANDS_H
#define PLINTH_STRINGS_COMMANDS_H

#include <plinth/plugin.hpp>

namespace plinth::strings {

using sdk::Call;

// Registers the string group (GET ... LCS). Returns false at the first refused command. Init
// only.
bool RegisterStringCommands();

// Registers the bitmap group (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP). Init only.
bool RegisterBitmapCommands();

// Handlers shared with the string table in strings.cc, one per command of the same name. Each
// replies exactly once (Redis's reply or error) and changes keys only when it succeeds.

// counters.cc
void IncrCommand(Call& c);
void DecrCommand(Call& c);
void IncrByCommand(Call& c);
void DecrByCommand(Call& c);
void IncrByFloatCommand(Call& c);

// substrings.cc
void AppendCommand(Call& c);
void StrlenCommand(Call& c);
void GetRangeCommand(Call& c);
void SetRangeCommand(Call& c);
void LcsCommand(Call& c);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_COMMANDS_H
