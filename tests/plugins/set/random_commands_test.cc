// Command tests of SPOP and SRANDMEMBER: counts, errors, RESP3 shapes, propagation (SREM per
// member, DEL for the whole set), keyspace events and the spread of random picks.
#include <algorithm>
#include <map>
#include <set>

#include "set_fixture.h"

namespace plinth::set::test {

using V = std::vector<std::string>;

TEST_CASE("set commands: SPOP without count pops one member as an SREM") {
  Fixture f;
  f.Run({"SADD", "s", "a", "b"});
  f.Propagated();
  f.Events();
  fakehost::Reply r = f.Raw({"SPOP", "s"});
  REQUIRE(r.type == fakehost::ReplyType::kBulk);
  CHECK(f.Propagated() == V{"SREM s " + r.str});
  CHECK(f.Events() == V{"spop s"});
  fakehost::Reply last = f.Raw({"SPOP", "s"});
  CHECK(last.str != r.str);
  CHECK(f.Events() == V{"spop s", "g:del s"});
  CHECK(f.Run({"EXISTS", "s"}) == "(integer) 0");
  CHECK(f.Run({"SPOP", "s"}) == "(nil)");
  f.Propagated();
  CHECK(f.Run({"SPOP", "s", "3"}) == "(empty array)");
  CHECK(f.Propagated().empty());
}

TEST_CASE("set commands: SPOP with count propagates one SREM per member") {
  Fixture f;
  f.Run({"SADD", "s", "a", "b", "c", "d", "e"});
  f.Propagated();
  f.Events();
  fakehost::Reply r = f.Raw({"SPOP", "s", "2"});
  REQUIRE(r.elements.size() == 2);
  V popped = Fixture::Sorted(r);
  CHECK(popped[0] != popped[1]);
  V prop = f.Propagated();
  // The host wraps several effects of one command in MULTI/EXEC.
  V srems;
  for (const std::string& p : prop)
    if (p.rfind("SREM", 0) == 0) srems.push_back(p);
  std::sort(srems.begin(), srems.end());
  CHECK(srems == V{"SREM s " + popped[0], "SREM s " + popped[1]});
  CHECK(f.Events() == V{"spop s"});
  CHECK(f.Run({"SCARD", "s"}) == "(integer) 3");
  for (const std::string& m : popped) CHECK(f.Run({"SISMEMBER", "s", m}) == "(integer) 0");
}

TEST_CASE("set commands: SPOP with a count covering the set propagates DEL") {
  Fixture f;
  f.Run({"SADD", "s", "1", "2", "3"});
  f.Propagated();
  f.Events();
  CHECK(f.Run({"SPOP", "s", "3"}) == "1) \"1\"\n2) \"2\"\n3) \"3\"");
  CHECK(f.Propagated() == V{"DEL s"});
  CHECK(f.Events() == V{"spop s", "g:del s"});
  CHECK(f.Run({"EXISTS", "s"}) == "(integer) 0");
  f.Run({"SADD", "t", "x"});
  f.Propagated();
  CHECK(f.Run({"SPOP", "t", "100"}) == "1) \"x\"");
  CHECK(f.Propagated() == V{"DEL t"});
}

TEST_CASE("set commands: SPOP count errors and zero") {
  Fixture f;
  f.Run({"SADD", "s", "a"});
  f.Propagated();
  const char* kPositive = "(error) ERR value is out of range, must be positive";
  CHECK(f.Run({"SPOP", "s", "-1"}) == kPositive);
  CHECK(f.Run({"SPOP", "s", "abc"}) == kPositive);
  CHECK(f.Run({"SPOP", "s", "99999999999999999999"}) == kPositive);
  CHECK(f.Run({"SPOP", "s", "1", "2"}) == "(error) ERR syntax error");
  CHECK(f.Run({"SPOP", "s", "0"}) == "(empty array)");
  CHECK(f.Propagated().empty());
  f.host.SetProtocol(3);
  CHECK(f.Raw({"SPOP", "s", "0"}).type == fakehost::ReplyType::kSet);
  CHECK(f.Raw({"SPOP", "nosuch", "2"}).type == fakehost::ReplyType::kSet);
  CHECK(f.Raw({"SPOP", "s", "1"}).type == fakehost::ReplyType::kSet);
}

TEST_CASE("set commands: SRANDMEMBER without count and with positive counts") {
  Fixture f;
  CHECK(f.Run({"SRANDMEMBER", "nosuch"}) == "(nil)");
  CHECK(f.Run({"SRANDMEMBER", "nosuch", "3"}) == "(empty array)");
  f.Run({"SADD", "s", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"});
  f.Propagated();
  fakehost::Reply one = f.Raw({"SRANDMEMBER", "s"});
  CHECK(one.type == fakehost::ReplyType::kBulk);
  CHECK(f.Run({"SRANDMEMBER", "s", "0"}) == "(empty array)");
  for (const char* n : {"1", "2", "5", "9"}) {
    fakehost::Reply r = f.Raw({"SRANDMEMBER", "s", n});
    V got = Fixture::Sorted(r);
    CHECK(got.size() == static_cast<size_t>(std::stoi(n)));
    CHECK(std::set<std::string>(got.begin(), got.end()).size() == got.size());
  }
  CHECK(Fixture::Sorted(f.Raw({"SRANDMEMBER", "s", "100"})) == f.Members("s"));
  CHECK(f.Run({"SCARD", "s"}) == "(integer) 10");
  CHECK(f.Propagated().empty());
  f.host.SetProtocol(3);
  CHECK(f.Raw({"SRANDMEMBER", "s", "3"}).type == fakehost::ReplyType::kArray);
  CHECK(f.Raw({"SRANDMEMBER", "s", "30"}).type == fakehost::ReplyType::kArray);
}

TEST_CASE("set commands: SRANDMEMBER with a negative count repeats members") {
  Fixture f;
  f.Run({"SADD", "s", "only"});
  CHECK(f.Run({"SRANDMEMBER", "s", "-3"}) == "1) \"only\"\n2) \"only\"\n3) \"only\"");
  f.Run({"SADD", "s", "other"});
  CHECK(f.Raw({"SRANDMEMBER", "s", "-50"}).elements.size() == 50);
}

TEST_CASE("set commands: SRANDMEMBER count errors") {
  Fixture f;
  f.Run({"SADD", "s", "a"});
  CHECK(f.Run({"SRANDMEMBER", "s", "abc"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"SRANDMEMBER", "s", "-9223372036854775808"}) ==
        "(error) ERR value is out of range, value must between -9223372036854775807 and "
        "9223372036854775807");
  CHECK(f.Run({"SRANDMEMBER", "s", "1", "2"}) == "(error) ERR syntax error");
  // A huge negative count is refused instead of building an endless reply.
  const std::string kTooMany =
      "(error) ERR value is out of range, a negative count may repeat at most 16777216 elements";
  CHECK(f.Run({"SRANDMEMBER", "s", "-9223372036854775807"}) == kTooMany);
  CHECK(f.Run({"SRANDMEMBER", "s", "-4294967296"}) == kTooMany);
  CHECK(f.Run({"SRANDMEMBER", "s", "-16777217"}) == kTooMany);
  CHECK(f.Run({"SRANDMEMBER", "s", "-1"}) == "1) \"a\"");
  CHECK(f.Run({"SRANDMEMBER", "s", "0"}) == "(empty array)");
  CHECK(f.Run({"SRANDMEMBER", "s", "9223372036854775807"}) == "1) \"a\"");
}

TEST_CASE("set commands: random picks reach every member of both encodings") {
  Fixture f;
  for (int i = 0; i < 20; ++i) {
    f.Run({"SADD", "ints", std::to_string(i)});
    f.Run({"SADD", "words", "w" + std::to_string(i)});
  }
  for (const char* key : {"ints", "words"}) {
    std::map<std::string, int> seen;
    for (int k = 0; k < 2000; ++k) seen[f.host.Call({"SRANDMEMBER", key}).str]++;
    CHECK(seen.size() == 20);
    for (auto& [m, n] : seen) CHECK(n > 40);  // about 100 each
  }
}

TEST_CASE("set commands: SPOP drains a large hashtable without losing members") {
  Fixture f;
  std::set<std::string> all;
  for (int i = 0; i < 3000; ++i) {
    std::string m = "m" + std::to_string(i);
    all.insert(m);
    f.Run({"SADD", "s", m});
  }
  std::set<std::string> popped;
  for (const fakehost::Reply& r : f.Raw({"SPOP", "s", "1000"}).elements) popped.insert(r.str);
  CHECK(popped.size() == 1000);
  while (true) {
    fakehost::Reply r = f.Raw({"SPOP", "s"});
    if (r.IsNull()) break;
    CHECK(popped.insert(r.str).second);
  }
  CHECK(popped == all);
}

}  // namespace plinth::set::test
