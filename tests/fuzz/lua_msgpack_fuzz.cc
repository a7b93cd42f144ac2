// libFuzzer target for the Lua libraries cmsgpack and struct (plugins/scripting/lib), which
// scripts feed with bytes from clients. Input: one control byte, then the bytes. Control bit 0
// picks the library. cmsgpack: bits 1-2 pick unpack, unpack_one, unpack_limit, or a walk with
// unpack_one plus round trips; bits 3-7 give the offset and limit. struct: the first byte of
// the rest (mod 16) is the format's length, the format follows, then the data; bits 1-3 give the
// start position; what unpacks is packed again with the same format and sized. Lua errors are
// expected; the target aborts when an offset leaves the input or a third round trip changes length.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <lua.hpp>

#include "scripting/lib/cmsgpack.h"
#include "scripting/lib/struct.h"

namespace {

// Returns a table of checks; each raises a Lua error for bad input and returns false only for a
// broken invariant.
const char kChecks[] = R"(
local function packed(...)
  if select("#", ...) == 0 then return "" end
  return cmsgpack.pack(...)
end
local checks = {}
function checks.walk(s)
  local offset = 0
  while offset ~= -1 do
    local next = cmsgpack.unpack_one(s, offset)
    if next ~= -1 and (next <= offset or next > #s) then return false end
    offset = next
  end
  -- Packing drops nil array items and map values and cuts depth at 16, so only from the second
  -- round on must the length stay put.
  local second = packed(cmsgpack.unpack(packed(cmsgpack.unpack(s))))
  return #packed(cmsgpack.unpack(second)) == #second
end
function checks.struct(fmt, s, pos)
  pcall(struct.size, fmt)
  local values = {struct.unpack(fmt, s, pos)}
  local next = table.remove(values)
  if type(next) ~= "number" or next < pos or (next > #s + 1 and next ~= pos) then return false end
  pcall(struct.pack, fmt, unpack(values))
  return true
end
return checks)";

lua_State* NewState() {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_pushcfunction(L, plinth_luaopen_cmsgpack);
  lua_call(L, 0, 0);
  lua_pushcfunction(L, plinth_luaopen_struct);
  lua_call(L, 0, 0);
  if (luaL_loadstring(L, kChecks) != 0) std::abort();
  lua_call(L, 0, 1);
  lua_setglobal(L, "checks");
  return L;
}

// Pushes the function "name" of global table "table".
void PushFunction(lua_State* L, const char* table, const char* name) {
  lua_getglobal(L, table);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

// Calls the function below "nargs" arguments on an empty stack. Aborts when an error has no
// message, or when "is_check" (a function of kChecks) and it returned false.
void CallChecked(lua_State* L, int nargs, bool is_check = false) {
  if (lua_pcall(L, nargs, LUA_MULTRET, 0) != 0) {
    if (!lua_isstring(L, -1)) std::abort();
    return;
  }
  if (is_check && !lua_toboolean(L, 1)) std::abort();
}

void FuzzMsgpack(lua_State* L, unsigned control, const char* bytes, size_t size) {
  unsigned mode = (control >> 1) & 3;
  lua_Integer offset = (control >> 3) & 7, limit = (control >> 6) & 3;
  static const char* const kNames[] = {"unpack", "unpack_one", "unpack_limit"};
  if (mode == 3) {
    PushFunction(L, "checks", "walk");
    lua_pushlstring(L, bytes, size);
    CallChecked(L, 1, true);
    return;
  }
  PushFunction(L, "cmsgpack", kNames[mode]);
  lua_pushlstring(L, bytes, size);
  if (mode == 0) {
    CallChecked(L, 1);
  } else if (mode == 1) {
    lua_pushinteger(L, offset);
    CallChecked(L, 2);
  } else {
    lua_pushinteger(L, limit);
    lua_pushinteger(L, offset);
    CallChecked(L, 3);
  }
}

void FuzzStruct(lua_State* L, unsigned control, const char* bytes, size_t size) {
  if (size == 0) return;
  size_t fmt_len = static_cast<unsigned char>(bytes[0]) % 16;
  bytes++;
  size--;
  if (fmt_len > size) fmt_len = size;
  PushFunction(L, "checks", "struct");
  lua_pushlstring(L, bytes, fmt_len);
  lua_pushlstring(L, bytes + fmt_len, size - fmt_len);
  lua_pushinteger(L, static_cast<lua_Integer>((control >> 1) & 7) + 1);
  CallChecked(L, 3, true);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static lua_State* L = NewState();
  if (size == 0) return 0;
  unsigned control = data[0];
  const char* bytes = reinterpret_cast<const char*>(data + 1);
  if (control & 1) {
    FuzzStruct(L, control, bytes, size - 1);
  } else {
    FuzzMsgpack(L, control, bytes, size - 1);
  }
  lua_settop(L, 0);
  return 0;
}
