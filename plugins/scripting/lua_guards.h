// Checked versions of the sandbox's library functions whose stock code (Debian's liblua5.1,
// lua-bitop 1.0.2, lua-cjson 2.1.0) crashes or corrupts memory on some script input, the
// published triggers of Redis's Lua CVEs among them. Each guard refuses or corrects the
// input, then runs the stock function in its own frame, so error texts and positions stay
// those of the stock function. THREAD: the state's (main).
#ifndef PLINTH_SCRIPTING_LUA_GUARDS_H
#define PLINTH_SCRIPTING_LUA_GUARDS_H

#include <cstddef>
#include <cstdint>
#include <lua.hpp>

namespace plinth::scripting {

// cjson.encode refuses a value whose encoding could need a buffer past this: lua-cjson 2.1.0
// sizes its buffer in int and reserves 6 bytes per string byte before escaping, so a string
// of 341 MiB wraps the size (CVE-2022-24834) and a total past 2 GiB ends the process. The
// bound keeps its buffer (1023 << k bytes) at most 1023 MiB.
inline constexpr uint64_t kMaxJsonEncodeReserve = (uint64_t{1023} << 20) - 1;
// cjson.decode refuses longer text: it allocates a buffer of the text's length, in int.
inline constexpr size_t kMaxJsonDecodeBytes = size_t{1} << 30;
// string.find/match/gmatch/gsub refuse a pattern whose matcher could recurse deeper (one
// level per quantified item and per capture bracket): Lua 5.1 has no bound and overflows the
// C stack; Lua 5.2+ stop at this depth with the same message ("pattern too complex").
inline constexpr int kMaxPatternDepth = 200;

// table.insert refuses a position below -kMaxInsertBelowOne (Lua 5.1 loops from #t + 1 down
// to it, in C, where the busy-script hook cannot stop it; the sandbox's insert wrapper checks).
inline constexpr int kMaxInsertBelowOne = 1 << 20;

// Replaces, in the globals at LUA_GLOBALSINDEX and the library tables already opened in
// them: unpack, loadstring, load, string.rep/find/match/gmatch/gfind/gsub, bit.tohex and
// cjson.encode/decode/new, and removes string.dump. Call once while building a sandbox,
// before its tables are made read-only. Raises a Lua error on memory exhaustion.
void InstallGuards(lua_State* L);

// The deepest recursion Lua 5.1's matcher can reach for pattern (a C string: the matcher
// stops at the first NUL). Exposed for tests. Pure.
int PatternDepth(const char* pattern, size_t len);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_LUA_GUARDS_H
