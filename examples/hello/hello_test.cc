// Unit tests of the hello plugin against the SDK's fake host: no server, no sockets.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <plinth/fakehost.hpp>

using plinth::fakehost::FakeHost;

TEST_CASE("hello: HELLO.GREET greets the world, or the name it is given") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"HELLO.GREET"}).str == "Hello, world!");
  CHECK(host.Call({"hello.greet", "bob"}).ToString() == "\"Hello, bob!\"");
  CHECK(host.Call({"HELLO.GREET", "a", "b"}).str ==
        "ERR wrong number of arguments for 'hello.greet' command");
  CHECK(host.Propagated().empty());  // read-only: nothing to propagate
}

TEST_CASE("hello: the hello.greeting option changes the greeting") {
  FakeHost host;
  host.SetOption("hello.greeting", "Bonjour");  // as --hello.greeting Bonjour would
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"HELLO.GREET", "bob"}).str == "Bonjour, bob!");
  CHECK(host.SetOption("hello.greeting", "Hi"));  // CONFIG SET: the option is mutable
  CHECK(host.Call({"HELLO.GREET"}).str == "Hi, world!");
  std::string err;
  CHECK_FALSE(host.SetOption("hello.greeting", "", &err));
  CHECK(err == "the greeting must not be empty");
  CHECK(host.GetOption("hello.greeting") == "Hi");
}

TEST_CASE("hello: HELLO.COUNT increments a counter and is propagated verbatim") {
  const int64_t live_before = FakeHost::LiveValues();
  {
    FakeHost host;
    REQUIRE(host.Load(&plinth_plugin_entry_v1));
    CHECK(host.Call({"HELLO.COUNT", "visits"}).ToString() == "(integer) 1");
    CHECK(host.Call({"HELLO.COUNT", "visits"}).integer == 2);
    CHECK(host.GetString("visits") == "2");
    REQUIRE(host.Propagated().size() == 2);
    CHECK(host.Propagated()[0].argv == std::vector<std::string>{"HELLO.COUNT", "visits"});
    CHECK(FakeHost::LiveValues() == live_before + 1);  // the old value was released
  }
  CHECK(FakeHost::LiveValues() == live_before);
}

TEST_CASE("hello: HELLO.COUNT refuses a non-integer value and keeps the key's TTL") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  host.PutString("name", "bob");
  CHECK(host.Call({"HELLO.COUNT", "name"}).str == "ERR value is not an integer or out of range");
  host.PutString("max", "9223372036854775807");
  CHECK(host.Call({"HELLO.COUNT", "max"}).str == "ERR increment or decrement would overflow");
  CHECK(host.Propagated().empty());  // nothing changed

  host.PutString("n", "41");
  const int64_t at = host.TimeMs() + 10000;
  REQUIRE(host.SetExpireAtMs("n", at));
  CHECK(host.Call({"HELLO.COUNT", "n"}).integer == 42);
  CHECK(host.ExpireAtMs("n") == at);
}
