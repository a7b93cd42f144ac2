// The guards. A guard is a C closure whose upvalues are the stock function's own upvalues
// (lua-cjson keeps its configuration there) followed by a userdata holding the stock function;
// the guard calls that function directly, in its own frame, once the input is safe.
#include "scripting/lua_guards.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "scripting/lua_chunk.h"
#include "scripting/lua_sandbox.h"

namespace plinth::scripting {
namespace {

constexpr size_t kNoEnd = static_cast<size_t>(-1);

// The stock function kept in upvalue n of the running guard.
lua_CFunction Stock(lua_State* L, int n) {
  return *static_cast<lua_CFunction*>(lua_touserdata(L, lua_upvalueindex(n)));
}

// Replaces table[name] (table: an absolute index) by guard: a closure whose upvalues are the
// stock function's own, then a userdata holding the stock function, then the extra values
// the caller left at the top of the stack (popped). Raises an error when the stock function
// is not a C function with expected upvalues: a build of the library that keeps its state
// elsewhere would not work behind the guard.
void Guard(lua_State* L, int table, const char* name, lua_CFunction guard, int expected,
           int extra = 0) {
  lua_getfield(L, table, name);
  const int stock = lua_gettop(L);
  if (!lua_iscfunction(L, stock)) luaL_error(L, "%s is not a C function", name);
  int n = 0;
  while (lua_getupvalue(L, stock, n + 1)) ++n;
  if (n != expected) luaL_error(L, "%s has %d upvalues, not %d", name, n, expected);
  *static_cast<lua_CFunction*>(lua_newuserdata(L, sizeof(lua_CFunction))) =
      lua_tocfunction(L, stock);
  for (int i = 0; i < extra; ++i) lua_pushvalue(L, stock - extra + i);
  lua_pushcclosure(L, guard, n + 1 + extra);
  lua_setfield(L, table, name);
  lua_pop(L, 1 + extra);
}

// A memory error exactly like the allocator's own: ask it for more than the cap leaves.
[[noreturn]] void RaiseMemoryError(lua_State* L, const LuaMemory& mem) {
  lua_newuserdata(L, mem.limit + 1);
  lua_error(L);  // not reached: the allocation above raised LUA_ERRMEM
  __builtin_unreachable();
}

// ---- base --------------------------------------------------------------------------------

// unpack with the element count computed in 64 bits: the stock one computes e - i + 1 in int,
// which wraps for unpack({}, -2, 2^31 - 1) and pushes until the process dies
// (CVE-2025-46817).
int Unpack(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const int first = luaL_optint(L, 2, 1);
  const int last = lua_isnoneornil(L, 3) ? static_cast<int>(lua_objlen(L, 1)) : luaL_checkint(L, 3);
  if (first > last) return 0;
  const int64_t n = int64_t{last} - first + 1;
  if (n >= INT_MAX || !lua_checkstack(L, static_cast<int>(n)))
    return luaL_error(L, "too many results to unpack");
  for (int64_t i = first; i <= last; ++i) lua_rawgeti(L, 1, static_cast<int>(i));
  return static_cast<int>(n);
}

// ---- string ------------------------------------------------------------------------------

// string.rep: no loop for an empty result (the stock one appends "" n times, up to 2^31
// times with no hook to stop it), and the memory cap's error at once for a result that
// cannot fit (the stock one would build it byte by byte first).
int StringRep(lua_State* L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  const int n = luaL_checkint(L, 2);
  if (len == 0 || n <= 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  void* ud = nullptr;
  lua_getallocf(L, &ud);  // a sandbox's allocator data is its LuaMemory
  const auto* mem = static_cast<const LuaMemory*>(ud);
  if (mem->limit) {
    const size_t room = mem->limit - std::min(mem->used, mem->limit);
    if (static_cast<size_t>(n) > room / len) RaiseMemoryError(L, *mem);
  }
  return Stock(L, 1)(L);
}

// Raises "pattern too complex" when argument 2 is a pattern the matcher may recurse on too
// deeply (numbers have no special characters; other types fail in the stock function).
void CheckPattern(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) return;
  size_t len = 0;
  const char* p = lua_tolstring(L, 2, &len);
  if (PatternDepth(p, len) > kMaxPatternDepth) luaL_error(L, "pattern too complex");
}

int StringFind(lua_State* L) {
  if (!lua_toboolean(L, 4)) CheckPattern(L);  // a plain find does not match patterns
  return Stock(L, 1)(L);
}

int StringPattern(lua_State* L) {  // match, gmatch, gfind, gsub
  CheckPattern(L);
  return Stock(L, 1)(L);
}

// Index just past the single-character class at p[i] (Lua 5.1's classEnd), or kNoEnd when
// the pattern is malformed there (the matcher raises its error on reaching it).
size_t ClassEnd(const char* p, size_t n, size_t i) {
  const char c = p[i++];
  if (c == '%') return i < n ? i + 1 : kNoEnd;
  if (c != '[') return i;
  if (i < n && p[i] == '^') ++i;
  do {  // the first character after '[' or "[^" is a member even when it is ']'
    if (i >= n) return kNoEnd;
    if (p[i++] == '%' && i < n) ++i;
  } while (i >= n || p[i] != ']');
  return i + 1;
}

// ---- bit ---------------------------------------------------------------------------------

// lua-bitop's barg: a number to 32 bits through the 2^52 + 2^51 rounding trick.
uint32_t BitArg(lua_State* L, int idx) {
  const lua_Number n = lua_tonumber(L, idx) + 6755399441055744.0;
  uint64_t bits = 0;
  std::memcpy(&bits, &n, sizeof bits);
  return static_cast<uint32_t>(bits);
}

// bit.tohex: a width of INT32_MIN stays negative after negation in the stock code, which
// then pushes a string of (size_t)INT32_MIN bytes from an 8-byte buffer (CVE-2024-31449).
// Redis's fix reads it as INT32_MIN + 1: 8 upper-case digits.
int BitToHex(lua_State* L) {
  if (lua_isnumber(L, 2) && static_cast<int32_t>(BitArg(L, 2)) == INT32_MIN) {
    lua_pushnumber(L, -2147483647.0);
    lua_replace(L, 2);
  }
  return Stock(L, 1)(L);
}

// ---- cjson -------------------------------------------------------------------------------

void GuardJsonTable(lua_State* L, int table);

// What lua-cjson's encoder will do, read from its configuration functions.
struct JsonWalk {
  int max_depth = 1000;
  bool sparse_convert = false;
  int sparse_ratio = 2;
  int sparse_safe = 10;
  uint64_t reserved = 0;  // bytes the encoder may have asked its buffer for so far
  int failed_depth = 0;   // kTooDeep: the depth where the stack ran out
};

enum class WalkResult { kContinue, kEncoderFails, kTooLarge, kTooDeep };

WalkResult Reserve(JsonWalk* w, uint64_t n) {
  w->reserved += n;
  return w->reserved > kMaxJsonEncodeReserve ? WalkResult::kTooLarge : WalkResult::kContinue;
}

WalkResult WalkValue(lua_State* L, JsonWalk* w, int depth);

// lua-cjson's lua_array_length on the table at the top: the array length, or -1 for an
// object; *fails when it raises "excessively sparse array". Its int conversion of a key past
// INT_MAX is kept (x86-64 gives INT_MIN), so the same tables count as arrays. *items: the
// number of positive integer keys.
int JsonArrayLength(lua_State* L, const JsonWalk& w, bool* fails, int* items_out) {
  int max = 0;
  int& items = *items_out;
  items = 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    double k = 0;
    if (lua_type(L, -2) == LUA_TNUMBER && (k = lua_tonumber(L, -2)) != 0 && std::floor(k) == k &&
        k >= 1) {
      if (k > max) max = k < 2147483648.0 ? static_cast<int>(k) : INT_MIN;
      ++items;
      lua_pop(L, 1);
      continue;
    }
    lua_pop(L, 2);
    return -1;
  }
  const int scaled =
      static_cast<int>(static_cast<uint32_t>(items) * static_cast<uint32_t>(w.sparse_ratio));
  if (w.sparse_ratio > 0 && max > scaled && max > w.sparse_safe) {
    *fails = !w.sparse_convert;
    return -1;
  }
  return max;
}

int CompareInts(const void* a, const void* b) {
  const int x = *static_cast<const int*>(a), y = *static_cast<const int*>(b);
  return (x > y) - (x < y);
}

// Slots 1..len of a sparse array at the top, holding items positive integer keys: the
// missing slots (a comma and "null" each) counted in one step, then the present ones in
// index order. The encoder visits every slot, so {[2^28] = 1} with the sparse check off
// would otherwise take 2^28 steps here before taking them there.
WalkResult WalkSparseArray(lua_State* L, JsonWalk* w, int depth, int len, int items) {
  auto* keys = static_cast<int*>(lua_newuserdata(L, sizeof(int) * static_cast<size_t>(items)));
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    lua_pop(L, 1);
    const lua_Number k = lua_tonumber(L, -1);
    if (k <= len && n < items) keys[n++] = static_cast<int>(k);
  }
  std::qsort(keys, static_cast<size_t>(n), sizeof(int), CompareInts);
  WalkResult r = Reserve(w, 5 * static_cast<uint64_t>(len - n));
  for (int j = 0; j < n && r == WalkResult::kContinue; ++j) {
    r = Reserve(w, 1);  // a comma
    if (r != WalkResult::kContinue) break;
    lua_rawgeti(L, -2, keys[j]);
    r = WalkValue(L, w, depth);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);  // the keys
  return r;
}

// The table at the top, entered at depth: the encoder's traversal (array slots in index
// order, object pairs in lua_next order), so that it stops where the encoder raises an
// error, having counted everything the encoder writes before it. It uses no more stack per
// level than the encoder (one more slot per sparse array level); when the stack runs out
// first here, the caller refuses with the encoder's own words.
WalkResult WalkTable(lua_State* L, JsonWalk* w, int depth) {
  if (depth > w->max_depth) return WalkResult::kEncoderFails;
  if (!lua_checkstack(L, 3)) {
    w->failed_depth = depth;
    return WalkResult::kTooDeep;
  }
  bool fails = false;
  int items = 0;
  const int len = JsonArrayLength(L, *w, &fails, &items);
  if (fails) return WalkResult::kEncoderFails;
  WalkResult r = Reserve(w, 2);  // the brackets
  if (r != WalkResult::kContinue) return r;
  if (len > 0) {
    if (len / 2 > items) return WalkSparseArray(L, w, depth, len, items);
    for (int64_t i = 1; i <= len && r == WalkResult::kContinue; ++i) {
      r = Reserve(w, 1);  // a comma
      if (r != WalkResult::kContinue) break;
      lua_rawgeti(L, -1, static_cast<int>(i));
      r = WalkValue(L, w, depth);
      lua_pop(L, 1);
    }
    return r;
  }
  lua_pushnil(L);
  while (r == WalkResult::kContinue && lua_next(L, -2)) {
    const int key_type = lua_type(L, -2);
    if (key_type == LUA_TNUMBER)
      r = Reserve(w, 1 + 32 + 2 + 1);  // '"' number '":' and a comma
    else if (key_type == LUA_TSTRING)
      r = Reserve(w, 6 * uint64_t{lua_objlen(L, -2)} + 2 + 1 + 1);
    else
      r = WalkResult::kEncoderFails;
    if (r == WalkResult::kContinue) r = WalkValue(L, w, depth);
    lua_pop(L, r == WalkResult::kContinue ? 1 : 2);
  }
  return r;
}

// The value at the top (left there): what json_append_data reserves for it.
WalkResult WalkValue(lua_State* L, JsonWalk* w, int depth) {
  switch (lua_type(L, -1)) {
    case LUA_TSTRING:
      return Reserve(w, 6 * uint64_t{lua_objlen(L, -1)} + 2);  // every byte as \u00XX
    case LUA_TNUMBER:
      return Reserve(w, 32);
    case LUA_TBOOLEAN:
    case LUA_TNIL:
      return Reserve(w, 5);
    case LUA_TLIGHTUSERDATA:  // cjson.null
      return lua_touserdata(L, -1) ? WalkResult::kEncoderFails : Reserve(w, 4);
    case LUA_TTABLE:
      return WalkTable(L, w, depth + 1);
    default:
      return WalkResult::kEncoderFails;
  }
}

// cjson.encode. Upvalues: 1 the configuration, 2 the stock encode, 3 encode_max_depth,
// 4 encode_sparse_array (called without arguments, they report the current settings).
int JsonEncode(lua_State* L) {
  if (lua_gettop(L) == 1) {
    JsonWalk w;
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_call(L, 0, 1);
    w.max_depth = static_cast<int>(lua_tointeger(L, -1));
    lua_pushvalue(L, lua_upvalueindex(4));
    lua_call(L, 0, 3);
    w.sparse_convert = lua_toboolean(L, -3);
    w.sparse_ratio = static_cast<int>(lua_tointeger(L, -2));
    w.sparse_safe = static_cast<int>(lua_tointeger(L, -1));
    lua_settop(L, 1);
    switch (WalkValue(L, &w, 0)) {
      case WalkResult::kTooLarge:
        return luaL_error(L, "Cannot serialise, the encoding could exceed %d bytes",
                          static_cast<int>(kMaxJsonEncodeReserve));
      case WalkResult::kTooDeep:
        return luaL_error(L, "Cannot serialise, excessive nesting (%d)", w.failed_depth);
      default:
        break;
    }
  }
  return Stock(L, 2)(L);
}

int JsonDecode(lua_State* L) {  // upvalues: 1 the configuration, 2 the stock decode
  if (lua_gettop(L) == 1 && lua_type(L, 1) == LUA_TSTRING && lua_objlen(L, 1) > kMaxJsonDecodeBytes)
    return luaL_error(L, "JSON text too large (more than %d bytes)",
                      static_cast<int>(kMaxJsonDecodeBytes));
  return Stock(L, 2)(L);
}

// cjson.new: a fresh cjson table with a configuration of its own, guarded in turn.
int JsonNew(lua_State* L) {
  const int results = Stock(L, 2)(L);
  GuardJsonTable(L, lua_gettop(L));
  return results;
}

void GuardJsonTable(lua_State* L, int table) {
  Guard(L, table, "decode", JsonDecode, 1);
  Guard(L, table, "new", JsonNew, 1);
  lua_getfield(L, table, "encode_max_depth");
  lua_getfield(L, table, "encode_sparse_array");
  if (!lua_iscfunction(L, -1) || !lua_iscfunction(L, -2))
    luaL_error(L, "cjson has no encode_max_depth / encode_sparse_array");
  Guard(L, table, "encode", JsonEncode, 1, 2);
}

}  // namespace

int PatternDepth(const char* pattern, size_t len) {
  const size_t n = strnlen(pattern, len);
  size_t i = (n > 0 && pattern[0] == '^') ? 1 : 0;
  int depth = 0;
  while (i < n && depth <= kMaxPatternDepth) {
    const char c = pattern[i];
    if (c == '(' || c == ')') {  // start_capture / end_capture recurse
      ++depth;
      ++i;
      continue;
    }
    if (c == '%' && i + 1 < n) {
      const char e = pattern[i + 1];
      if (e == 'b') {  // %bxy: no recursion
        i += 4;
        continue;
      }
      if (e >= '0' && e <= '9') {  // a back reference: no recursion
        i += 2;
        continue;
      }
      if (e == 'f') {  // %f[set]: no recursion
        i += 2;
        if (i >= n || pattern[i] != '[') break;
        i = ClassEnd(pattern, n, i);
        if (i == kNoEnd) break;
        continue;
      }
    }
    size_t end = ClassEnd(pattern, n, i);
    if (end == kNoEnd) break;
    if (end < n && std::strchr("?*+-", pattern[end])) {
      ++depth;  // one match() level per quantified item
      ++end;
    }
    i = end;
  }
  return depth;
}

void InstallGuards(lua_State* L) {
  lua_pushcfunction(L, Unpack);
  lua_setglobal(L, "unpack");
  lua_pushcfunction(L, LuaLoadString);
  lua_setglobal(L, "loadstring");
  lua_pushcfunction(L, LuaLoad);
  lua_setglobal(L, "load");

  lua_getglobal(L, LUA_STRLIBNAME);
  const int string = lua_gettop(L);
  lua_pushnil(L);  // bytecode would have no use here: scripts cannot load it
  lua_setfield(L, string, "dump");
  Guard(L, string, "rep", StringRep, 0);
  Guard(L, string, "find", StringFind, 0);
  for (const char* name : {"match", "gmatch", "gsub"}) Guard(L, string, name, StringPattern, 0);
  lua_getfield(L, string, "gfind");  // LUA_COMPAT_GFIND's alias of gmatch
  const bool gfind = lua_iscfunction(L, -1);
  lua_pop(L, 1);
  if (gfind) Guard(L, string, "gfind", StringPattern, 0);
  lua_pop(L, 1);

  lua_getglobal(L, "bit");
  Guard(L, lua_gettop(L), "tohex", BitToHex, 0);
  lua_pop(L, 1);

  lua_getglobal(L, "cjson");
  GuardJsonTable(L, lua_gettop(L));
  lua_pop(L, 1);
}

}  // namespace plinth::scripting
