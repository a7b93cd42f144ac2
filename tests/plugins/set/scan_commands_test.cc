// Command tests of SSCAN: the intset answers at once, a hashtable scan covers every member
// across resizes, MATCH and COUNT, and the argument errors in Redis's order.
#include <set>

#include "set_fixture.h"

namespace plinth::set::test {

using V = std::vector<std::string>;

// Runs SSCAN key from cursor 0 to the end and returns every member seen (with repeats).
std::multiset<std::string> ScanAll(Fixture& f, const std::string& key, const Argv& opts,
                                   int* calls) {
  std::multiset<std::string> seen;
  std::string cursor = "0";
  *calls = 0;
  do {
    Argv argv{"SSCAN", key, cursor};
    argv.insert(argv.end(), opts.begin(), opts.end());
    fakehost::Reply r = f.Raw(argv);
    REQUIRE(r.elements.size() == 2);
    cursor = r.elements[0].str;
    for (const fakehost::Reply& m : r.elements[1].elements) seen.insert(m.str);
    ++*calls;
  } while (cursor != "0" && *calls < 100000);
  return seen;
}

TEST_CASE("set commands: SSCAN of an intset returns everything with cursor 0") {
  Fixture f;
  for (int i = 0; i < 100; ++i) f.Run({"SADD", "s", std::to_string(i)});
  fakehost::Reply r = f.Raw({"SSCAN", "s", "0", "COUNT", "5"});
  CHECK(r.elements[0].str == "0");
  CHECK(r.elements[1].elements.size() == 100);
  r = f.Raw({"SSCAN", "s", "12345"});
  CHECK(r.elements[1].elements.size() == 100);
  r = f.Raw({"SSCAN", "s", "0", "MATCH", "9*"});
  CHECK(r.elements[0].str == "0");
  CHECK(Fixture::Sorted(r.elements[1]) ==
        V{"9", "90", "91", "92", "93", "94", "95", "96", "97", "98", "99"});
}

TEST_CASE("set commands: SSCAN of a hashtable visits every member") {
  Fixture f;
  for (int i = 0; i < 1000; ++i) f.Run({"SADD", "s", "m" + std::to_string(i)});
  int calls = 0;
  std::multiset<std::string> seen = ScanAll(f, "s", {}, &calls);
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 1000);
  CHECK(seen.size() == 1000);  // no resize happened, so no repeats
  CHECK(calls > 20);
  seen = ScanAll(f, "s", {"COUNT", "1000"}, &calls);
  CHECK(calls <= 3);
  seen = ScanAll(f, "s", {"MATCH", "m99*"}, &calls);
  CHECK(std::set<std::string>(seen.begin(), seen.end()) ==
        std::set<std::string>{"m99", "m990", "m991", "m992", "m993", "m994", "m995", "m996", "m997",
                              "m998", "m999"});
}

TEST_CASE("set commands: SSCAN keeps every member across growth and shrinking") {
  Fixture f;
  for (int i = 0; i < 500; ++i) f.Run({"SADD", "s", "k" + std::to_string(i)});
  std::set<std::string> seen;
  std::string cursor = "0";
  int step = 0;
  do {
    fakehost::Reply r = f.Raw({"SSCAN", "s", cursor, "COUNT", "20"});
    cursor = r.elements[0].str;
    for (const fakehost::Reply& m : r.elements[1].elements) seen.insert(m.str);
    // Grow the table, then shrink it, while the scan goes on.
    if (step == 3)
      for (int i = 0; i < 3000; ++i) f.Run({"SADD", "s", "extra" + std::to_string(i)});
    if (step == 8)
      for (int i = 0; i < 3000; ++i) f.Run({"SREM", "s", "extra" + std::to_string(i)});
    ++step;
  } while (cursor != "0");
  for (int i = 0; i < 500; ++i) CHECK(seen.count("k" + std::to_string(i)) == 1);
}

TEST_CASE("set commands: SSCAN argument errors and a missing key") {
  Fixture f;
  f.Run({"SADD", "s", "a", "b"});
  CHECK(f.Run({"SSCAN", "s", "abc"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"SSCAN", "s", "1abc"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"SSCAN", "s", "18446744073709551616"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"SSCAN", "s", "0", "COUNT", "0"}) == "(error) ERR syntax error");
  CHECK(f.Run({"SSCAN", "s", "0", "COUNT", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"SSCAN", "s", "0", "TYPE", "string"}) == "(error) ERR syntax error");
  CHECK(f.Run({"SSCAN", "s", "0", "MATCH"}) == "(error) ERR syntax error");
  CHECK(f.Run({"SSCAN", "nosuch", "0"}) == "1) \"0\"\n2) (empty array)");
  CHECK(f.Run({"SSCAN", "nosuch", "0", "COUNT", "0"}) == "1) \"0\"\n2) (empty array)");
  CHECK(f.Run({"SSCAN", "nosuch", "x"}) == "(error) ERR invalid cursor");
}

}  // namespace plinth::set::test
