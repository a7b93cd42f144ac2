// Several real plugins in one fake host: the built strings.so and keys.so loaded the way the
// server loads them, each .so with its own copy of the C++ wrapper's state, working on one
// keyspace as they do in the server.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>

using plinth::fakehost::FakeHost;

namespace {

std::string PluginPath(const char* name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

}  // namespace

TEST_CASE("fake host: strings.so and keys.so load side by side and share the keyspace") {
  FakeHost host;
  REQUIRE_MESSAGE(host.LoadFile(PluginPath("strings")), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(PluginPath("keys")), host.LoadError());
  CHECK(host.Call({"SET", "k", "v"}).str == "OK");
  CHECK(host.Call({"TYPE", "k"}).str == "string");
  CHECK(host.Call({"EXPIRE", "k", "10"}).integer == 1);
  CHECK(host.Call({"TTL", "k"}).integer == 10);
  host.AdvanceTimeMs(10000);  // the key's time has come: active expiry removes it
  CHECK(host.KeyCount() == 0);
  CHECK(host.Call({"GET", "k"}).IsNull());
  CHECK(host.Info("stats").find("expired_keys:1\r\n") != std::string::npos);
  // Both are loaded plugins of this host, as in the server's INFO plugins.
  CHECK(host.Info("plugins").find("plugin_strings:name=strings") != std::string::npos);
  CHECK(host.Info("plugins").find("plugin_keys:name=keys") != std::string::npos);
}

TEST_CASE("fake host: a plugin file is checked like the server checks it") {
  FakeHost host;
  CHECK_FALSE(host.LoadFile(PluginPath("nosuch")));
  CHECK(host.LoadError().rfind("plugin " + PluginPath("nosuch") + ": open: ", 0) == 0);
  REQUIRE(host.LoadFile(PluginPath("strings")));
  CHECK_FALSE(host.LoadFile(PluginPath("strings")));
  CHECK(host.LoadError().find(": descriptor: duplicate name 'strings'") != std::string::npos);
}
