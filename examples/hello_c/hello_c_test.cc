// Unit tests of the C hello plugin against the SDK's fake host (the test is C++; the plugin
// is compiled as C99).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <plinth/fakehost.hpp>

using plinth::fakehost::FakeHost;

TEST_CASE("hello_c: HELLOC.GREET greets the world, or the name it is given") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"HELLOC.GREET"}).ToString() == "\"Hello, world!\"");
  CHECK(host.Call({"helloc.greet", "bob"}).str == "Hello, bob!");
  CHECK(host.Call({"HELLOC.GREET", "a", "b"}).IsError());
}

TEST_CASE("hello_c: the hello_c.greeting option is validated and applied") {
  FakeHost host;
  host.SetOption("hello_c.greeting", "Hej");
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"HELLOC.GREET", "bob"}).str == "Hej, bob!");
  std::string err;
  CHECK_FALSE(host.SetOption("hello_c.greeting", std::string(64, 'x'), &err));
  CHECK(err == "the greeting must be 1 to 63 bytes");
}

TEST_CASE("hello_c: HELLOC.COUNT increments, propagates and leaks no value") {
  const int64_t live_before = FakeHost::LiveValues();
  {
    FakeHost host;
    REQUIRE(host.Load(&plinth_plugin_entry_v1));
    CHECK(host.Call({"HELLOC.COUNT", "c"}).integer == 1);
    CHECK(host.Call({"HELLOC.COUNT", "c"}).integer == 2);
    host.PutString("s", "abc");
    CHECK(host.Call({"HELLOC.COUNT", "s"}).str == "ERR value is not an integer or out of range");
    REQUIRE(host.Propagated().size() == 2);
    CHECK(host.Propagated()[1].argv == std::vector<std::string>{"HELLOC.COUNT", "c"});
  }
  CHECK(FakeHost::LiveValues() == live_before);
}
