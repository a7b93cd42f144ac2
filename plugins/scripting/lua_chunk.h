// Compiling script text: every way source enters a Lua state (EVAL, SCRIPT LOAD, FUNCTION
// LOAD, and loadstring/load inside a script) goes through LoadChunk, which never runs
// precompiled bytecode. Redis 7.0 patched its Lua's parser to always parse text; Debian's
// liblua5.1 would undump a chunk starting with "\x1bLua", and a hand-made bytecode chunk can
// read and write memory outside the VM. THREAD: the state's (main).
#ifndef PLINTH_SCRIPTING_LUA_CHUNK_H
#define PLINTH_SCRIPTING_LUA_CHUNK_H

#include <cstddef>
#include <lua.hpp>

namespace plinth::scripting {

// Chunks longer than this are refused: Lua 5.1's lexer keeps some lengths in int (the
// "[====[" level of a long string, CVE-2025-46819), so a 2 GiB chunk can overflow them.
inline constexpr size_t kMaxChunkBytes = size_t{1} << 30;

// Compiles len bytes of code as Lua text under chunkname, as lua_load does: pushes the
// function and returns 0, or pushes the error message and returns LUA_ERRSYNTAX / LUA_ERRMEM.
// A chunk that starts with the bytecode signature's first byte (0x1b) is parsed as text, so
// it fails the way it does in Redis ("unexpected symbol near 'char(27)'"). The chunk name
// stays on the stack while parsing (Lua 5.1 leaves it unanchored: CVE-2025-49844). May raise
// a memory error. Call from inside a protected call.
int LoadChunk(lua_State* L, const char* code, size_t len, const char* chunkname);

// lua_CFunctions replacing the base library's loadstring and load: the stock ones with
// LoadChunk's rules (text only, anchored name, size limit).
int LuaLoadString(lua_State* L);
int LuaLoad(lua_State* L);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_LUA_CHUNK_H
