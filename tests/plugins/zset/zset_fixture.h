// Fake-host fixture for the zset plugin's command tests: the plugin (plugin.cc compiled into
// the test), the keys plugin (keys.so from the build, for TYPE, OBJECT, COPY, DEL, ...) and a
// helper plugin that records keyspace events and stores strings (SETSTR key value). Replies
// are rendered on one line: bulk text as is, ":n" integers, ",d" doubles (%.17g), "nil",
// "!ERR ..." errors, "[a b]" arrays, "{k v}" maps, "~[a]" sets.
#ifndef PLINTH_TESTS_ZSET_FIXTURE_H
#define PLINTH_TESTS_ZSET_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

namespace plinth::zset::test {

using Argv = std::vector<std::string>;

// Renders a reply in the one-line form above.
std::string Render(const fakehost::Reply& r);
// Splits a command line on spaces.
Argv Split(const std::string& line);

struct Fixture {
  // Loads zset and the helper, and keys.so unless with_keys is false.
  explicit Fixture(bool with_keys = true);
  // Runs a space-separated command line (or argv) and renders its reply.
  std::string R(const std::string& line);
  std::string Run(const Argv& argv);
  // Propagated commands since the last call, each space-joined.
  std::vector<std::string> Propagated();
  // Keyspace events ("event key") since the last call.
  std::vector<std::string> Events();

  fakehost::FakeHost host;
};

}  // namespace plinth::zset::test

#endif  // PLINTH_TESTS_ZSET_FIXTURE_H
