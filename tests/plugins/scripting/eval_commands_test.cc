// EVAL, EVALSHA, the _RO forms and SCRIPT in the fake host: replies and errors byte-for-byte
// as redis-server 7.0 gives them (texts recorded from it).
#include <algorithm>

#include "scripting_fixture.h"

using plinth::scripting::test::Fixture;

TEST_CASE_FIXTURE(Fixture, "eval: KEYS and ARGV, and numkeys errors") {
  CHECK(Run({"EVAL", "return KEYS[1]..ARGV[1]", "1", "k", "v"}) == "\"kv\"");
  CHECK(Run({"EVAL", "return 1", "1"}) ==
        "(error) ERR Number of keys can't be greater than number of args");
  CHECK(Run({"EVAL", "return 1", "-1"}) == "(error) ERR Number of keys can't be negative");
  CHECK(Run({"EVAL", "return 1", "abc"}) == "(error) ERR value is not an integer or out of range");
}

TEST_CASE_FIXTURE(Fixture, "evalsha: scripts run by EVAL or loaded are cached until FLUSH") {
  CHECK(Run({"EVALSHA", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db", "0"}) ==
        "(error) NOSCRIPT No matching script. Please use EVAL.");
  CHECK(Eval("return 1") == "(integer) 1");
  CHECK(Run({"EVALSHA", "E0E1F9FABFC9D4800C877A703B823AC0578FF8DB", "0"}) == "(integer) 1");
  CHECK(Run({"SCRIPT", "LOAD", "return 2"}) == "\"7f923f79fe76194c868d7e1d0820de36700eb649\"");
  CHECK(Run({"SCRIPT", "EXISTS", "7f923f79fe76194c868d7e1d0820de36700eb649", "abc"}) ==
        "1) (integer) 1\n2) (integer) 0");
  CHECK(Run({"SCRIPT", "FLUSH"}) == "OK");
  CHECK(Run({"EVALSHA", "7f923f79fe76194c868d7e1d0820de36700eb649", "0"}) ==
        "(error) NOSCRIPT No matching script. Please use EVAL.");
  CHECK(Run({"EVALSHA", "abc", "0"}) == "(error) NOSCRIPT No matching script. Please use EVAL.");
}

TEST_CASE_FIXTURE(Fixture, "eval: redis.call runs commands and raises their errors") {
  CHECK(Eval("return redis.call('set','a','1')") == "OK");
  CHECK(host.GetString("a") == "1");
  CHECK(Eval("return redis.call('get','a')") == "\"1\"");
  CHECK(Eval("return redis.call('set','a',0.1)") == "OK");
  CHECK(host.GetString("a") == "0.10000000000000001");
  CHECK(Eval("return redis.call('incr','a')") ==
        "(error) ERR value is not an integer or out of range script: "
        "c9f3dee5d73c1008119b4067129338abc98620f3, on @user_script:1.");
  CHECK(Eval("return redis.pcall('incr','a')") ==
        "(error) ERR value is not an integer or out of range");
  CHECK(Eval("return redis.call('nosuch')") ==
        "(error) ERR Unknown Redis command called from script script: "
        "206396248e12c6e742fd7296250433c8d7343b74, on @user_script:1.");
  CHECK(Eval("return redis.call('get')") ==
        "(error) ERR Wrong number of args calling Redis command from script script: "
        "f187dee77f607f7cff00bbabc9df38507582c78d, on @user_script:1.");
  CHECK(Eval("return redis.call('eval','return 1','0')") ==
        "(error) ERR This Redis command is not allowed from script script: "
        "1e5046f3a9119d3dc9cf5824428b6d9fedd305d2, on @user_script:1.");
  CHECK(Eval("local ok, e = pcall(redis.call, 'nosuch') return e") ==
        "\"ERR Unknown Redis command called from script\"");
}

TEST_CASE_FIXTURE(Fixture, "eval: SELECT inside a script holds for its later calls only") {
  CHECK(Eval("redis.call('select', 1) return redis.call('set','indb1','v')") == "OK");
  CHECK(host.GetString("indb1", 1) == "v");
  CHECK_FALSE(host.GetString("indb1", 0).has_value());
  CHECK(host.CurrentDb() == 0);
}

TEST_CASE_FIXTURE(Fixture, "eval_ro and no-writes scripts refuse writes with Redis's words") {
  CHECK(Run({"EVAL_RO", "return redis.call('set','a','1')", "0"}) ==
        "(error) ERR Write commands are not allowed from read-only scripts. script: "
        "67ed14c1cb086d8c2fcf91ebe13410ba087fd0f8, on @user_script:1.");
  CHECK(Eval("#!lua flags=no-writes\nreturn redis.call('set','a','1')") ==
        "(error) ERR Write commands are not allowed from read-only scripts. script: "
        "71c6978aa8dbb43cfeb7536150d4b9326e6031a2, on @user_script:2.");
  CHECK(Run({"EVAL_RO", "#!lua\nreturn 1", "0"}) ==
        "(error) ERR Can not execute a script with write flag using *_ro command.");
  CHECK(Run({"EVAL_RO", "#!lua flags=no-writes\nreturn 1", "0"}) == "(integer) 1");
  CHECK_FALSE(host.GetString("a").has_value());
}

TEST_CASE_FIXTURE(Fixture, "eval: errors carry the script and line") {
  CHECK(Eval("syntax error here") ==
        "(error) ERR Error compiling script (new function): user_script:1: '=' expected near "
        "'error'");
  CHECK(Eval("error('boom')") ==
        "(error) ERR user_script:1: boom script: 82903a0434f1503e152f89c03c9acd881a0e8150, on "
        "@user_script:1.");
  CHECK(Eval("error({err='MY thing'})") ==
        "(error) MY thing script: 93d8b901ec4b7fd324068674dd9d7b37abbba276, on @user_script:1.");
  CHECK(Eval("return redis.error_reply('bar')") == "(error) ERR bar");
  CHECK(Eval("return redis.error_reply('FOO bar')") == "(error) FOO bar");
  CHECK(Eval("return redis.status_reply('FINE')") == "FINE");
  CHECK(Eval("return redis.sha1hex('')") == "\"da39a3ee5e6b4b0d3255bfef95601890afd80709\"");
}

TEST_CASE_FIXTURE(Fixture, "script: help, kill without a script, flush options") {
  CHECK(Run({"SCRIPT", "KILL"}) == "(error) NOTBUSY No scripts in execution right now.");
  CHECK(Run({"SCRIPT", "FLUSH", "bogus"}) ==
        "(error) ERR SCRIPT FLUSH only support SYNC|ASYNC option");
  CHECK(Run({"SCRIPT", "FLUSH", "ASYNC"}) == "OK");
  CHECK(Run({"SCRIPT", "bogus"}) == "(error) ERR unknown subcommand 'bogus'. Try SCRIPT HELP.");
  CHECK(host.Call({"SCRIPT", "HELP"}).elements.size() == 17);
}

TEST_CASE_FIXTURE(Fixture, "eval: a script's writes propagate as its commands, not as EVAL") {
  Propagated();
  CHECK(Eval("redis.call('set','p','1') return redis.call('set','q','2')") == "OK");
  std::vector<std::string> p = Propagated();
  for (const std::string& line : p) CHECK(line.rfind("EVAL", 0) != 0);
  CHECK(std::find(p.begin(), p.end(), "set p 1") != p.end());
}
