// Fake-host fixture for the list plugin's command tests: loads the plugin (plugin.cc is
// compiled into the test binary), a helper that records keyspace events and offers MKSTR key
// value (stores a string), and optionally the
// keys plugin's .so (TYPE, COPY, OBJECT, MEMORY, UNLINK, RENAME). Renders replies and
// propagated commands as text.
#ifndef PLINTH_TESTS_LIST_FIXTURE_H
#define PLINTH_TESTS_LIST_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

namespace plinth::list::test {

using Argv = std::vector<std::string>;

struct Fixture {
  // Loads the list plugin and the event recorder; with_keys also loads keys.so.
  explicit Fixture(bool with_keys = false);
  // The reply as redis-cli prints it to a RESP2 client ("(integer) 1", "(nil)", "1) ...").
  std::string Run(const Argv& argv);
  // Propagated commands since the last call, each space-joined.
  std::vector<std::string> Propagated();
  // Keyspace events since the last call, each "event:key" ("lpush:l", "del:l").
  std::vector<std::string> Events();
  // Runs argv as client id and renders its reply, or "(blocked)" when it blocked.
  std::string RunAs(uint64_t id, const Argv& argv);
  // The replies client id received while blocked, rendered and joined with " | ".
  std::string Taken(uint64_t id);

  fakehost::FakeHost host;
};

// Renders a reply as Fixture::Run does (maps and sets flattened as RESP2 shows them).
std::string Render(fakehost::Reply r);

}  // namespace plinth::list::test

#endif  // PLINTH_TESTS_LIST_FIXTURE_H
