// Reply <-> Lua conversions (Redis 7.0 script_lua.c semantics).
#include "scripting/lua_reply.h"

#include <plinth/plugin.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace plinth::scripting {
namespace {

constexpr int kMaxDepth = 1000;

void PushFieldTable(lua_State* L, const char* field) {  // value on top -> {field = value}
  lua_newtable(L);
  lua_insert(L, -2);
  lua_setfield(L, -2, field);
}

// Text of a double as a RESP2 client reads it (Redis's addReplyDouble).
void PushDoubleText(lua_State* L, double d) {
  char buf[64];
  int n;
  if (std::isinf(d))
    n = std::snprintf(buf, sizeof buf, "%s", d > 0 ? "inf" : "-inf");
  else
    n = std::snprintf(buf, sizeof buf, "%.17g", d);
  lua_pushlstring(L, buf, static_cast<size_t>(n));
}

void PushOne(lua_State* L, const ReplyItem* items, size_t n, size_t* pos, const char* arena,
             bool resp3, int depth);

// Pushes a table of count elements read from the stream; pairs of a map in RESP3 become
// key = value, set members become member = true.
void PushAggregate(lua_State* L, const ReplyItem* items, size_t n, size_t* pos, const char* arena,
                   bool resp3, int depth, int64_t count, uint32_t kind) {
  luaL_checkstack(L, 4, "reached lua stack limit");
  lua_newtable(L);
  for (int64_t j = 0; j < count; ++j) {
    if (kind == PLINTH_REPLY_MAP && resp3) {
      PushOne(L, items, n, pos, arena, resp3, depth + 1);
      PushOne(L, items, n, pos, arena, resp3, depth + 1);
      if (lua_isnil(L, -2)) {
        lua_pop(L, 2);
      } else {
        lua_settable(L, -3);
      }
    } else if (kind == PLINTH_REPLY_SET && resp3) {
      PushOne(L, items, n, pos, arena, resp3, depth + 1);
      lua_pushboolean(L, 1);
      if (lua_isnil(L, -2)) {
        lua_pop(L, 2);
      } else {
        lua_settable(L, -3);
      }
    } else {
      int64_t per = (kind == PLINTH_REPLY_MAP) ? 2 : 1;
      for (int64_t k = 0; k < per; ++k) {
        lua_pushnumber(L, static_cast<lua_Number>(j * per + k + 1));
        PushOne(L, items, n, pos, arena, resp3, depth + 1);
        lua_settable(L, -3);
      }
    }
  }
  if (resp3 && kind == PLINTH_REPLY_MAP) PushFieldTable(L, "map");
  if (resp3 && kind == PLINTH_REPLY_SET) PushFieldTable(L, "set");
}

void PushOne(lua_State* L, const ReplyItem* items, size_t n, size_t* pos, const char* arena,
             bool resp3, int depth) {
  luaL_checkstack(L, 4, "reached lua stack limit");
  if (*pos >= n || depth > kMaxDepth) {
    lua_pushnil(L);
    return;
  }
  const ReplyItem& it = items[(*pos)++];
  const char* s = arena + it.off;
  switch (it.type) {
    case PLINTH_REPLY_SIMPLE:
      lua_pushlstring(L, s, it.len);
      PushFieldTable(L, "ok");
      break;
    case PLINTH_REPLY_ERROR:
      lua_pushlstring(L, s, it.len);
      PushFieldTable(L, "err");
      break;
    case PLINTH_REPLY_INTEGER:
      lua_pushnumber(L, static_cast<lua_Number>(it.integer));
      break;
    case PLINTH_REPLY_BULK:
      lua_pushlstring(L, s, it.len);
      break;
    case PLINTH_REPLY_NULL:
    case PLINTH_REPLY_NULL_ARRAY:
      if (resp3)
        lua_pushnil(L);
      else
        lua_pushboolean(L, 0);
      break;
    case PLINTH_REPLY_ARRAY:
    case PLINTH_REPLY_PUSH:
      PushAggregate(L, items, n, pos, arena, resp3, depth, it.integer, PLINTH_REPLY_ARRAY);
      break;
    case PLINTH_REPLY_MAP:
    case PLINTH_REPLY_SET:
      PushAggregate(L, items, n, pos, arena, resp3, depth, it.integer, it.type);
      break;
    case PLINTH_REPLY_DOUBLE:
      if (resp3) {
        lua_pushnumber(L, it.dbl);
        PushFieldTable(L, "double");
      } else {
        PushDoubleText(L, it.dbl);
      }
      break;
    case PLINTH_REPLY_BOOL:
      if (resp3)
        lua_pushboolean(L, it.integer != 0);
      else
        lua_pushnumber(L, it.integer ? 1 : 0);
      break;
    case PLINTH_REPLY_BIGNUM:
      lua_pushlstring(L, s, it.len);
      if (resp3) PushFieldTable(L, "big_number");
      break;
    case PLINTH_REPLY_VERBATIM:
      if (resp3) {
        lua_newtable(L);
        lua_pushlstring(L, it.ext, std::strlen(it.ext));
        lua_setfield(L, -2, "format");
        lua_pushlstring(L, s, it.len);
        lua_setfield(L, -2, "string");
        PushFieldTable(L, "verbatim_string");
      } else {
        lua_pushlstring(L, s, it.len);
      }
      break;
    default:
      lua_pushnil(L);
      break;
  }
}

// Copies s into a reply-safe form: CR and LF become spaces (status, error, big number).
void EmitMapped(lua_State* L, int idx, ReplySink* sink, int kind) {
  size_t len = 0;
  const char* s = lua_tolstring(L, idx, &len);
  // A status or error is a C string in Redis, and an error loses the line ends it ends with.
  if (kind != 2) len = strnlen(s, len);
  if (kind == 1)
    while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == '\n')) len--;
  bool clean = std::memchr(s, '\r', len) == nullptr && std::memchr(s, '\n', len) == nullptr;
  if (!clean) {
    // A Lua-owned copy keeps this frame free of C++ objects.
    char* copy = static_cast<char*>(lua_newuserdata(L, len ? len : 1));
    for (size_t i = 0; i < len; ++i) copy[i] = (s[i] == '\r' || s[i] == '\n') ? ' ' : s[i];
    s = copy;
  }
  if (kind == 0)
    sink->Simple(s, len);
  else if (kind == 1)
    sink->Error(s, len);
  else
    sink->BigNumber(s, len);
  if (!clean) lua_pop(L, 1);
}

// Pushes t[field] (raw) and returns its type.
int RawField(lua_State* L, const char* field) {
  lua_pushstring(L, field);
  lua_rawget(L, -2);
  return lua_type(L, -1);
}

void EmitTable(lua_State* L, ReplySink* sink, bool resp3, int depth);

void Emit(lua_State* L, ReplySink* sink, bool resp3, int depth) {
  if (!lua_checkstack(L, 4) || depth > kMaxDepth) {
    const char* m = "ERR reached lua stack limit";
    sink->Error(m, std::strlen(m));
    lua_pop(L, 1);
    return;
  }
  switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      sink->Bulk(s, len);
      break;
    }
    case LUA_TBOOLEAN:
      if (!resp3) {
        if (lua_toboolean(L, -1))
          sink->Integer(1);
        else
          sink->Null();
      } else {
        sink->Bool(lua_toboolean(L, -1) != 0);
      }
      break;
    case LUA_TNUMBER: {
      double d = lua_tonumber(L, -1);
      // (long long) of a NaN or an out-of-range double is what x86-64 gives: INT64_MIN.
      int64_t v = (std::isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
                      ? INT64_MIN
                      : static_cast<int64_t>(d);
      sink->Integer(v);
      break;
    }
    case LUA_TTABLE:
      EmitTable(L, sink, resp3, depth);
      return;  // EmitTable pops
    default:
      sink->Null();
      break;
  }
  lua_pop(L, 1);
}

void EmitTable(lua_State* L, ReplySink* sink, bool resp3, int depth) {
  if (RawField(L, "err") == LUA_TSTRING) {
    EmitMapped(L, -1, sink, 1);
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "ok") == LUA_TSTRING) {
    EmitMapped(L, -1, sink, 0);
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "double") == LUA_TNUMBER) {
    sink->Double(lua_tonumber(L, -1));
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "big_number") == LUA_TSTRING) {
    EmitMapped(L, -1, sink, 2);
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "verbatim_string") == LUA_TTABLE) {
    if (RawField(L, "format") == LUA_TSTRING) {
      lua_pushstring(L, "string");
      lua_rawget(L, -3);
      if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len = 0;
        const char* s = lua_tolstring(L, -1, &len);
        sink->Verbatim(lua_tostring(L, -2), s, len);
        lua_pop(L, 4);
        return;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  bool map = false, set = false;
  if (RawField(L, "map") == LUA_TTABLE) {
    map = true;
  } else {
    lua_pop(L, 1);
    if (RawField(L, "set") == LUA_TTABLE)
      set = true;
    else
      lua_pop(L, 1);
  }
  if (map || set) {
    int64_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      ++count;
      lua_pop(L, 1);
    }
    if (map)
      sink->Map(count);
    else
      sink->Set(count);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (map) {
        lua_pushvalue(L, -2);
        Emit(L, sink, resp3, depth + 1);  // key
        Emit(L, sink, resp3, depth + 1);  // value
      } else {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        Emit(L, sink, resp3, depth + 1);
      }
    }
    lua_pop(L, 2);
    return;
  }
  int64_t count = 0;
  for (;;) {
    lua_rawgeti(L, -1, static_cast<int>(count + 1));
    bool nil = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (nil) break;
    ++count;
  }
  sink->Array(count);
  for (int64_t j = 1; j <= count; ++j) {
    lua_rawgeti(L, -1, static_cast<int>(j));
    Emit(L, sink, resp3, depth + 1);
  }
  lua_pop(L, 1);
}

}  // namespace

void PushReplyItems(lua_State* L, const ReplyItem* items, size_t n, const char* arena, bool resp3) {
  size_t pos = 0;
  PushOne(L, items, n, &pos, arena, resp3, 0);
}

void EmitLuaValue(lua_State* L, ReplySink* sink, bool resp3) { Emit(L, sink, resp3, 0); }

}  // namespace plinth::scripting
