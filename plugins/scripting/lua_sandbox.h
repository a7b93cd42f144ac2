// The Lua 5.1 states scripts run in: Redis 7.0's library set (base without file access,
// table, string, math, cjson, bit, cmsgpack, struct), read-only globals and library tables,
// the "nonexistent global variable" error, and the error handler that records where an error
// was raised. Stock Lua has no read-only tables, so each protected table is an empty proxy
// whose metatable reads through to the real table and refuses writes; rawset, setmetatable
// and the writing table.* functions refuse proxies, and next/pairs/rawget read through them.
// THREAD: main.
#ifndef PLINTH_SCRIPTING_LUA_SANDBOX_H
#define PLINTH_SCRIPTING_LUA_SANDBOX_H

#include <cstddef>
#include <cstdint>
#include <lua.hpp>

namespace plinth::scripting {

// Bytes a state's allocator has handed out, and the cap it refuses to pass (0: none).
struct LuaMemory {
  size_t used = 0;
  size_t limit = 0;
  size_t after_collect = 0;  // used after the last full collection (Runtime::CollectIfNearLimit)
};

enum class SandboxKind { kEval, kFunction };

// Registry fields of a sandbox.
inline constexpr const char* kRegGlobals = "plinth.G";          // the real globals table
inline constexpr const char* kRegHandler = "plinth.handler";    // the pcall error handler
inline constexpr const char* kRegProxyMeta = "plinth.gmeta";    // the globals proxy's metatable
inline constexpr const char* kRegLibraryApi = "plinth.libapi";  // FUNCTION LOAD's globals

// Creates a sandbox of that kind with the redis API (lua_api.h) installed, or nullptr when
// memory ran out. mem must outlive the state. Close it with lua_close.
lua_State* NewSandbox(SandboxKind kind, LuaMemory* mem);

// Pushes a read-only proxy of the table at idx. Raises a Lua error on memory exhaustion.
void PushReadonlyProxy(lua_State* L, int idx);

// Pushes Redis's error table {err = "<CODE> <msg>"} for msg: "-CODE text" keeps its code,
// anything else gets "ERR ", and trailing CR/LF are trimmed (luaPushError).
void PushErrorTable(lua_State* L, const char* msg, size_t len);

// lua_CFunction: the readonly-table refusal raised from a C function (no position).
int RaiseReadonly(lua_State* L);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_LUA_SANDBOX_H
