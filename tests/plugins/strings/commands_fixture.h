// Test fixture for the strings plugin's command handlers: a fake host with the plugin loaded
// (plugins/strings/plugin.cc is compiled into the test), plus an optional helper plugin that
// stores a non-string value (MKOTHER key) and stands in for the keys plugin's DEL, PEXPIREAT
// and PERSIST so that rewritten propagation can be checked.
#ifndef PLINTH_TESTS_STRINGS_COMMANDS_FIXTURE_H
#define PLINTH_TESTS_STRINGS_COMMANDS_FIXTURE_H

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

namespace plinth::strings::test {

using Argv = std::vector<std::string>;

// The "other" helper plugin's descriptor (raw C ABI). Registers the type "other", MKOTHER key
// and the commands named above.
const plinth_plugin_descriptor_t* OtherPluginDescriptor();

struct Fixture {
  // Loads the strings plugin and, with helper, the other plugin.
  explicit Fixture(bool helper = true);
  // Runs argv and renders the reply as redis-cli shows it to a RESP2 client ("OK", "\"v\"",
  // "(integer) 1", "(nil)", "(error) ERR ...", maps as flat arrays).
  std::string Run(const Argv& argv);
  // The propagated commands since the last call of Propagated (each one space-joined).
  std::vector<std::string> Propagated();

  fakehost::FakeHost host;
};

}  // namespace plinth::strings::test

#endif  // PLINTH_TESTS_STRINGS_COMMANDS_FIXTURE_H
