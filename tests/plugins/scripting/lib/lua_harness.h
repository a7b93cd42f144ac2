// Test helpers for the Lua libraries: a lua_State opened as a Redis script sees it, and the
// cases recorded from redis-server (cases/*.cases). Used by the tests of this folder only.
#ifndef PLINTH_TESTS_PLUGINS_SCRIPTING_LIB_LUA_HARNESS_H_
#define PLINTH_TESTS_PLUGINS_SCRIPTING_LIB_LUA_HARNESS_H_

#include <lua.hpp>
#include <string>
#include <vector>

namespace plinth::scripting {

// A fresh lua_State with the standard libraries, cmsgpack and struct; closed by the destructor.
class LuaForTest {
 public:
  LuaForTest();
  ~LuaForTest();
  LuaForTest(const LuaForTest&) = delete;
  LuaForTest& operator=(const LuaForTest&) = delete;

  lua_State* state() { return L_; }

  // Runs "chunk" (named "user_script", as in Redis) and returns the value it returns converted
  // by tostring, or "FAIL <message>" when it raises an error. Leaves the stack as it found it.
  std::string Run(const std::string& chunk);

  // Runs "return OUT(<expr>)" after cases/prelude.lua, as cases/record.sh does in Redis.
  std::string Eval(const std::string& expr);

 private:
  lua_State* L_;
};

// One recorded case: the expression, the text redis-server answered, the line of the expression.
struct RecordedCase {
  int line;
  std::string expr;
  std::string expected;
};

// Reads tests/plugins/scripting/lib/cases/<name>. Fails the current test if it cannot.
std::vector<RecordedCase> LoadCasesForTest(const std::string& name);

}  // namespace plinth::scripting

#endif  // PLINTH_TESTS_PLUGINS_SCRIPTING_LIB_LUA_HARNESS_H_
