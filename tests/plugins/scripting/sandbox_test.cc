// The sandbox: missing libraries, read-only globals and tables, Redis's error texts.
#include "scripting_fixture.h"

using plinth::scripting::test::Fixture;

TEST_CASE_FIXTURE(Fixture, "sandbox: undeclared globals and file access are refused") {
  CHECK(Eval("return x") ==
        "(error) ERR user_script:1: Script attempted to access nonexistent global variable 'x' "
        "script: 03c387736bb5cc009ff35151572cee04677aa374, on @user_script:1.");
  for (const char* name : {"os", "io", "print", "dofile", "loadfile", "require", "module",
                           "setfenv", "getfenv", "newproxy", "debug"}) {
    std::string r = Eval(std::string("return type(") + name + ")");
    CHECK_MESSAGE(r.find("nonexistent global variable") != std::string::npos, name);
  }
  CHECK(Eval("return loadstring('return 5')()") == "(integer) 5");
  CHECK(Eval("return cjson.encode({1,2})") == "\"[1,2]\"");
  CHECK(Eval("return bit.band(7,3)") == "(integer) 3");
}

TEST_CASE_FIXTURE(Fixture, "sandbox: globals and library tables are read-only") {
  CHECK(Eval("x = 1") ==
        "(error) ERR user_script:1: Attempt to modify a readonly table script: "
        "34bce5f775de97f557a34088509c8bfe1ea17e52, on @user_script:1.");
  CHECK(Eval("rawset(_G, 'x', 1)") ==
        "(error) ERR Attempt to modify a readonly table script: "
        "e2c706419da183d6229a1230c3be09cc32cdeee0, on @user_script:1.");
  CHECK(Eval("string.x = 1").find("Attempt to modify a readonly table") != std::string::npos);
  CHECK(Eval("getmetatable('').__index = {}").find("readonly") != std::string::npos);
  CHECK(Eval("return getmetatable('').__index == string") == "(integer) 1");
  CHECK(Eval("local n = 0 for k in pairs(_G) do n = n + 1 end return n") == "(integer) 35");
  CHECK(Eval("return string.rep('x', 3)") == "\"xxx\"");
}

TEST_CASE_FIXTURE(Fixture, "sandbox: math.random follows redis-server's sequence") {
  CHECK(Eval("math.randomseed(1) return math.random(100)") == "(integer) 5");
}

TEST_CASE_FIXTURE(Fixture, "sandbox: memory exhaustion fails the script cleanly") {
  REQUIRE(host.SetOption("scripting.max-memory", "8mb"));
  std::string r = Eval("local t = {} for i = 1, 1e8 do t[i] = i end return 1");
  CHECK(r.find("not enough memory") != std::string::npos);
  CHECK(Eval("return 1") == "(integer) 1");
}
