// FUNCTION LOAD's engine side: runs a library's code in the function state with only
// redis.register_function, redis.log and the constants visible, collects the functions it
// registers, and links the library (replacing an older one of that name) when it is valid.
// Redis 7.0's checks and texts. THREAD: main.
#ifndef PLINTH_SCRIPTING_FUNCTION_LOAD_H
#define PLINTH_SCRIPTING_FUNCTION_LOAD_H

#include <string>
#include <string_view>

#include "scripting/runtime.h"

namespace plinth::scripting {

// Creates library from payload ("#!lua name=<lib>\n..."). Returns the library's name, or
// false with the error reply text in *error ("ERR Library 'x' already exists", ...).
bool LoadLibrary(Runtime* rt, std::string_view payload, bool replace, std::string* name,
                 std::string* error);

// Removes library name (and its functions). false when there is none.
bool DeleteLibrary(Runtime* rt, const std::string& name);

// Removes every library.
void FlushLibraries(Runtime* rt);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_FUNCTION_LOAD_H
