// LoadChunk and the sandbox's loadstring/load. Stock lua_load picks the undumper when the
// first byte of the stream is 0x1b; a reader that hands the parser one space first keeps it
// on the text parser, which then reads the chunk exactly as Redis's patched Lua does.
#include "scripting/lua_chunk.h"

namespace plinth::scripting {
namespace {

// A string's bytes in one piece, after the space when the string starts like bytecode.
struct BufferReader {
  const char* data;
  size_t len;
  bool space_first;
};

const char* ReadBuffer(lua_State*, void* ud, size_t* size) {
  auto* r = static_cast<BufferReader*>(ud);
  if (r->space_first) {
    r->space_first = false;
    *size = 1;
    return " ";
  }
  if (r->len == 0) return nullptr;
  *size = r->len;
  r->len = 0;
  return r->data;
}

// load(fn): the pieces fn returns, kept in stack slot 3 while the parser reads them (as the
// stock generic_reader does), with the same space before a first piece that starts with 0x1b.
enum class ReaderState { kFirst, kPiecePending, kRest };

struct FunctionReader {
  ReaderState state = ReaderState::kFirst;
  size_t total = 0;
};

const char* ReadFunction(lua_State* L, void* ud, size_t* size) {
  auto* r = static_cast<FunctionReader*>(ud);
  if (r->state == ReaderState::kPiecePending) {
    r->state = ReaderState::kRest;
    return lua_tolstring(L, 3, size);
  }
  luaL_checkstack(L, 2, "too many nested functions");
  lua_pushvalue(L, 1);
  lua_call(L, 0, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    *size = 0;
    return nullptr;
  }
  if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
  lua_replace(L, 3);
  const char* piece = lua_tolstring(L, 3, size);
  r->total += *size;
  if (r->total > kMaxChunkBytes)
    luaL_error(L, "chunk too large (more than %d bytes)", static_cast<int>(kMaxChunkBytes));
  if (r->state == ReaderState::kFirst) {
    r->state = ReaderState::kRest;
    if (*size > 0 && piece[0] == LUA_SIGNATURE[0]) {
      r->state = ReaderState::kPiecePending;
      *size = 1;
      return " ";
    }
  }
  return piece;
}

// loadstring/load's results: the function, or nil and the message.
int LoadResult(lua_State* L, int status) {
  if (status == 0) return 1;
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

}  // namespace

int LoadChunk(lua_State* L, const char* code, size_t len, const char* chunkname) {
  if (len > kMaxChunkBytes) {
    lua_pushfstring(L, "chunk too large (more than %d bytes)", static_cast<int>(kMaxChunkBytes));
    return LUA_ERRSYNTAX;
  }
  // The parser interns chunkname and holds the string only in C until its first prototype
  // exists; the copy on the stack is the same interned string, so a collection cannot free it.
  lua_pushstring(L, chunkname);
  BufferReader reader{code, len, len > 0 && code[0] == LUA_SIGNATURE[0]};
  int status = lua_load(L, ReadBuffer, &reader, chunkname);
  lua_remove(L, -2);
  return status;
}

int LuaLoadString(lua_State* L) {
  size_t len = 0;
  const char* code = luaL_checklstring(L, 1, &len);
  const char* chunkname = luaL_optstring(L, 2, code);
  return LoadResult(L, LoadChunk(L, code, len, chunkname));
}

int LuaLoad(lua_State* L) {
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 3);
  // The reader runs script code (which may collect garbage) before the parser has anchored
  // the chunk name: keep it on the stack (CVE-2025-49844).
  lua_pushstring(L, chunkname);
  FunctionReader reader;
  return LoadResult(L, lua_load(L, ReadFunction, &reader, chunkname));
}

}  // namespace plinth::scripting
