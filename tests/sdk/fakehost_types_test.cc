// The value-type extension point as a type plugin sees it in the fake host: a shared value is
// copied before it changes (copy-on-write), the encoding name comes from the type, UNLINK frees
// a large value off the main thread, and a mutation signals WATCH.
#include <doctest/doctest.h>

#include <chrono>
#include <plinth/fakehost.hpp>
#include <thread>

#include "bag_plugin.h"

using plinth::fakehost::FakeHost;
namespace bag = plinth::bagtest;

TEST_CASE("types: a copied value is shared until one side changes") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  const int copies = bag::CopiesForTest();
  CHECK(host.Call({"BAG.ADD", "a", "x", "y"}).integer == 2);
  CHECK(host.Call({"BAG.COPY", "a", "b"}).integer == 1);
  CHECK(bag::CopiesForTest() == copies);  // COPY itself copies nothing
  CHECK(host.Call({"BAG.ADD", "b", "z"}).integer == 3);
  CHECK(bag::CopiesForTest() == copies + 1);  // the write copied the shared value
  CHECK(host.Call({"BAG.LEN", "a"}).integer == 2);
  CHECK(host.Call({"BAG.LEN", "b"}).integer == 3);
  CHECK(host.Call({"BAG.ADD", "a", "w"}).integer == 3);
  CHECK(bag::CopiesForTest() == copies + 1);  // a is no longer shared: changed in place
}

TEST_CASE("types: the writable accessor refuses another type and a missing key") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  host.PutString("s", "text");
  CHECK(host.Call({"BAG.ADD", "s", "x"}).ToString() ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(host.GetString("s") == "text");
  CHECK(host.Call({"BAG.LEN", "nosuch"}).integer == 0);
}

TEST_CASE("types: OBJECT ENCODING names come from the type and strings keep theirs") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  host.Call({"BAG.ADD", "a", "1", "2"});
  CHECK(host.Call({"BAG.ENC", "a"}).str == "small");
  host.Call({"BAG.ADD", "a", "3", "4", "5"});
  CHECK(host.Call({"BAG.ENC", "a"}).str == "big");
  host.PutString("n", "12");
  host.PutString("e", "hello");
  host.PutString("r", std::string(100, 'x'));
  CHECK(host.Call({"BAG.ENC", "n"}).str == "int");
  CHECK(host.Call({"BAG.ENC", "e"}).str == "embstr");
  CHECK(host.Call({"BAG.ENC", "r"}).str == "raw");
}

TEST_CASE("types: UNLINK frees a large value on another thread and a small one at once") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  std::vector<std::string> add = {"BAG.ADD", "big"};
  for (int i = 0; i < 100; ++i) add.push_back(std::to_string(i));
  host.Call(add);
  host.Call({"BAG.ADD", "small", "x"});
  const int freed = bag::FreedForTest().load();
  bag::HoldFreesForTest() = true;  // a free on this thread would never return
  CHECK(host.Call({"BAG.UNLINK", "big"}).integer == 1);
  CHECK(host.KeyCount() == 1);
  CHECK(bag::FreedForTest().load() == freed);  // still held on the lazy-free thread
  bag::HoldFreesForTest() = false;
  for (int i = 0; i < 500 && bag::FreedForTest().load() == freed; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(bag::FreedForTest().load() == freed + 1);
  CHECK(host.Call({"BAG.UNLINK", "small"}).integer == 1);
  CHECK(bag::FreedForTest().load() == freed + 2);  // effort 1: freed before UNLINK returned
  CHECK(host.Call({"BAG.UNLINK", "small"}).integer == 0);
}

TEST_CASE("types: a payload changed through the writable accessor fails a WATCH") {
  FakeHost host;
  REQUIRE(host.Load(bag::Descriptor()));
  host.Call({"BAG.ADD", "w", "x"});
  CHECK(host.Call({"WATCH", "w"}).ToString() == "OK");
  host.Call({"BAG.ADD", "w", "y"});
  CHECK(host.Call({"MULTI"}).ToString() == "OK");
  CHECK(host.Call({"BAG.LEN", "w"}).ToString() == "QUEUED");
  CHECK(host.Call({"EXEC"}).IsNull());
}
