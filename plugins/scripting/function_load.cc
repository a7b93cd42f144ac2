// Library loading in the function state; the Lua side runs inside lua_cpcall (LoadEntry).
#include "scripting/function_load.h"

#include <cstring>
#include <plinth/text.hpp>

#include "scripting/lua_api.h"
#include "scripting/lua_chunk.h"
#include "scripting/lua_sandbox.h"
#include "scripting/run_script.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

constexpr const char* kRegLibs = "plinth.libs";
constexpr int64_t kLoadTimeoutUs = 500 * 1000;

struct LoadRequest {
  const std::string* code;
  std::string* error;  // compile or run error, Redis's words without "ERR "
  int64_t start_us;
};

LoadRequest* g_loading = nullptr;

void LoadHook(lua_State* L, lua_Debug*) {
  if (!g_loading || NowUs() - g_loading->start_us <= kLoadTimeoutUs) return;
  lua_sethook(L, LoadHook, LUA_MASKLINE, 0);
  const char* m = "FUNCTION LOAD timeout";
  PushErrorTable(L, m, std::strlen(m));
  lua_error(L);
}

// Points the globals proxy's reads at t (the library API while loading, G after).
void SetGlobalsView(lua_State* L, const char* registry_field) {
  lua_getfield(L, LUA_REGISTRYINDEX, kRegProxyMeta);
  lua_getfield(L, LUA_REGISTRYINDEX, registry_field);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

int LoadEntry(lua_State* L) {
  auto* r = static_cast<LoadRequest*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegLoading);
  SetGlobalsView(L, kRegLibraryApi);
  if (LoadChunk(L, r->code->data(), r->code->size(), "@user_function") != 0) {
    r->error->assign("Error compiling function: ");
    r->error->append(lua_tostring(L, -1));
  } else {
    lua_sethook(L, LoadHook, LUA_MASKCOUNT, 100000);
    if (lua_pcall(L, 0, 0, 0) != 0) {
      // luaExtractErrorInformation: a string is "ERR <it>", a table's "err" wins.
      r->error->assign("Error registering functions: ");
      if (lua_isstring(L, -1)) {
        r->error->append("ERR ");
        r->error->append(lua_tostring(L, -1));
      } else if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "err");
        if (lua_isstring(L, -1)) r->error->append(lua_tostring(L, -1));
      }
    }
    lua_sethook(L, nullptr, 0, 0);
  }
  SetGlobalsView(L, kRegGlobals);
  return 0;
}

// Moves the collected callbacks (registry kRegLoading) under libs[name], or drops them.
struct LinkRequest {
  const char* name;
  bool keep;
};

int LinkEntry(lua_State* L) {
  auto* r = static_cast<LinkRequest*>(lua_touserdata(L, 1));
  lua_getfield(L, LUA_REGISTRYINDEX, kRegLibs);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kRegLibs);
  }
  if (r->keep) {
    lua_getfield(L, LUA_REGISTRYINDEX, kRegLoading);
    lua_setfield(L, -2, r->name);
  } else if (r->name) {
    lua_pushnil(L);
    lua_setfield(L, -2, r->name);
  }
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kRegLoading);
  return 0;
}

void Link(Runtime* rt, const char* name, bool keep) {
  LinkRequest req{name, keep};
  if (lua_cpcall(rt->function_vm(), LinkEntry, &req) != 0) lua_pop(rt->function_vm(), 1);
}

void Unindex(Runtime* rt, const LibraryInfo& lib) {
  for (const std::string& f : lib.functions) rt->functions().erase(text::ToLower(f));
}

}  // namespace

bool LoadLibrary(Runtime* rt, std::string_view payload, bool replace, std::string* name,
                 std::string* error) {
  LibraryMeta meta;
  std::string err;
  if (!ParseLibraryMeta(payload, &meta, &err)) {
    *error = "ERR " + err;
    return false;
  }
  if (!ValidFunctionName(meta.name)) {
    *error =
        "ERR Library names can only contain letters, numbers, or underscores(_) and must be at "
        "least one character long";
    return false;
  }
  if (!text::EqualsNoCase(meta.engine, "lua")) {
    *error = "ERR Engine '" + meta.engine + "' not found";
    return false;
  }
  auto& libs = rt->libraries();
  auto old = libs.find(meta.name);
  if (old != libs.end() && !replace) {
    *error = "ERR Library '" + meta.name + "' already exists";
    return false;
  }
  rt->loading().clear();
  LoadRequest req{&meta.code, &err, NowUs()};
  g_loading = &req;
  int rc = lua_cpcall(rt->function_vm(), LoadEntry, &req);
  g_loading = nullptr;
  if (rc != 0) {
    lua_pop(rt->function_vm(), 1);
    err = "Error registering functions: not enough memory";
  }
  Runtime::CollectIfNearLimit(rt->function_vm(), rt->function_memory());
  if (err.empty() && rt->loading().empty()) err = "No functions registered";
  if (err.empty()) {
    for (const FunctionInfo& f : rt->loading()) {
      auto hit = rt->functions().find(text::ToLower(f.name));
      if (hit != rt->functions().end() && hit->second.library != meta.name) {
        err = "Function " + f.name + " already exists";
        break;
      }
    }
  }
  if (!err.empty()) {
    Link(rt, nullptr, false);
    rt->loading().clear();
    *error = "ERR " + err;
    return false;
  }
  if (old != libs.end()) {
    Unindex(rt, old->second);
    libs.erase(old);
  }
  Link(rt, meta.name.c_str(), true);
  LibraryInfo lib;
  lib.name = meta.name;
  lib.code = std::string(payload);
  for (FunctionInfo& f : rt->loading()) {
    f.library = meta.name;
    lib.functions.push_back(f.name);
    rt->functions()[text::ToLower(f.name)] = f;
  }
  rt->loading().clear();
  libs[meta.name] = std::move(lib);
  *name = meta.name;
  return true;
}

bool DeleteLibrary(Runtime* rt, const std::string& name) {
  auto it = rt->libraries().find(name);
  if (it == rt->libraries().end()) return false;
  Unindex(rt, it->second);
  Link(rt, name.c_str(), false);
  rt->libraries().erase(it);
  return true;
}

void FlushLibraries(Runtime* rt) {
  std::vector<std::string> names;
  for (const auto& [n, lib] : rt->libraries()) names.push_back(n);
  for (const std::string& n : names) DeleteLibrary(rt, n);
}

}  // namespace plinth::scripting
