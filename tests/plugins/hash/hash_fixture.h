// Fake-host fixture for the hash plugin's command tests: the hash plugin (plugin.cc compiled
// into the test), plus the keys and strings plugins loaded from their .so files (TYPE, OBJECT,
// COPY, DEL, SET...) and a tiny listener plugin that records keyspace events.
#ifndef PLINTH_TESTS_HASH_FIXTURE_H
#define PLINTH_TESTS_HASH_FIXTURE_H

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

namespace plinth::hash::test {

using Argv = std::vector<std::string>;

struct Fixture {
  // Loads the hash plugin and, with others, keys, strings and the event recorder.
  explicit Fixture(bool others = true);
  // The reply as redis-cli prints it to a RESP2 client (maps and sets as flat arrays).
  std::string Run(const Argv& argv);
  // The reply tree as the client's protocol gives it (RESP3 maps stay maps).
  fakehost::Reply Raw(const Argv& argv) { return host.Call(argv); }
  // Propagated commands since the last call, each space-joined.
  std::vector<std::string> Propagated();
  // Keyspace events since the last call, each "event key".
  std::vector<std::string> Events();
  // Fills key with n fields "f0".."f<n-1>" whose values are "v0"..., in one HSET.
  void Fill(const std::string& key, int n);

  fakehost::FakeHost host;
};

}  // namespace plinth::hash::test

#endif  // PLINTH_TESTS_HASH_FIXTURE_H
