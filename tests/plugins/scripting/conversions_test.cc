// Lua <-> reply conversions (Redis 7.0 rules), RESP2 and RESP3.
#include "scripting_fixture.h"

using plinth::scripting::test::Fixture;

TEST_CASE_FIXTURE(Fixture, "conversions: Lua values become replies") {
  CHECK(Eval("return 3.99") == "(integer) 3");
  CHECK(Eval("return -3.99") == "(integer) -3");
  CHECK(Eval("return true") == "(integer) 1");
  CHECK(Eval("return false") == "(nil)");
  CHECK(Eval("return nil") == "(nil)");
  CHECK(Eval("return {1,2,nil,4}") == "1) (integer) 1\n2) (integer) 2");
  CHECK(Eval("return {ok='x'}") == "x");
  CHECK(Eval("return {err='x'}") == "(error) x");
  CHECK(Eval("return 0/0") == "(integer) -9223372036854775808");
  CHECK(Eval("return {double=1.5}") == "(double) 1.5");
}

TEST_CASE_FIXTURE(Fixture, "conversions: replies become Lua values") {
  CHECK(Eval("return type(redis.call('ping'))") == "\"table\"");
  CHECK(Eval("return redis.call('ping').ok") == "\"PONG\"");
  CHECK(Eval("return redis.call('get','nosuch') == false") == "(integer) 1");
  CHECK(Eval("return type(redis.call('incr','n'))") == "\"number\"");
  CHECK(Eval("redis.setresp(3) return redis.call('get','nosuch') == nil") == "(true)");
  CHECK(Eval("return redis.setresp(4)") ==
        "(error) ERR RESP version must be 2 or 3. script: "
        "921c0a48021d97dfd5884aeea41875972c7804d9, on @user_script:1.");
}

TEST_CASE_FIXTURE(Fixture, "conversions: RESP3 forms with redis.setresp(3)") {
  CHECK(Eval("redis.setresp(3) return {map={a=1}}") == "1# \"a\" => (integer) 1");
  CHECK(Eval("redis.setresp(3) return {set={a=true}}") == "1~ \"a\"");
  CHECK(Eval("redis.setresp(3) return true") == "(true)");
}

TEST_CASE_FIXTURE(Fixture, "conversions: deep nesting ends in an error, not a crash") {
  std::string r = Eval("local t = {} for i = 1, 100000 do t = {t} end return t");
  CHECK(r.find("reached lua stack limit") != std::string::npos);
}
