/* The "cmsgpack" Lua library of Redis scripts: MessagePack encoding and decoding of Lua values,
 * byte-compatible with Redis 7.0 (lua-cmsgpack 0.4.0). Opened by the scripting plugin on each
 * Lua state it creates; every function runs on that state's thread and keeps no global state. */
#ifndef PLINTH_SCRIPTING_LIB_CMSGPACK_H_
#define PLINTH_SCRIPTING_LIB_CMSGPACK_H_

#ifdef __cplusplus
extern "C" {
#endif

#include <lua.h>

/* Creates the table "cmsgpack" with pack, unpack, unpack_one and unpack_limit, stores it in the
 * global "cmsgpack" and in package.loaded, and leaves it on the stack; returns 1 (a lua_CFunction,
 * so it may be called with lua_call or lua_cpcall). Raises a Lua error only when out of memory.
 * OWNERSHIP: the table and its buffer belong to L and are freed by lua_close. */
int plinth_luaopen_cmsgpack(lua_State* L);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_SCRIPTING_LIB_CMSGPACK_H_ */
