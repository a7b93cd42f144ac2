// KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB and FLUSHALL through the fake host.
#include <algorithm>
#include <set>
#include <string>

#include "keys_fixture.h"

using plinth::fakehost::Reply;
using plinth::keys::test::Fixture;
using plinth::keys::test::kNow;

namespace {

std::set<std::string> Names(const Reply& array) {
  std::set<std::string> out;
  for (const Reply& e : array.elements) out.insert(e.str);
  return out;
}

// Runs a whole SCAN iteration with the given options; returns every key seen.
std::multiset<std::string> ScanAll(Fixture& f, std::vector<std::string> opts) {
  std::multiset<std::string> out;
  std::string cursor = "0";
  int rounds = 0;
  do {
    std::vector<std::string> argv = {"scan", cursor};
    argv.insert(argv.end(), opts.begin(), opts.end());
    Reply r = f.host.Call(argv);
    REQUIRE(r.elements.size() == 2);
    cursor = r.elements[0].str;
    for (const Reply& k : r.elements[1].elements) out.insert(k.str);
    REQUIRE(++rounds < 10000);
  } while (cursor != "0");
  return out;
}

}  // namespace

TEST_CASE("scan commands: KEYS matches globs and hides expired keys") {
  Fixture f;
  for (const char* k : {"user:1", "user:2", "user:10", "item:1"}) f.host.PutString(k, "v");
  f.host.PutString("user:old", "v");
  f.host.SetExpireAtMs("user:old", kNow + 10);
  f.host.SetTimeMs(kNow + 20);
  CHECK(Names(f.host.Call({"keys", "user:?"})) == std::set<std::string>{"user:1", "user:2"});
  CHECK(Names(f.host.Call({"keys", "user:*"})) ==
        std::set<std::string>{"user:1", "user:2", "user:10"});
  CHECK(Names(f.host.Call({"keys", "*"})).size() == 4);
  CHECK(f.Run({"keys", "nothing*"}) == "(empty array)");
}

TEST_CASE("scan commands: a full SCAN returns every key once per MATCH and COUNT") {
  Fixture f;
  for (int i = 0; i < 500; ++i) f.host.PutString("k" + std::to_string(i), "v");
  for (const auto& opts : std::vector<std::vector<std::string>>{
           {}, {"count", "1"}, {"COUNT", "1000"}, {"match", "*"}, {"type", "STRING"}}) {
    std::multiset<std::string> seen = ScanAll(f, opts);
    CHECK(seen.size() == 500);
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 500);
  }
  CHECK(ScanAll(f, {"match", "k1?"}).size() == 10);
  CHECK(ScanAll(f, {"type", "hash"}).empty());
}

TEST_CASE("scan commands: SCAN cursor and option errors match Redis") {
  Fixture f;
  CHECK(f.Run({"scan", "abc"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"scan", "18446744073709551616"}) == "(error) ERR invalid cursor");
  CHECK(f.Run({"scan", "0", "count", "0"}) == "(error) ERR syntax error");
  CHECK(f.Run({"scan", "0", "count", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"scan", "0", "match"}) == "(error) ERR syntax error");
  CHECK(f.Run({"scan", "0"}) == "1) \"0\"\n2) (empty array)");
}

TEST_CASE("scan commands: RANDOMKEY, DBSIZE, FLUSHDB and FLUSHALL") {
  Fixture f;
  CHECK(f.Run({"randomkey"}) == "(nil)");
  f.host.PutString("only", "v");
  CHECK(f.Run({"randomkey"}) == "\"only\"");
  f.host.PutString("x", "v", 1);
  CHECK(f.Run({"dbsize"}) == "(integer) 1");
  CHECK(f.Run({"flushdb", "now"}) == "(error) ERR syntax error");
  CHECK(f.Run({"flushdb", "async"}) == "OK");
  CHECK(f.Run({"dbsize"}) == "(integer) 0");
  CHECK(f.host.KeyCount(1) == 1);
  CHECK(f.Run({"flushall", "sync"}) == "OK");
  CHECK(f.host.KeyCount(1) == 0);
}
