// Conversions between command replies and Lua values, with Redis 7.0's rules:
// a reply (as the host's item stream) becomes a Lua value for redis.call, and a script's
// return value becomes the EVAL/FCALL reply. Both run inside Lua (they may raise a Lua
// memory error) and hold no C++ object with a destructor. THREAD: main.
#ifndef PLINTH_SCRIPTING_LUA_REPLY_H
#define PLINTH_SCRIPTING_LUA_REPLY_H

#include <cstddef>
#include <cstdint>
#include <lua.hpp>

namespace plinth::scripting {

// One reply item as heard from call_command, its bytes in an arena (data at arena + off).
struct ReplyItem {
  uint32_t type = 0;  // PLINTH_REPLY_*
  int64_t integer = 0;
  double dbl = 0;
  size_t off = 0;
  size_t len = 0;
  char ext[4] = {0, 0, 0, 0};  // verbatim format
};

// Pushes the Lua form of the reply items[0..n) describe. RESP2 (resp3 false): integer ->
// number, bulk -> string, null bulk / null array -> false, array -> table, status -> {ok=},
// error -> {err=}; RESP3 types a RESP2 client would get flattened are flattened the same way
// (map -> array of pairs, set -> array, double -> its text, bool -> 1/0, verbatim and big
// number -> string). RESP3: null -> nil, bool -> boolean, map -> {map={}}, set -> {set={}},
// double -> {double=}, big number -> {big_number=}, verbatim -> {verbatim_string={format=,
// string=}}. Pushes nil for an empty stream.
void PushReplyItems(lua_State* L, const ReplyItem* items, size_t n, const char* arena, bool resp3);

// Where a script's return value goes (the caller's reply).
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  virtual void Simple(const char* s, size_t len) = 0;
  virtual void Error(const char* s, size_t len) = 0;  // "CODE message"
  virtual void Integer(int64_t v) = 0;
  virtual void Bulk(const char* s, size_t len) = 0;
  virtual void Null() = 0;
  virtual void Array(int64_t n) = 0;
  virtual void Map(int64_t n) = 0;
  virtual void Set(int64_t n) = 0;
  virtual void Double(double v) = 0;
  virtual void Bool(bool v) = 0;
  virtual void Verbatim(const char* fmt, const char* s, size_t len) = 0;
  virtual void BigNumber(const char* s, size_t len) = 0;
};

// Converts the value at the top of L's stack into a reply on sink and pops it. resp3: the
// script called redis.setresp(3) (booleans then stay booleans; else true -> 1, false -> null).
void EmitLuaValue(lua_State* L, ReplySink* sink, bool resp3);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_LUA_REPLY_H
