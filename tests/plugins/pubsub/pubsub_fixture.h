// Fake-host fixture for the pub/sub plugin's command tests: loads the pub/sub plugin (plugin.cc
// is compiled into the test), the keys plugin's .so (keyspace events of DEL, EXPIRE, ...) and
// the connection plugin's .so (PING's subscriber form, RESET, HELLO), and renders replies
// compactly.
#ifndef PLINTH_TESTS_PUBSUB_FIXTURE_H
#define PLINTH_TESTS_PUBSUB_FIXTURE_H

#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

// Lets failed checks print string vectors.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string out = "{";
    for (const std::string& s : v) out += (out.size() > 1 ? ", \"" : "\"") + s + "\"";
    return String((out + "}").c_str());
  }
};
}  // namespace doctest

namespace plinth::pubsub::test {

using Argv = std::vector<std::string>;
using Lines = std::vector<std::string>;

struct Fixture {
  Fixture();
  // Client 1's reply to argv, rendered by Show.
  std::string Run(const Argv& argv) { return Show(host.Call(argv)); }
  // Another client's reply to argv, rendered by Show.
  std::string RunAs(uint64_t client, const Argv& argv);
  // What client received outside its own replies since the last call (pushed confirmations,
  // messages), each rendered by Show.
  Lines Taken(uint64_t client = 1);
  // Propagated commands since the last call, each space-joined.
  Lines Propagated();

  // A compact rendering: a push is "> a b 1", an array "* a b 1", a null "nil", an integer
  // its digits, an error its text, a bulk or simple string its bytes.
  static std::string Show(const fakehost::Reply& r);

  fakehost::FakeHost host;
};

}  // namespace plinth::pubsub::test

#endif  // PLINTH_TESTS_PUBSUB_FIXTURE_H
