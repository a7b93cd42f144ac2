// Tests of struct (plugins/scripting/lib/struct.c): the answers recorded from redis-server 7.0,
// then round trips over every option at its limits, size against pack, and random formats over
// random bytes.
#include "scripting/lib/struct.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "lua_harness.h"

namespace plinth::scripting {
namespace {

TEST_CASE("struct: every case recorded from redis-server 7.0 gets the same answer") {
  auto cases = LoadCasesForTest("struct.cases");
  CHECK(cases.size() >= 200);
  LuaForTest lua;
  for (const RecordedCase& c : cases) {
    CAPTURE(c.line);
    CAPTURE(c.expr);
    CHECK(lua.Eval(c.expr) == c.expected);
  }
}

TEST_CASE("struct: integer options round-trip their limits in both byte orders") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local limits = {
      b = {-128, 127}, B = {0, 255}, h = {-32768, 32767}, H = {0, 65535},
      i = {-2^31, 2^31 - 1}, I = {0, 2^32 - 1}, l = {-2^53, 2^53}, L = {0, 2^53},
      T = {0, 2^53}, i3 = {-2^23, 2^23 - 1}, I3 = {0, 2^24 - 1}, i7 = {-2^55, 2^55 - 8},
    }
    for opt, range in pairs(limits) do
      for _, order in ipairs({"<", ">", ""}) do
        for _, v in ipairs({range[1], range[2], 0, 1}) do
          local fmt = order .. opt
          local s = struct.pack(fmt, v)
          local got, next = struct.unpack(fmt, s)
          if got ~= v or next ~= #s + 1 or #s ~= struct.size(fmt) then
            return fmt .. " " .. v .. " -> " .. tostring(got)
          end
        end
      end
    end
    return "ok")") == "ok");
}

TEST_CASE("struct: big- and little-endian encodings are byte mirrors") {
  LuaForTest lua;
  CHECK(lua.Eval(R"(H(struct.pack(">I4 <I4", 0x01020304, 0x01020304)))") == "0102030404030201");
  CHECK(lua.Eval(R"(H(struct.pack(">d", 1) .. struct.pack("<d", 1)))") ==
        "3ff0000000000000000000000000f03f");
}

TEST_CASE("struct: size equals the length of pack for formats of fixed size") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local formats = {"b", "!4 b i", "!8 b d h", "!2 b l", "> h c5 x I3", "!8 x x x d", "c9 ! f",
                     "!16 b i16 b", "i0 b i0"}
    for _, fmt in ipairs(formats) do
      local args = {}
      for opt in string.gmatch(fmt, "%a%d*") do
        local kind = string.sub(opt, 1, 1)
        if kind == "c" then args[#args + 1] = string.rep("z", 9)
        elseif kind ~= "x" then args[#args + 1] = 3 end
      end
      local n = #struct.pack(fmt, unpack(args))
      if n ~= struct.size(fmt) then return fmt .. ": " .. n .. " vs " .. struct.size(fmt) end
    end
    return "ok")") == "ok");
}

TEST_CASE("struct: c0 takes its length from the number before it") {
  LuaForTest lua;
  CHECK(lua.Eval(R"(P(struct.unpack, "B c0 B c0", X("03616263 00")))") == "\"abc\" \"\" 6");
  CHECK(lua.Eval(R"(P(struct.unpack, "B c0", X("04616263")))") ==
        "ERR:bad argument #2 to '?' (data string too short)");
}

TEST_CASE("struct: random formats over random bytes unpack or raise a Lua error") {
  LuaForTest lua;
  std::mt19937 rng(7);
  const std::string alphabet = "bBhHlLTiIfdxsc0123456789 <>!=c0c1i9i16z";
  int decoded = 0, failed = 0;
  for (int round = 0; round < 20000; round++) {
    std::string fmt(rng() % 8, ' ');
    for (char& c : fmt) c = alphabet[rng() % alphabet.size()];
    std::string data(rng() % 40, '\0');
    for (char& b : data) b = static_cast<char>(rng() % 4 ? rng() % 256 : 0);
    lua_State* L = lua.state();
    lua_getglobal(L, "struct");
    lua_getfield(L, -1, "unpack");
    lua_pushlstring(L, fmt.data(), fmt.size());
    lua_pushlstring(L, data.data(), data.size());
    lua_pushinteger(L, static_cast<lua_Integer>(rng() % 6) - 1);
    if (lua_pcall(L, 3, LUA_MULTRET, 0) == 0) {
      decoded++;
    } else {
      CHECK(lua_isstring(L, -1));
      failed++;
    }
    lua_settop(L, 0);
  }
  CHECK(decoded > 500);
  CHECK(failed > 500);
}

TEST_CASE("struct: opening sets the global and package.loaded and returns the table") {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(plinth_luaopen_struct(L) == 1);
  CHECK(lua_istable(L, -1));
  lua_getglobal(L, "struct");
  CHECK(lua_rawequal(L, -1, -2));
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "loaded");
  lua_getfield(L, -1, "struct");
  CHECK(lua_rawequal(L, -1, -5));
  lua_close(L);
}

}  // namespace
}  // namespace plinth::scripting
