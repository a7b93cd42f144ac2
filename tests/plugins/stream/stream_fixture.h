// Fake-host fixture for the stream plugin's command tests: the plugin (plugin.cc compiled into
// the test), keys.so from the build (TYPE, OBJECT, DEL, COPY) and a helper plugin that records
// keyspace events and stores strings (SETSTR key value). Replies are rendered on one line:
// bulk text as is, ":n" integers, "nil", "nilarray", "!ERR ..." errors, "[a b]" arrays,
// "{k v}" maps.
#ifndef PLINTH_TESTS_STREAM_FIXTURE_H
#define PLINTH_TESTS_STREAM_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

namespace plinth::stream::test {

using Argv = std::vector<std::string>;
using V = std::vector<std::string>;

// Renders a reply in the one-line form above.
std::string Render(const fakehost::Reply& r);
// Splits a command line on spaces.
Argv Split(const std::string& line);

struct Fixture {
  Fixture();
  // Runs a space-separated command line as client 1 and renders its reply.
  std::string R(const std::string& line);
  // Runs a line as client id: its reply, or "(blocked)".
  std::string RunAs(uint64_t id, const std::string& line);
  // The replies client id received while blocked, rendered and joined with " | ".
  std::string Taken(uint64_t id);
  // Propagated commands since the last call, each space-joined.
  std::vector<std::string> Propagated();
  // Keyspace events ("event key") since the last call.
  std::vector<std::string> Events();

  fakehost::FakeHost host;
};

}  // namespace plinth::stream::test

#endif  // PLINTH_TESTS_STREAM_FIXTURE_H
