// redis.* functions. Each reaches the plugin's state through Runtime (runtime.h), whose
// methods never touch Lua, so the C++ work happens outside any Lua call.
#include "scripting/lua_api.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "scripting/lua_reply.h"
#include "scripting/lua_sandbox.h"
#include "scripting/rand48.h"
#include "scripting/runtime.h"
#include "scripting/sha1.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

// Raises luaPushError(msg) as a Lua error.
int RaiseError(lua_State* L, const char* msg) {
  PushErrorTable(L, msg, std::strlen(msg));
  return lua_error(L);
}

// Turns the arguments into strings in place (numbers as "%.17g"); returns false after pushing
// the error table when there is none or one is neither a string nor a number.
bool ArgsToStrings(lua_State* L, int argc) {
  if (argc == 0) {
    const char* m = "Please specify at least one argument for this redis lib call";
    PushErrorTable(L, m, std::strlen(m));
    return false;
  }
  for (int i = 1; i <= argc; ++i) {
    int t = lua_type(L, i);
    if (t == LUA_TNUMBER) {
      char buf[64];
      int n = std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(lua_tonumber(L, i)));
      lua_pushlstring(L, buf, static_cast<size_t>(n));
      lua_replace(L, i);
    } else if (t != LUA_TSTRING) {
      const char* m = "Lua redis lib command arguments must be strings or integers";
      PushErrorTable(L, m, std::strlen(m));
      return false;
    }
  }
  return true;
}

// Pointers to the string arguments 1..argc, in a userdata pushed on top (freed by the GC).
const char** ArgVector(lua_State* L, int argc, size_t** lens) {
  auto* mem = static_cast<char*>(
      lua_newuserdata(L, static_cast<size_t>(argc) * (sizeof(const char*) + sizeof(size_t))));
  auto** argv = reinterpret_cast<const char**>(mem);
  *lens = reinterpret_cast<size_t*>(mem + static_cast<size_t>(argc) * sizeof(const char*));
  for (int i = 0; i < argc; ++i) argv[i] = lua_tolstring(L, i + 1, &(*lens)[i]);
  return argv;
}

int GenericCall(lua_State* L, bool raise) {
  Runtime* rt = TheRuntime();
  Run* run = rt ? rt->current() : nullptr;
  if (!run) return RaiseError(L, "redis.call/pcall can only be called inside a script invocation");
  int argc = lua_gettop(L);
  if (!ArgsToStrings(L, argc)) return raise ? lua_error(L) : 1;
  size_t* lens = nullptr;
  const char** argv = ArgVector(L, argc, &lens);
  CallOutcome out = rt->Execute(run, argc, argv, lens);
  if (out == CallOutcome::kRefused) {
    PushErrorTable(L, run->error.data(), run->error.size());
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ignore_error_stats_update");
    return raise ? lua_error(L) : 1;
  }
  PushReplyItems(L, run->items.data(), run->items.size(), run->arena.data(), run->resp == 3);
  if (out == CallOutcome::kError) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ignore_error_stats_update");
    if (raise) return lua_error(L);
  }
  return 1;
}

int Call(lua_State* L) { return GenericCall(L, true); }
int PCall(lua_State* L) { return GenericCall(L, false); }

int Sha1(lua_State* L) {
  if (lua_gettop(L) != 1) return RaiseError(L, "wrong number of arguments");
  size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  char hex[40];
  Sha1HexInto(s ? s : "", s ? len : 0, hex);
  lua_pushlstring(L, hex, 40);
  return 1;
}

int SingleFieldTable(lua_State* L, const char* field) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    const char* m = "wrong number or type of arguments";
    PushErrorTable(L, m, std::strlen(m));
    return 1;
  }
  lua_newtable(L);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, field);
  return 1;
}

int ErrorReply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) return SingleFieldTable(L, "err");
  size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  if (len > 0 && s[0] == '-') {
    PushErrorTable(L, s, len);
  } else {
    lua_pushstring(L, "-");
    lua_pushvalue(L, 1);
    lua_concat(L, 2);
    s = lua_tolstring(L, -1, &len);
    PushErrorTable(L, s, len);
  }
  return 1;
}

int StatusReply(lua_State* L) { return SingleFieldTable(L, "ok"); }

int Log(lua_State* L) {
  int argc = lua_gettop(L);
  if (argc < 2) return RaiseError(L, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(L, 1)) return RaiseError(L, "First argument must be a number (log level).");
  int level = static_cast<int>(lua_tonumber(L, 1));
  if (level < 0 || level > 3) return RaiseError(L, "Invalid debug level.");
  int pieces = 0;
  for (int j = 2; j <= argc; ++j) {
    if (!lua_isstring(L, j)) continue;
    if (pieces) {
      lua_pushstring(L, " ");
      ++pieces;
    }
    lua_pushvalue(L, j);
    lua_tostring(L, -1);
    ++pieces;
  }
  lua_concat(L, pieces);
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  if (Runtime* rt = TheRuntime()) rt->Log(level, text, len);
  return 0;
}

int SetResp(lua_State* L) {
  Run* run = TheRuntime() ? TheRuntime()->current() : nullptr;
  if (!run) return RaiseError(L, "redis.setresp can only be called inside a script invocation");
  if (lua_gettop(L) != 1) return RaiseError(L, "redis.setresp() requires one argument.");
  int resp = static_cast<int>(lua_tonumber(L, 1));
  if (resp != 2 && resp != 3) return RaiseError(L, "RESP version must be 2 or 3.");
  run->resp = resp;
  return 0;
}

int SetRepl(lua_State* L) {
  Run* run = TheRuntime() ? TheRuntime()->current() : nullptr;
  if (!run) return RaiseError(L, "redis.set_repl can only be called inside a script invocation");
  if (lua_gettop(L) != 1) return RaiseError(L, "redis.set_repl() requires two arguments.");
  int flags = static_cast<int>(lua_tonumber(L, -1));
  if ((flags & ~(kReplAof | kReplReplica)) != 0)
    return RaiseError(
        L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  run->repl = static_cast<uint32_t>(flags);
  return 0;
}

int ReplicateCommands(lua_State* L) {
  lua_pushboolean(L, 1);
  return 1;
}

int Breakpoint(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}

int Debug(lua_State*) { return 0; }

int AclCheck(lua_State* L) {
  Runtime* rt = TheRuntime();
  if (!rt || !rt->current())
    return RaiseError(L, "redis.acl_check_cmd can only be called inside a script invocation");
  int argc = lua_gettop(L);
  if (!ArgsToStrings(L, argc)) return lua_error(L);
  size_t len = 0;
  const char* name = lua_tolstring(L, 1, &len);
  if (!rt->CommandExists(name, len))
    return RaiseError(L, "Invalid command passed to redis.acl_check_cmd()");
  lua_pushboolean(L, 1);
  return 1;
}

int MathRandom(lua_State* L) {
  const double max = 2147483647.0;
  double r = static_cast<double>(Rand48Next() % 2147483647) / max;
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, r);
      break;
    case 1: {
      int u = luaL_checkint(L, 1);
      luaL_argcheck(L, 1 <= u, 1, "interval is empty");
      lua_pushnumber(L, std::floor(r * u) + 1);
      break;
    }
    case 2: {
      int l = luaL_checkint(L, 1);
      int u = luaL_checkint(L, 2);
      luaL_argcheck(L, l <= u, 2, "interval is empty");
      lua_pushnumber(L, std::floor(r * (u - l + 1)) + l);
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  return 1;
}

int MathRandomSeed(lua_State* L) {
  Rand48Seed(luaL_checkint(L, 1));
  return 0;
}

// Reads register_function's flags table into *flags; false on an unknown one.
bool ReadFlags(lua_State* L, int idx, uint32_t* flags) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (!lua_isstring(L, -1)) {
      lua_pop(L, 2);
      return false;
    }
    uint32_t bit = ScriptFlagByName(lua_tostring(L, -1));
    if (!bit || bit == kFlagEvalCompat) {
      lua_pop(L, 2);
      return false;
    }
    *flags |= bit;
    lua_pop(L, 1);
  }
  return true;
}

// register_function(name, callback) or register_function{function_name=..., callback=...,
// flags={...}, description=...}. Leaves name at 1, callback at 2, description at 3 (or nil).
const char* ReadRegisterArgs(lua_State* L, uint32_t* flags) {
  int argc = lua_gettop(L);
  if (argc < 1 || argc > 2) return "wrong number of arguments to redis.register_function";
  if (argc == 2) {
    if (!lua_isstring(L, 1)) return "first argument to redis.register_function must be a string";
    if (!lua_isfunction(L, 2))
      return "second argument to redis.register_function must be a function";
    lua_pushnil(L);
    return nullptr;
  }
  if (!lua_istable(L, 1))
    return "calling redis.register_function with a single argument is only applicable to Lua "
           "table (representing named arguments).";
  lua_pushnil(L);  // 2: name
  lua_pushnil(L);  // 3: callback
  lua_pushnil(L);  // 4: description
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (!lua_isstring(L, -2) || lua_type(L, -2) != LUA_TSTRING)
      return "named argument key given to redis.register_function is not a string";
    const char* key = lua_tostring(L, -2);
    if (strcasecmp(key, "function_name") == 0) {
      if (!lua_isstring(L, -1))
        return "function_name argument given to redis.register_function must be a string";
      lua_pushvalue(L, -1);
      lua_replace(L, 2);
    } else if (strcasecmp(key, "description") == 0) {
      if (!lua_isstring(L, -1))
        return "description argument given to redis.register_function must be a string";
      lua_pushvalue(L, -1);
      lua_replace(L, 4);
    } else if (strcasecmp(key, "callback") == 0) {
      if (!lua_isfunction(L, -1))
        return "callback argument given to redis.register_function must be a function";
      lua_pushvalue(L, -1);
      lua_replace(L, 3);
    } else if (strcasecmp(key, "flags") == 0) {
      if (!lua_istable(L, -1))
        return "flags argument to redis.register_function must be a table representing "
               "function flags";
      if (!ReadFlags(L, lua_gettop(L), flags)) return "unknown flag given";
    } else {
      return "unknown argument given to redis.register_function";
    }
    lua_pop(L, 1);
  }
  if (lua_isnil(L, 2)) return "redis.register_function must get a function name argument";
  if (lua_isnil(L, 3)) return "redis.register_function must get a callback argument";
  lua_remove(L, 1);
  return nullptr;
}

int RegisterFunction(lua_State* L) {
  Runtime* rt = TheRuntime();
  lua_getfield(L, LUA_REGISTRYINDEX, kRegLoading);
  bool loading = lua_istable(L, -1);
  lua_pop(L, 1);
  if (!rt || !loading)
    return RaiseError(L, "redis.register_function can only be called on FUNCTION LOAD command");
  uint32_t flags = 0;
  if (const char* err = ReadRegisterArgs(L, &flags)) return RaiseError(L, err);
  size_t nlen = 0, dlen = 0;
  const char* name = lua_tolstring(L, 1, &nlen);
  const char* desc = lua_isnil(L, 3) ? nullptr : lua_tolstring(L, 3, &dlen);
  if (const char* err = rt->RegisterFunction(name, nlen, desc, dlen, flags))
    return RaiseError(L, err);
  lua_getfield(L, LUA_REGISTRYINDEX, kRegLoading);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, -3);
  return 0;
}

void SetConstants(lua_State* L, bool repl) {
  const struct {
    const char* name;
    int value;
  } kConsts[] = {{"LOG_DEBUG", 0},    {"LOG_VERBOSE", 1}, {"LOG_NOTICE", 2},
                 {"LOG_WARNING", 3},  {"REPL_ALL", 3},    {"REPL_AOF", 1},
                 {"REPL_REPLICA", 2}, {"REPL_SLAVE", 2},  {"REPL_NONE", 0}};
  for (const auto& c : kConsts) {
    if (!repl && std::strncmp(c.name, "REPL_", 5) == 0) continue;
    lua_pushinteger(L, c.value);
    lua_setfield(L, -2, c.name);
  }
  lua_pushstring(L, kRedisVersion);
  lua_setfield(L, -2, "REDIS_VERSION");
  lua_pushinteger(L, kRedisVersionNum);
  lua_setfield(L, -2, "REDIS_VERSION_NUM");
}

void SetFn(lua_State* L, const char* name, lua_CFunction fn) {
  lua_pushcfunction(L, fn);
  lua_setfield(L, -2, name);
}

}  // namespace

void InstallRedisApi(lua_State* L, bool) {
  lua_newtable(L);
  SetFn(L, "call", Call);
  SetFn(L, "pcall", PCall);
  SetFn(L, "sha1hex", Sha1);
  SetFn(L, "error_reply", ErrorReply);
  SetFn(L, "status_reply", StatusReply);
  SetFn(L, "log", Log);
  SetFn(L, "setresp", SetResp);
  SetFn(L, "set_repl", SetRepl);
  SetFn(L, "replicate_commands", ReplicateCommands);
  SetFn(L, "breakpoint", Breakpoint);
  SetFn(L, "debug", Debug);
  SetFn(L, "acl_check_cmd", AclCheck);
  SetConstants(L, true);
  lua_setglobal(L, "redis");
  lua_getglobal(L, LUA_MATHLIBNAME);
  SetFn(L, "random", MathRandom);
  SetFn(L, "randomseed", MathRandomSeed);
  lua_pop(L, 1);
}

void InstallLibraryApi(lua_State* L) {
  SetFn(L, "register_function", RegisterFunction);
  SetFn(L, "log", Log);
  SetConstants(L, false);
}

}  // namespace plinth::scripting
