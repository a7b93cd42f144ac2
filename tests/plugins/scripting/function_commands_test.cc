// FUNCTION and FCALL in the fake host (texts recorded from redis-server 7.0).
#include "scripting_fixture.h"

using plinth::scripting::test::Fixture;
namespace fakehost = plinth::fakehost;

namespace {
const char* kLib =
    "#!lua name=mylib\nredis.register_function('myfunc', function(keys, args) return "
    "{keys[1], args[1]} end)";
}

TEST_CASE_FIXTURE(Fixture, "function: load, call in any case, replace") {
  CHECK(Run({"FUNCTION", "LOAD", kLib}) == "\"mylib\"");
  CHECK(Run({"FCALL", "MYFUNC", "1", "k", "a"}) == "1) \"k\"\n2) \"a\"");
  CHECK(Run({"FCALL", "nosuch", "0"}) == "(error) ERR Function not found");
  CHECK(Run({"FCALL", "myfunc", "x"}) == "(error) ERR Bad number of keys provided");
  CHECK(Run({"FCALL_RO", "myfunc", "0"}) ==
        "(error) ERR Can not execute a script with write flag using *_ro command.");
  CHECK(Run({"FUNCTION", "LOAD", kLib}) == "(error) ERR Library 'mylib' already exists");
  CHECK(Run({"FUNCTION", "LOAD", "REPLACE", kLib}) == "\"mylib\"");
  CHECK(Run({"FUNCTION", "LOAD",
             "#!lua name=lib2\nredis.register_function('myfunc', function() return 1 end)"}) ==
        "(error) ERR Function myfunc already exists");
}

TEST_CASE_FIXTURE(Fixture, "function: load errors") {
  CHECK(Run({"FUNCTION", "LOAD", "#!lua name=l\nreturn 1"}) ==
        "(error) ERR No functions registered");
  CHECK(Run({"FUNCTION", "LOAD", "#!lua name=l\nerror('boom')"}) ==
        "(error) ERR Error registering functions: ERR user_function:2: Script attempted to "
        "access nonexistent global variable 'error'");
  CHECK(Run({"FUNCTION", "LOAD", "#!lua name=l\nredis.register_function('f1', 1)"}) ==
        "(error) ERR Error registering functions: ERR second argument to "
        "redis.register_function must be a function");
  CHECK(Run({"FUNCTION", "LOAD", "#!foo name=ab\nreturn 1"}) ==
        "(error) ERR Engine 'foo' not found");
  CHECK(Run({"FUNCTION", "LOAD", "return 1"}) == "(error) ERR Missing library metadata");
  CHECK(Run({"FUNCTION", "LOAD", "bogus", "#!lua name=ab\nx"}) ==
        "(error) ERR Unknown option given: bogus");
}

TEST_CASE_FIXTURE(Fixture, "function: flags, errors at run time, list, stats, delete") {
  CHECK(Run({"FUNCTION", "LOAD",
             "#!lua name=lib3\nredis.register_function{function_name='ro', callback="
             "function(keys, args) return redis.call('set','x','y') end, flags={'no-writes'}, "
             "description='desc'}"}) == "\"lib3\"");
  CHECK(Run({"FCALL_RO", "ro", "0"}) ==
        "(error) ERR Write commands are not allowed from read-only scripts. script: ro, on "
        "@user_function:2.");
  CHECK(Run({"FUNCTION", "LIST"}) ==
        "1) 1# \"library_name\" => \"lib3\"\n   2# \"engine\" => \"LUA\"\n   3# "
        "\"functions\" => 1) 1# \"name\" => \"ro\"\n                        2# "
        "\"description\" => \"desc\"\n                        3# \"flags\" => 1~ no-writes");
  CHECK(Run({"FUNCTION", "LIST", "bogus"}) == "(error) ERR Unknown argument bogus");
  CHECK(Run({"FUNCTION", "STATS"}).find("libraries_count") != std::string::npos);
  CHECK(Run({"FUNCTION", "DELETE", "nosuch"}) == "(error) ERR Library not found");
  CHECK(Run({"FUNCTION", "DELETE", "lib3"}) == "OK");
  CHECK(Run({"FCALL", "ro", "0"}) == "(error) ERR Function not found");
}

TEST_CASE_FIXTURE(Fixture, "function: dump and restore round trip") {
  REQUIRE(Run({"FUNCTION", "LOAD", kLib}) == "\"mylib\"");
  fakehost::Reply dump = host.Call({"FUNCTION", "DUMP"});
  REQUIRE(dump.type == fakehost::ReplyType::kBulk);
  CHECK(Run({"FUNCTION", "RESTORE", dump.str}) == "(error) ERR Library mylib already exists");
  CHECK(Run({"FUNCTION", "FLUSH"}) == "OK");
  CHECK(Run({"FUNCTION", "RESTORE", dump.str}) == "OK");
  CHECK(Run({"FCALL", "myfunc", "1", "k", "a"}) == "1) \"k\"\n2) \"a\"");
  CHECK(Run({"FUNCTION", "RESTORE", "bogus"}) ==
        "(error) ERR DUMP payload version or checksum are wrong");
}
