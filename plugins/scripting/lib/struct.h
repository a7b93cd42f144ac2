/* The "struct" Lua library of Redis scripts: packs Lua numbers and strings into binary records
 * and back, following the format language of Roberto Ierusalimschy's struct library as Redis 7.0
 * ships it (with its bounds checks). Opened by the scripting plugin on each Lua state it creates;
 * every function runs on that state's thread and keeps no global state. */
#ifndef PLINTH_SCRIPTING_LIB_STRUCT_H_
#define PLINTH_SCRIPTING_LIB_STRUCT_H_

#ifdef __cplusplus
extern "C" {
#endif

#include <lua.h>

/* Creates the table "struct" with pack, unpack and size, stores it in the global "struct" and in
 * package.loaded, and leaves it on the stack; returns 1 (a lua_CFunction, so it may be called
 * with lua_call or lua_cpcall). Raises a Lua error only when out of memory.
 * OWNERSHIP: the table belongs to L. */
int plinth_luaopen_struct(lua_State* L);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_SCRIPTING_LIB_STRUCT_H_ */
