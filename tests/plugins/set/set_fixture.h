// Fake-host fixture for the set plugin's command tests: loads the set plugin (plugin.cc is
// compiled into the test), the keys plugin's .so (TYPE, OBJECT, COPY, DEL, ...) and a helper
// plugin that records keyspace events, and renders replies and propagation as text.
#ifndef PLINTH_TESTS_SET_FIXTURE_H
#define PLINTH_TESTS_SET_FIXTURE_H

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

namespace plinth::set::test {

using Argv = std::vector<std::string>;

struct Fixture {
  Fixture();
  // The reply as redis-cli prints it to a RESP2 client: sets and maps as plain arrays.
  std::string Run(const Argv& argv);
  // The reply tree, RESP3 shapes kept.
  fakehost::Reply Raw(const Argv& argv) { return host.Call(argv); }
  // Propagated commands since the last call, each space-joined.
  std::vector<std::string> Propagated();
  // Keyspace events since the last call, each "event key" ("sadd s"), with "g:" before a
  // generic one ("g:del s") and "n:" before the host's key-created one ("n:new s").
  std::vector<std::string> Events();
  // The members of the set reply r (or of an array reply), sorted.
  static std::vector<std::string> Sorted(const fakehost::Reply& r);
  // SMEMBERS key, sorted.
  std::vector<std::string> Members(const std::string& key);
  // OBJECT ENCODING key as text.
  std::string Encoding(const std::string& key);

  fakehost::FakeHost host;
};

}  // namespace plinth::set::test

#endif  // PLINTH_TESTS_SET_FIXTURE_H
