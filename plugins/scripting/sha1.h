// SHA-1 of a byte string as 40 lower-case hex digits: the name of a script in the script
// cache (EVALSHA, SCRIPT LOAD) and redis.sha1hex. Pure; THREAD: any.
#ifndef PLINTH_SCRIPTING_SHA1_H
#define PLINTH_SCRIPTING_SHA1_H

#include <cstddef>
#include <string>
#include <string_view>

namespace plinth::scripting {

// Returns the SHA-1 digest of data as 40 lower-case hex characters.
std::string Sha1Hex(std::string_view data);

// Writes the 40 hex characters (no NUL) into out. For callers that must not allocate (code
// running between Lua calls that may longjmp).
void Sha1HexInto(const char* data, size_t len, char out[40]);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_SHA1_H
