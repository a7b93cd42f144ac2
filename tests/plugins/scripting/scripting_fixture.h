// Fake-host fixture for the scripting plugin's command tests: loads the connection, strings and
// keys plugins from their .so files (for redis.call) and the scripting plugin compiled into the
// test binary, and renders replies as redis-cli prints them.
#ifndef PLINTH_TESTS_SCRIPTING_FIXTURE_H
#define PLINTH_TESTS_SCRIPTING_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::scripting::test {

using Argv = std::vector<std::string>;

struct Fixture {
  Fixture() {
    for (const char* p : {"connection", "strings", "keys"}) {
      std::string path = std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + p + ".so";
      REQUIRE_MESSAGE(host.LoadFile(path), host.LoadError());
    }
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "scripting.so"), host.LoadError());
  }
  std::string Run(const Argv& argv) { return host.Call(argv).ToString(); }
  // EVAL script with no keys, the reply as text.
  std::string Eval(const std::string& script) { return Run({"EVAL", script, "0"}); }
  std::vector<std::string> Propagated() {
    std::vector<std::string> out;
    for (const fakehost::PropagatedCommand& p : host.Propagated()) {
      std::string line;
      for (const std::string& a : p.argv) line += (line.empty() ? "" : " ") + a;
      out.push_back(line);
    }
    host.ClearPropagated();
    return out;
  }
  fakehost::FakeHost host;
};

}  // namespace plinth::scripting::test

#endif  // PLINTH_TESTS_SCRIPTING_FIXTURE_H
