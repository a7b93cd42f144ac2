// Tests of cmsgpack (plugins/scripting/lib/cmsgpack.c): the answers recorded from redis-server
// 7.0, then properties a table of cases cannot show (every truncation, random bytes, round trips,
// finalizers that pack while a pack runs).
#include "scripting/lib/cmsgpack.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "lua_harness.h"

namespace plinth::scripting {
namespace {

TEST_CASE("cmsgpack: every case recorded from redis-server 7.0 gets the same answer") {
  auto cases = LoadCasesForTest("cmsgpack.cases");
  CHECK(cases.size() >= 200);
  LuaForTest lua;
  for (const RecordedCase& c : cases) {
    CAPTURE(c.line);
    CAPTURE(c.expr);
    CHECK(lua.Eval(c.expr) == c.expected);
  }
}

TEST_CASE("cmsgpack: integers pack in the smallest encoding at every width boundary") {
  struct Width {
    const char* value;
    const char* hex;
  };
  const Width widths[] = {
      {"0", "00"},
      {"127", "7f"},
      {"128", "cc80"},
      {"255", "ccff"},
      {"256", "cd0100"},
      {"65535", "cdffff"},
      {"65536", "ce00010000"},
      {"2^32-1", "ceffffffff"},
      {"2^32", "cf0000000100000000"},
      {"-1", "ff"},
      {"-32", "e0"},
      {"-33", "d0df"},
      {"-128", "d080"},
      {"-129", "d1ff7f"},
      {"-32768", "d18000"},
      {"-32769", "d2ffff7fff"},
      {"-2^31", "d280000000"},
      {"-2^31-1", "d3ffffffff7fffffff"},
      {"-2^63", "d38000000000000000"},
  };
  LuaForTest lua;
  for (const Width& w : widths) {
    CAPTURE(w.value);
    CHECK(lua.Eval(std::string("H(cmsgpack.pack(") + w.value + "))") == w.hex);
    // Unpacking gives the same number back.
    CHECK(lua.Eval(std::string("cmsgpack.unpack(cmsgpack.pack(") + w.value + ")) == " + w.value) ==
          "true");
  }
}

TEST_CASE("cmsgpack: numbers with a fraction pack as float32 only when that is exact") {
  LuaForTest lua;
  CHECK(lua.Eval("H(cmsgpack.pack(0.5))") == "ca3f000000");
  CHECK(lua.Eval("H(cmsgpack.pack(0.1))") == "cb3fb999999999999a");
  CHECK(lua.Eval("H(cmsgpack.pack(1/0))") == "ca7f800000");
  CHECK(lua.Eval("H(cmsgpack.pack(2^64))") == "ca5f800000");
  CHECK(lua.Eval("H(cmsgpack.pack(-0.0))") == "00");  // an integer, as in Redis
}

TEST_CASE("cmsgpack: every truncation of a valid encoding is a 'Missing bytes' error") {
  LuaForTest lua;
  std::string result = lua.Run(R"(
    local s = cmsgpack.pack({1, -200, 70000, 2^40, 0.5, 0.1, "short", string.rep("s", 40),
                             string.rep("m", 300), {a = {true, false}}, {}})
    for cut = 1, #s - 1 do
      local ok, err = pcall(cmsgpack.unpack, string.sub(s, 1, cut))
      if ok or not string.find(err, "Missing bytes in input.", 1, true) then
        return "cut " .. cut .. ": " .. tostring(err)
      end
    end
    return "all " .. (#s - 1))");
  CHECK(result.rfind("all ", 0) == 0);
  INFO(result);
  CHECK(std::stoi(result.substr(4)) > 300);
}

TEST_CASE("cmsgpack: random bytes either decode or raise a Lua error, never crash") {
  LuaForTest lua;
  std::mt19937 rng(20240611);
  // Bytes drawn mostly from the tags, so that containers and lengths are common.
  const unsigned char tags[] = {0x00, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x91, 0x9f, 0xa0, 0xa3, 0xbf,
                                0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
                                0xd0, 0xd3, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff};
  int decoded = 0, failed = 0;
  for (int round = 0; round < 20000; round++) {
    std::string bytes(rng() % 24, '\0');
    for (char& b : bytes) {
      b = static_cast<char>(rng() % 2 ? tags[rng() % sizeof tags] : rng() % 256);
    }
    lua_State* L = lua.state();
    lua_getglobal(L, "cmsgpack");
    lua_getfield(L, -1,
                 round % 3 == 0 ? "unpack" : (round % 3 == 1 ? "unpack_one" : "unpack_limit"));
    lua_pushlstring(L, bytes.data(), bytes.size());
    lua_pushinteger(L, static_cast<lua_Integer>(rng() % 4));
    lua_pushinteger(L, static_cast<lua_Integer>(rng() % 4));
    if (lua_pcall(L, round % 3 == 0 ? 1 : 3, LUA_MULTRET, 0) == 0) {
      decoded++;
    } else {
      CHECK(lua_isstring(L, -1));
      failed++;
    }
    lua_settop(L, 0);
  }
  CHECK(decoded > 1000);
  CHECK(failed > 1000);
}

TEST_CASE("cmsgpack: pack then unpack gives back equal nested values") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local function same(a, b)
      if type(a) ~= type(b) then return false end
      if type(a) ~= "table" then return a == b end
      for k, v in pairs(a) do if not same(v, b[k]) then return false end end
      for k in pairs(b) do if a[k] == nil then return false end end
      return true
    end
    local values = {0, 1, -1, 2^31, -2^31 - 1, 2^52 + 1, 0.25, -1e300, 1/0, "", "a\0b",
                    string.rep("x", 70000), true, false, {}, {1, 2, {3, {4}}},
                    {k = "v", [7] = {x = {y = {}}}, [-1] = true, [2.5] = "f"}}
    for i, v in ipairs(values) do
      if not same(cmsgpack.unpack(cmsgpack.pack(v)), v) then return "differs at " .. i end
    end
    local all = {cmsgpack.unpack(cmsgpack.pack(unpack(values)))}
    for i, v in ipairs(values) do
      if not same(all[i], v) then return "multi differs at " .. i end
    end
    return "ok")") == "ok");
}

TEST_CASE("cmsgpack: unpack_one walks a stream object by object") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local s = cmsgpack.pack(1, {2, 3}, "four", {five = 5})
    local offset, seen = 0, {}
    while offset ~= -1 do
      local v
      offset, v = cmsgpack.unpack_one(s, offset)
      seen[#seen + 1] = type(v)
    end
    return table.concat(seen, ","))") == "number,table,string,table");
}

TEST_CASE("cmsgpack: cyclic tables pack as 16 levels then nil") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local a, b = {}, {}
    a.next, b.next = b, a
    local t = cmsgpack.unpack(cmsgpack.pack(a))
    local depth = 0
    while type(t) == "table" do depth, t = depth + 1, t.next end
    return depth)") == "16");
}

TEST_CASE("cmsgpack: a finalizer that packs while a pack runs does not disturb it") {
  LuaForTest lua;
  CHECK(lua.Run(R"(
    local big = {}
    for i = 1, 2000 do big[i] = {i, string.rep("v", i % 50), {k = i}} end
    collectgarbage("stop")
    local want = cmsgpack.pack(big, big)
    collectgarbage("restart")
    collectgarbage("setpause", 50)
    collectgarbage("setstepmul", 1000)
    for round = 1, 20 do
      for i = 1, 200 do
        local p = newproxy(true)
        getmetatable(p).__gc = function() cmsgpack.pack({string.rep("g", 5000)}, big[1]) end
      end
      if cmsgpack.pack(big, big) ~= want then return "differs in round " .. round end
    end
    return "ok")") == "ok");
}

TEST_CASE("cmsgpack: opening sets the global and package.loaded and returns the table") {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(plinth_luaopen_cmsgpack(L) == 1);
  CHECK(lua_istable(L, -1));
  lua_getglobal(L, "cmsgpack");
  CHECK(lua_rawequal(L, -1, -2));
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "loaded");
  lua_getfield(L, -1, "cmsgpack");
  CHECK(lua_rawequal(L, -1, -5));
  lua_close(L);
}

}  // namespace
}  // namespace plinth::scripting
