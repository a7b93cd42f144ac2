// FUNCTION DUMP and FUNCTION RESTORE: the libraries as Redis's DUMP-style payload (one
// RDB_OPCODE_FUNCTION2 record per library holding its code as an RDB string, LZF-compressed
// when that saves, then the RDB version 10 and a CRC64), compatible with redis-server 7.0.
// THREAD: main.
#ifndef PLINTH_SCRIPTING_FUNCTION_DUMP_H
#define PLINTH_SCRIPTING_FUNCTION_DUMP_H

#include <plinth/plugin.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "scripting/runtime.h"

namespace plinth::scripting {

// The payload of every library, in library-name order.
std::string DumpLibraries(Runtime* rt);

// Reads a payload into the codes of its libraries. false with the error text (no "ERR ")
// when it is malformed.
bool ParseDump(std::string_view payload, std::vector<std::string>* codes, std::string* error);

// FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE]: all libraries or none.
void RestoreCommand(sdk::Call& c);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_FUNCTION_DUMP_H
