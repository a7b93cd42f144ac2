// The "redis" table scripts use (redis.call, pcall, error_reply, status_reply, sha1hex, log,
// setresp, set_repl, replicate_commands, breakpoint, debug, acl_check_cmd and the constants),
// Redis's math.random / math.randomseed, and FUNCTION LOAD's redis.register_function. The
// functions are lua_CFunctions in plain C style: no C++ object with a destructor is alive
// while they call the Lua API, since a Lua error longjmps out of them. THREAD: main.
#ifndef PLINTH_SCRIPTING_LUA_API_H
#define PLINTH_SCRIPTING_LUA_API_H

#include <lua.hpp>

namespace plinth::scripting {

// The version redis.REDIS_VERSION reports: what the server's INFO says (redis_version).
inline constexpr const char* kRedisVersion = "7.0.15";
inline constexpr int kRedisVersionNum = 0x07000f;

// Registry field holding the table FUNCTION LOAD collects a library's callbacks into.
inline constexpr const char* kRegLoading = "plinth.loading";

// Sets global "redis" in the current globals (the table at LUA_GLOBALSINDEX) and replaces
// math.random / math.randomseed. eval adds nothing today; it names the EVAL state.
void InstallRedisApi(lua_State* L, bool eval);
// Fills the table at the top with FUNCTION LOAD's API (register_function, log, constants).
void InstallLibraryApi(lua_State* L);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_LUA_API_H
