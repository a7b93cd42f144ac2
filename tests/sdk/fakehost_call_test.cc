// The fake host running commands: replies, Redis error texts, propagation, replicate(),
// expiry on the fake clock, refcounted values and the keyspace calls.
#include <doctest/doctest.h>

#include <cstring>
#include <plinth/fakehost.hpp>

#include "kv_plugin.h"

using plinth::fakehost::FakeHost;
using plinth::fakehost::PropagatedCommand;
using plinth::fakehost::ReplyType;

namespace {

std::vector<std::vector<std::string>> Argvs(const FakeHost& host) {
  std::vector<std::vector<std::string>> out;
  for (const PropagatedCommand& p : host.Propagated()) out.push_back(p.argv);
  return out;
}

using Argv = std::vector<std::string>;

}  // namespace

TEST_CASE("fake host: every field of the host table is set") {
  FakeHost host;
  const plinth_host_api_t* api = host.Api();
  CHECK(api->struct_size == sizeof(plinth_host_api_t));
  CHECK(api->abi_major == PLINTH_ABI_MAJOR);
  CHECK(api->abi_minor == PLINTH_ABI_MINOR);
  const size_t first = offsetof(plinth_host_api_t, log_write);
  for (size_t off = first; off < sizeof(plinth_host_api_t); off += sizeof(void*)) {
    void* fn = nullptr;
    std::memcpy(&fn, reinterpret_cast<const char*>(api) + off, sizeof fn);
    CAPTURE(off);
    CHECK(fn != nullptr);
  }
  CHECK(PLINTH_HAS(api, call_time_ms));
}

TEST_CASE("fake host: runs a plugin's commands and returns their replies") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  CHECK(host.Call({"SET", "k", "v"}).ToString() == "OK");
  CHECK(host.Call({"get", "k"}).ToString() == "\"v\"");
  CHECK(host.Call({"GET", "missing"}).IsNull());
  CHECK(host.Call({"DEL", "k", "missing"}).integer == 1);
  CHECK(host.HasCommand("SeT"));
  CHECK_FALSE(host.HasCommand("hello"));
}

TEST_CASE("fake host: unknown commands and wrong arity get Redis's error texts") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  auto r = host.Call({"FOO", "a", "b"});
  CHECK(r.IsError());
  CHECK(r.str == "ERR unknown command 'FOO', with args beginning with: 'a' 'b' ");
  CHECK(host.Call({"foo"}).str == "ERR unknown command 'foo', with args beginning with: ");
  CHECK(host.Call({"SET", "k"}).str == "ERR wrong number of arguments for 'set' command");
  CHECK(host.Call({"DEL"}).str == "ERR wrong number of arguments for 'del' command");
  CHECK(host.Propagated().empty());
}

TEST_CASE("fake host: a handler that replies twice or not at all gets what the server sends") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  CHECK(host.Call({"NOREPLY"}).str == "ERR command 'noreply' produced no reply");
  CHECK(host.Call({"TWOREPLIES"}).str == "OK");  // the first reply; the second is dropped
  CHECK(host.LogContains("command 'tworeplies' replied more than once: extra replies dropped"));
}

TEST_CASE("fake host: write commands propagate verbatim only when the keyspace changed") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  plinth::kvtest::ConsumedForTest().clear();
  host.Call({"SET", "k", "v"});
  host.Call({"GET", "k"});
  host.Call({"DEL", "nothing"});
  host.Call({"SELECT", "3"});
  host.Call({"DEL", "k"});  // k lives in db 0
  host.Call({"SET", "x", "1"});
  CHECK(Argvs(host) == std::vector<Argv>{{"SET", "k", "v"}, {"SET", "x", "1"}});
  CHECK(host.Propagated()[1].db == 3);
  CHECK(host.Dirty() == 2);
  std::string stream;
  for (const std::string& batch : plinth::kvtest::ConsumedForTest()) stream += batch;
  CHECK(stream ==
        "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"
        "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$1\r\n1\r\n");
}

TEST_CASE("fake host: replicate replaces the verbatim command and is validated") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  CHECK(host.Call({"INCRBY", "n", "5"}).integer == 5);
  CHECK(Argvs(host) == std::vector<Argv>{{"set", "n", "5"}});
  host.ClearPropagated();
  CHECK(host.Call({"REPL", "0", "nosuch", "a"}).integer == PLINTH_ERR);
  CHECK(host.Call({"REPL", "0", "get", "a", "b"}).integer == PLINTH_ERR);
  CHECK(host.Propagated().empty());
  CHECK(host.Call({"REPL", "0", "DEL", "a", "b"}).integer == PLINTH_OK);
  std::string flag = std::to_string(PLINTH_REPLICATE_NO_VALIDATE);
  CHECK(host.Call({"REPL", flag, "nosuch", "x"}).integer == PLINTH_OK);
  CHECK(Argvs(host) == std::vector<Argv>{{"DEL", "a", "b"}, {"nosuch", "x"}});
}

TEST_CASE("fake host: keys expire on the controllable clock and lazy expiry propagates DEL") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  host.SetTimeMs(1000000);
  host.Call({"SET", "k", "v"});
  CHECK(host.Call({"PEXPIREAT", "k", "1000500"}).integer == 1);
  CHECK(host.ExpireAtMs("k") == 1000500);
  host.SetTimeMs(1000499);
  CHECK(host.Call({"GET", "k"}).ToString() == "\"v\"");
  host.SetTimeMs(1000500);
  CHECK(host.GetString("k") == std::nullopt);
  CHECK(host.KeyCount() == 1);  // not removed until touched
  host.ClearPropagated();
  CHECK(host.Call({"GET", "k"}).IsNull());
  CHECK(host.KeyCount() == 0);
  CHECK(Argvs(host) == std::vector<Argv>{{"DEL", "k"}});
  host.Call({"SET", "p", "v"});
  CHECK(host.Call({"PEXPIREAT", "p", "5"}).integer == 1);  // in the past: deleted
  CHECK(host.ExpireAtMs("p") == -2);
}

TEST_CASE("fake host: values are refcounted and live ones are counted") {
  const int64_t before = FakeHost::LiveValues();
  {
    FakeHost host;
    REQUIRE(host.Load(plinth::kvtest::Descriptor()));
    host.Call({"SET", "a", "1"});
    host.Call({"SET", "b", "2"});
    host.Call({"SET", "a", "3"});  // the old value is released
    CHECK(FakeHost::LiveValues() == before + 2);
    host.Call({"DEL", "a"});
    CHECK(FakeHost::LiveValues() == before + 1);
    const plinth_host_api_t* api = host.Api();
    plinth_value_t* v = api->value_create_string("xyz", 3);
    api->value_retain(v);
    api->value_release(v);
    CHECK(FakeHost::LiveValues() == before + 2);
    api->value_release(v);
    CHECK(FakeHost::LiveValues() == before + 1);
  }
  CHECK(FakeHost::LiveValues() == before);
}

TEST_CASE("fake host: plugin value types free their payload with the last reference") {
  plinth::kvtest::FreedBoxesForTest() = 0;
  {
    FakeHost host;
    REQUIRE(host.Load(plinth::kvtest::Descriptor()));
    CHECK(host.Call({"BOX", "b"}).ToString() == "box");
    CHECK(host.GetString("b") == std::nullopt);  // not a string
    host.Call({"BOX", "b"});
    CHECK(plinth::kvtest::FreedBoxesForTest() == 1);
  }
  CHECK(plinth::kvtest::FreedBoxesForTest() == 2);
}

TEST_CASE("fake host: SELECT changes the client's database for later calls") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  host.Call({"SELECT", "2"});
  host.Call({"SET", "k", "in2"});
  CHECK(host.CurrentDb() == 2);
  CHECK(host.GetString("k", 2) == "in2");
  CHECK(host.GetString("k", 0) == std::nullopt);
  CHECK(host.Call({"SELECT", "16"}).str == "ERR DB index is out of range");
  host.Select(0);
  host.PutString("k", "in0");
  CHECK(host.Call({"GET", "k"}).str == "in0");
}

TEST_CASE("fake host: NOAUTH is returned while the client is not authenticated") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  host.SetAuthenticated(false);
  CHECK(host.Call({"GET", "k"}).IsNull());  // no password set: nothing to authenticate with
  REQUIRE(host.SetOption("requirepass", "pw"));
  CHECK(host.Call({"GET", "k"}).str == "NOAUTH Authentication required.");
  host.SetAuthenticated(true);
  CHECK(host.Call({"GET", "k"}).IsNull());
}
