// Fake-host fixture for the keys plugin's command tests: loads the plugin (plugin.cc is compiled
// into the test binary) and renders replies and propagated commands as text.
#ifndef PLINTH_TESTS_KEYS_FIXTURE_H
#define PLINTH_TESTS_KEYS_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::keys::test {

using Argv = std::vector<std::string>;

struct Fixture {
  Fixture() { REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "keys.so"), host.LoadError()); }
  // The reply as redis-cli prints it ("OK", "(integer) 1", "(error) ERR ...").
  std::string Run(const Argv& argv) { return host.Call(argv).ToString(); }
  // Propagated commands since the last call, each space-joined.
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

inline constexpr int64_t kNow = fakehost::FakeHost::kDefaultTimeMs;

}  // namespace plinth::keys::test

#endif  // PLINTH_TESTS_KEYS_FIXTURE_H
