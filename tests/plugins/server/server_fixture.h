// Fake-host fixture for the server plugin's command tests: the server plugin (plugin.cc is
// compiled into the test binary) plus the helper plugin.
#ifndef PLINTH_TESTS_SERVER_FIXTURE_H
#define PLINTH_TESTS_SERVER_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

#include "helper_plugin.h"

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::server::test {

struct Fixture {
  Fixture() {
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "server.so"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(HelperDescriptor(), "helper.so"), host.LoadError());
  }
  fakehost::Reply Call(const std::vector<std::string>& argv) { return host.Call(argv); }
  // The reply as redis-cli prints it to a RESP3 client ("OK", "(integer) 1", "1# ...").
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  fakehost::FakeHost host;
};

// The value of key in a map reply, or nullptr.
inline const fakehost::Reply* Field(const fakehost::Reply& map, const std::string& key) {
  for (size_t i = 0; i + 1 < map.elements.size(); i += 2)
    if (map.elements[i].str == key) return &map.elements[i + 1];
  return nullptr;
}

}  // namespace plinth::server::test

#endif  // PLINTH_TESTS_SERVER_FIXTURE_H
