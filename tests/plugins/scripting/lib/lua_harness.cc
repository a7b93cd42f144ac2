// Test helpers for the Lua libraries (lua_harness.h).
#include "lua_harness.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "scripting/lib/cmsgpack.h"
#include "scripting/lib/struct.h"

namespace plinth::scripting {
namespace {

const std::string kCaseDir = PLINTH_TEST_SOURCE_DIR "/tests/plugins/scripting/lib/cases/";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

LuaForTest::LuaForTest() : L_(luaL_newstate()) {
  REQUIRE(L_ != nullptr);
  luaL_openlibs(L_);
  lua_pushcfunction(L_, plinth_luaopen_cmsgpack);
  lua_call(L_, 0, 0);
  lua_pushcfunction(L_, plinth_luaopen_struct);
  lua_call(L_, 0, 0);
}

LuaForTest::~LuaForTest() { lua_close(L_); }

std::string LuaForTest::Run(const std::string& chunk) {
  int top = lua_gettop(L_);
  std::string result;
  if (luaL_loadbuffer(L_, chunk.data(), chunk.size(), "@user_script") != 0 ||
      lua_pcall(L_, 0, 1, 0) != 0) {
    const char* message = lua_tostring(L_, -1);
    result = std::string("FAIL ") + (message ? message : "(no message)");
  } else {
    lua_getglobal(L_, "tostring");
    lua_insert(L_, -2);
    lua_call(L_, 1, 1);
    result = lua_tostring(L_, -1);
  }
  lua_settop(L_, top);
  return result;
}

std::string LuaForTest::Eval(const std::string& expr) {
  static const std::string prelude = ReadFile(kCaseDir + "prelude.lua");
  return Run(prelude + " return OUT(" + expr + ")");
}

std::vector<RecordedCase> LoadCasesForTest(const std::string& name) {
  std::istringstream in(ReadFile(kCaseDir + name));
  std::vector<RecordedCase> cases;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    number++;
    if (line.empty() || line.rfind("--", 0) == 0) continue;
    if (line[0] == '=') {
      REQUIRE_MESSAGE(!cases.empty(), name << ":" << number << ": answer without a case");
      cases.back().expected = line.size() > 2 ? line.substr(2) : "";
    } else {
      cases.push_back({number, line, ""});
    }
  }
  return cases;
}

}  // namespace plinth::scripting
