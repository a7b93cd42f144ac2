// The blocking API as a blocking command sees it in the fake host: a client blocks on a key, a
// command that creates the key wakes the first waiter after it finished, others keep waiting in
// order, timeouts reply the null, MULTI never blocks, and a gone client is forgotten.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>

#include "bag_plugin.h"

using plinth::fakehost::FakeHost;
using plinth::fakehost::Reply;
namespace bag = plinth::bagtest;

namespace {

// The one reply the client received outside its calls, as redis-cli shows it; "none" or
// "several" otherwise.
std::string Later(FakeHost& host, uint64_t client) {
  std::vector<Reply> r = host.TakeReplies(client);
  if (r.empty()) return "none";
  return r.size() == 1 ? r[0].ToString() : "several";
}

}  // namespace

TEST_CASE("blocking: waiters are served in the order they blocked") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  const uint64_t c2 = host.AddClient(), c3 = host.AddClient();
  CHECK_FALSE(host.CallAs(c2, {"BAG.POP", "k", "0"}).has_value());
  CHECK_FALSE(host.CallAs(c3, {"BAG.POP", "k", "0"}).has_value());
  CHECK(host.Blocked(c2));
  CHECK(host.Blocked(c3));
  CHECK(host.Call({"BAG.ADD", "k", "m1"}).integer == 1);  // its reply before the waiter's
  CHECK(Later(host, c2) == "\"m1\"");
  CHECK_FALSE(host.Blocked(c2));
  CHECK(host.Blocked(c3));
  CHECK(Later(host, c3) == "none");
  CHECK(host.KeyCount() == 0);  // c2 took the only member
  CHECK(host.Call({"BAG.ADD", "k", "m2", "m3"}).integer == 2);
  CHECK(Later(host, c3) == "\"m3\"");
  CHECK(host.Call({"BAG.LEN", "k"}).integer == 1);
}

TEST_CASE("blocking: a woken command that still cannot serve keeps waiting") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  const uint64_t c2 = host.AddClient();
  CHECK_FALSE(host.CallAs(c2, {"BAG.POP", "k", "0"}).has_value());
  host.PutString("s", "a string");
  CHECK(host.Call({"BAG.COPY", "s", "k"}).integer == 1);  // creates k: c2 wakes, finds a string
  CHECK(host.Blocked(c2));
  CHECK(Later(host, c2) == "none");
  host.Call({"BAG.UNLINK", "k"});
  host.Call({"BAG.ADD", "other", "x"});
  CHECK(host.Call({"BAG.COPY", "other", "k"}).integer == 1);  // creates k: signals it
  CHECK(Later(host, c2) == "\"x\"");
  CHECK(host.Call({"BAG.LEN", "other"}).integer == 1);  // the copy-on-write kept it whole
}

TEST_CASE("blocking: the timeout replies null at its time and not before") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  const uint64_t c2 = host.AddClient();
  CHECK_FALSE(host.CallAs(c2, {"BAG.POP", "k", "250"}).has_value());
  host.AdvanceTimeMs(249);
  CHECK(host.Blocked(c2));
  host.AdvanceTimeMs(1);
  CHECK_FALSE(host.Blocked(c2));
  CHECK(Later(host, c2) == "(nil)");
  CHECK(host.Call({"BAG.ADD", "k", "x"}).integer == 1);
  CHECK(host.Call({"BAG.LEN", "k"}).integer == 1);  // nobody took it
}

TEST_CASE("blocking: inside MULTI a blocking command answers at once") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  CHECK(host.Call({"MULTI"}).ToString() == "OK");
  CHECK(host.Call({"BAG.POP", "k", "0"}).ToString() == "QUEUED");
  CHECK(host.Call({"EXEC"}).ToString() == "1) (nil)");
  CHECK_FALSE(host.Blocked());
}

TEST_CASE("blocking: a client that went away is forgotten") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  const uint64_t c2 = host.AddClient(), c3 = host.AddClient();
  CHECK_FALSE(host.CallAs(c2, {"BAG.POP", "k", "100"}).has_value());
  CHECK_FALSE(host.CallAs(c3, {"BAG.POP", "k", "0"}).has_value());
  host.CloseClient(c2);
  host.AdvanceTimeMs(200);  // c2's deadline passes with nobody to answer
  CHECK(host.Call({"BAG.ADD", "k", "x"}).integer == 1);
  CHECK(Later(host, c3) == "\"x\"");
}
