// Building a sandboxed Lua state. Everything that touches Lua runs inside lua_cpcall, so a
// memory error longjmps only through the plain C-style functions of this file.
#include "scripting/lua_sandbox.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "scripting/lua_api.h"
#include "scripting/lua_guards.h"

extern "C" {
#include <lua-bitop.h>
#include <lua-cjson.h>
#ifdef PLINTH_SCRIPTING_HAVE_LUA_LIBS
#include "scripting/lib/cmsgpack.h"
#include "scripting/lib/struct.h"
#endif
}

namespace plinth::scripting {
namespace {

constexpr const char* kRegProxies = "plinth.proxies";  // weak map proxy -> real table
constexpr const char* kReadonly = "Attempt to modify a readonly table";

void* Alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* mem = static_cast<LuaMemory*>(ud);
  if (nsize == 0) {
    std::free(ptr);
    mem->used -= osize;
    return nullptr;
  }
  if (mem->limit && nsize > osize && mem->used - osize + nsize > mem->limit) return nullptr;
  void* p = std::realloc(ptr, nsize);
  if (p) mem->used = mem->used - osize + nsize;
  return p;
}

int Panic(lua_State* L) {
  const char* msg = lua_tostring(L, -1);
  std::fprintf(stderr, "scripting: unprotected Lua error: %s\n", msg ? msg : "?");
  std::abort();
}

// Pushes the real table behind the proxy at idx, or nothing and returns false.
bool PushTarget(lua_State* L, int idx) {
  if (!lua_istable(L, idx)) return false;
  idx = idx < 0 && idx > LUA_REGISTRYINDEX ? lua_gettop(L) + idx + 1 : idx;
  lua_getfield(L, LUA_REGISTRYINDEX, kRegProxies);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return false;
  }
  return true;
}

// __newindex of a proxy: the error carries the writing script's position.
int ProxyNewIndex(lua_State* L) { return luaL_error(L, kReadonly); }

// __index of the real globals: a read of an undeclared global is an error.
int GlobalIndex(lua_State* L) {
  if (lua_gettop(L) != 2)
    return luaL_error(L, "Wrong number of arguments to luaProtectedTableError");
  if (!lua_isstring(L, -1) && !lua_isnumber(L, -1))
    return luaL_error(L, "Second argument to luaProtectedTableError must be a string or number");
  return luaL_error(L, "Script attempted to access nonexistent global variable '%s'",
                    lua_tostring(L, -1));
}

int RawGet(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  if (PushTarget(L, 1)) lua_replace(L, 1);
  lua_settop(L, 2);
  lua_rawget(L, 1);
  return 1;
}

int RawSet(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (PushTarget(L, 1)) return RaiseReadonly(L);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

int Next(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (PushTarget(L, 1)) lua_replace(L, 1);
  lua_settop(L, 2);
  if (lua_next(L, 1)) return 2;
  lua_pushnil(L);
  return 1;
}

int Pairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushvalue(L, lua_upvalueindex(1));  // our next
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int SetMetatable(lua_State* L) {
  if (PushTarget(L, 1)) return RaiseReadonly(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// getmetatable of a proxy answers for the table behind it (a read-only view of its
// metatable, or nil), as Redis answers for its read-only tables.
int GetMetatable(lua_State* L) {
  if (PushTarget(L, 1)) {
    if (!lua_getmetatable(L, -1)) {
      lua_pushnil(L);
      return 1;
    }
    PushReadonlyProxy(L, -1);
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// table.insert: refuses a proxy, and a position far below 1 (Lua 5.1's insert would shift
// elements down to it one index at a time: 2^31 steps in C for pos = -2^31, beyond the reach
// of the busy-script hook; Lua 5.2+ refuse any pos < 1), then runs the stock insert (upvalue
// 1) in this frame, so that its errors name 'insert' and the script's line as in Redis.
int TableInsert(lua_State* L) {
  if (lua_gettop(L) >= 1 && PushTarget(L, 1)) return RaiseReadonly(L);
  if (lua_gettop(L) == 3 && lua_isnumber(L, 2) &&
      lua_tonumber(L, 2) < -static_cast<lua_Number>(kMaxInsertBelowOne))
    return luaL_argerror(L, 2, "position out of bounds");
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

// pcall as Redis 7.0 has it: an error table with a string "err" (redis.call's errors) reaches
// the script as that string.
int PCall(lua_State* L) {
  int argc = lua_gettop(L);
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  if (lua_pcall(L, argc - 1, LUA_MULTRET, 0) != 0) {
    lua_remove(L, 1);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "err");
      if (lua_isstring(L, -1))
        lua_replace(L, -2);
      else
        lua_pop(L, 1);
    }
    lua_pushboolean(L, 0);
    lua_insert(L, 1);
  }
  return lua_gettop(L);
}

// The pcall error handler (Redis's __redis__err__handler): turns a non-table error into
// {err = "ERR " .. tostring(err)} and adds where it was raised, skipping a C function (the
// error then belongs to the Lua code that called it).
int ErrorHandler(lua_State* L) {
  lua_settop(L, 1);
  lua_Debug ar;
  bool have = false;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "nSl", &ar)) {
    have = true;
    if (std::strcmp(ar.what, "C") == 0) {
      // Our wrappers around library functions are frames Redis does not have: skip them too.
      int level = 2;
      while ((have = lua_getstack(L, level, &ar) && lua_getinfo(L, "nSlf", &ar))) {
        lua_CFunction fn = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (fn != SetMetatable && fn != GetMetatable) break;
        ++level;
      }
    }
  }
  if (!lua_istable(L, 1)) {
    lua_pushvalue(L, lua_upvalueindex(1));  // tostring
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    lua_pushstring(L, "ERR ");
    lua_insert(L, -2);
    lua_concat(L, 2);
    lua_newtable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, "err");
    lua_replace(L, 1);
  }
  if (have) {
    lua_pushstring(L, ar.source);
    lua_setfield(L, 1, "source");
    lua_pushinteger(L, ar.currentline);
    lua_setfield(L, 1, "line");
  }
  return 1;
}

void Open(lua_State* L, lua_CFunction fn, const char* name) {
  lua_pushcfunction(L, fn);
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
  if (name[0]) {
    lua_pushvalue(L, -1);
    lua_setglobal(L, name);
  }
  lua_pop(L, 1);
}

void Wrap(lua_State* L, int table, const char* name, lua_CFunction wrapper) {
  if (table < 0 && table > LUA_REGISTRYINDEX) table = lua_gettop(L) + table + 1;
  lua_getfield(L, table, name);
  lua_pushcclosure(L, wrapper, 1);
  lua_setfield(L, table, name);
}

void OpenLibraries(lua_State* L) {
  Open(L, luaopen_base, "");
  Open(L, luaopen_table, LUA_TABLIBNAME);
  Open(L, luaopen_string, LUA_STRLIBNAME);
  Open(L, luaopen_math, LUA_MATHLIBNAME);
  Open(L, luaopen_cjson, "cjson");
  Open(L, luaopen_bit, "bit");
#ifdef PLINTH_SCRIPTING_HAVE_LUA_LIBS
  Open(L, plinth_luaopen_cmsgpack, "cmsgpack");
  Open(L, plinth_luaopen_struct, "struct");
#endif
  for (const char* gone : {"dofile", "loadfile", "print", "getfenv", "setfenv", "newproxy"}) {
    lua_pushnil(L);
    lua_setglobal(L, gone);
  }
  lua_pushcfunction(L, PCall);
  lua_setglobal(L, "pcall");
  lua_pushcfunction(L, RawGet);
  lua_setglobal(L, "rawget");
  lua_pushcfunction(L, RawSet);
  lua_setglobal(L, "rawset");
  lua_pushcfunction(L, Next);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "next");
  lua_pushcclosure(L, Pairs, 1);
  lua_setglobal(L, "pairs");
  Wrap(L, LUA_GLOBALSINDEX, "setmetatable", SetMetatable);
  Wrap(L, LUA_GLOBALSINDEX, "getmetatable", GetMetatable);
  lua_getglobal(L, LUA_TABLIBNAME);
  // Only insert can write into a proxy (remove and sort see it as empty).
  Wrap(L, -1, "insert", TableInsert);
  lua_pop(L, 1);
  InstallGuards(L);
}

// Replaces every table value of the table at idx (not itself) by a read-only proxy, after
// doing the same inside it; depth bounds the walk (the tables here are shallow).
void ProtectFields(lua_State* L, int idx, int depth) {
  if (depth > 3) return;
  idx = lua_gettop(L) + idx + 1;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_istable(L, -1) && !PushTarget(L, -1)) {
      ProtectFields(L, -1, depth + 1);
      PushReadonlyProxy(L, -1);  // key, table, proxy
      lua_pushvalue(L, -3);
      lua_insert(L, -2);
      lua_rawset(L, idx);
    }
    lua_pop(L, 1);
  }
}

// Makes the string metatable's __index the (proxied) string library, and hides the
// metatable behind a proxy of itself.
void ProtectStringMetatable(lua_State* L) {
  lua_pushstring(L, "");
  if (!lua_getmetatable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_setfield(L, -2, "__index");
  PushReadonlyProxy(L, -1);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
}

// Sets the error metatable (undeclared globals) on the table at the top.
void SetGlobalErrorMeta(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, GlobalIndex);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
}

// FUNCTION LOAD's environment: only redis.register_function, redis.log and the constants.
void BuildLibraryApi(lua_State* L) {
  lua_newtable(L);  // globals seen while loading
  lua_newtable(L);  // their redis table
  InstallLibraryApi(L);
  SetGlobalErrorMeta(L);
  PushReadonlyProxy(L, -1);
  lua_setfield(L, -3, "redis");
  lua_pop(L, 1);
  SetGlobalErrorMeta(L);
  PushReadonlyProxy(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegLibraryApi);
  lua_pop(L, 1);
}

int Setup(lua_State* L) {
  auto kind = *static_cast<SandboxKind*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  lua_newtable(L);
  lua_newtable(L);
  lua_pushstring(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegProxies);

  OpenLibraries(L);
  InstallRedisApi(L, kind == SandboxKind::kEval);

  lua_getglobal(L, "tostring");
  lua_pushcclosure(L, ErrorHandler, 1);
  if (kind == SandboxKind::kEval) {
    lua_pushvalue(L, -1);
    lua_setglobal(L, "__redis__err__handler");
  }
  lua_setfield(L, LUA_REGISTRYINDEX, kRegHandler);
  if (kind == SandboxKind::kFunction) BuildLibraryApi(L);

  lua_pushvalue(L, LUA_GLOBALSINDEX);  // G
  lua_pushnil(L);
  lua_setfield(L, -2, "_G");
  ProtectFields(L, -1, 0);
  ProtectStringMetatable(L);
  SetGlobalErrorMeta(L);

  // The globals every script sees: an empty proxy reading through to G.
  lua_newtable(L);  // G T
  lua_newtable(L);  // G T MT
  lua_pushvalue(L, -3);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ProxyNewIndex);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegProxyMeta);
  lua_setmetatable(L, -2);  // G T
  lua_getfield(L, LUA_REGISTRYINDEX, kRegProxies);
  lua_pushvalue(L, -2);
  lua_pushvalue(L, -4);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "_G");  // G._G = T
  lua_pushvalue(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegGlobals);
  lua_replace(L, LUA_GLOBALSINDEX);
  lua_pop(L, 1);
  return 0;
}

}  // namespace

int RaiseReadonly(lua_State* L) {
  lua_pushstring(L, kReadonly);
  return lua_error(L);
}

void PushReadonlyProxy(lua_State* L, int idx) {
  idx = idx < 0 && idx > LUA_REGISTRYINDEX ? lua_gettop(L) + idx + 1 : idx;
  lua_newtable(L);  // proxy
  lua_newtable(L);  // its metatable
  lua_pushvalue(L, idx);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ProxyNewIndex);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
  lua_getfield(L, LUA_REGISTRYINDEX, kRegProxies);
  lua_pushvalue(L, -2);
  lua_pushvalue(L, idx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void PushErrorTable(lua_State* L, const char* msg, size_t len) {
  while (len > 0 && (msg[len - 1] == '\r' || msg[len - 1] == '\n')) --len;
  lua_newtable(L);
  if (len > 0 && msg[0] == '-') {
    const char* sp = static_cast<const char*>(std::memchr(msg, ' ', len));
    if (!sp) {
      lua_pushstring(L, "ERR ");
      lua_pushlstring(L, msg + 1, len - 1);
    } else {
      lua_pushlstring(L, msg + 1, static_cast<size_t>(sp - msg - 1));
      lua_pushstring(L, " ");
      lua_pushlstring(L, sp + 1, len - static_cast<size_t>(sp + 1 - msg));
      lua_concat(L, 2);
    }
  } else {
    lua_pushstring(L, "ERR ");
    lua_pushlstring(L, msg, len);
  }
  lua_concat(L, 2);
  lua_setfield(L, -2, "err");
}

lua_State* NewSandbox(SandboxKind kind, LuaMemory* mem) {
  lua_State* L = lua_newstate(Alloc, mem);
  if (!L) return nullptr;
  lua_atpanic(L, Panic);
  if (lua_cpcall(L, Setup, &kind) != 0) {
    const char* m = lua_tostring(L, -1);
    std::fprintf(stderr, "scripting: Lua setup failed: %s\n", m ? m : "?");
    lua_close(L);
    return nullptr;
  }
  return L;
}

}  // namespace plinth::scripting
