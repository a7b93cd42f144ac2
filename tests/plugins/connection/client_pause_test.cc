// CLIENT PAUSE, UNPAUSE and NO-TOUCH through the fake host. A small plugin in this file gives
// a write command ("w x": appends x to a log) and a read command ("r"), so the test sees which
// commands a pause holds and in which order they run.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

const plinth_host_api_t* g_api = nullptr;
std::vector<std::string> g_written;

void Write(plinth_call_t* c, void*) {
  size_t len = 0;
  const char* v = g_api->call_arg(c, 1, &len);
  g_written.emplace_back(v, len);
  g_api->reply_simple(c, "OK", 2);
}

void Read(plinth_call_t* c, void*) { g_api->reply_integer(c, 7); }

int32_t WriterInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t w{};
  w.struct_size = sizeof w;
  w.name = "w";
  w.arity = 2;
  w.flags = PLINTH_CMD_WRITE;
  w.handler = Write;
  plinth_command_spec_t r = w;
  r.name = "r";
  r.arity = 1;
  r.flags = PLINTH_CMD_READONLY;
  r.handler = Read;
  return api->command_register(self, &w) == PLINTH_OK && api->command_register(self, &r) == 0
             ? PLINTH_OK
             : PLINTH_ERR;
}

const plinth_plugin_descriptor_t kWriter = {sizeof(plinth_plugin_descriptor_t),
                                            PLINTH_ABI_MAJOR,
                                            PLINTH_ABI_MINOR,
                                            0,
                                            "writer",
                                            "1",
                                            "a write and a read command",
                                            WriterInit,
                                            nullptr,
                                            {nullptr, nullptr, nullptr, nullptr}};

struct Fixture {
  Fixture() {
    g_written.clear();
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "connection.so"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(&kWriter, "writer"), host.LoadError());
  }
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  plinth::fakehost::FakeHost host;
};

}  // namespace

TEST_CASE("CLIENT PAUSE WRITE holds writes in order, serves reads, and UNPAUSE releases them") {
  Fixture f;
  const uint64_t a = f.host.AddClient(), b = f.host.AddClient();
  CHECK(f.Run({"client", "pause", "100000", "write"}) == "OK");
  CHECK(f.host.CallAs(a, {"r"})->ToString() == "(integer) 7");
  CHECK_FALSE(f.host.CallAs(a, {"w", "a1"}).has_value());
  CHECK_FALSE(f.host.CallAs(b, {"w", "b1"}).has_value());
  CHECK(f.host.Blocked(a));
  CHECK(f.host.CallAs(f.host.AddClient(), {"r"})->ToString() == "(integer) 7");
  CHECK(g_written.empty());
  f.host.AdvanceTimeMs(50000);  // still paused
  CHECK(g_written.empty());
  CHECK(f.Run({"client", "unpause"}) == "OK");
  CHECK(g_written == std::vector<std::string>{"a1", "b1"});
  CHECK(f.host.TakeReplies(a).at(0).ToString() == "OK");
  CHECK(f.host.TakeReplies(b).at(0).ToString() == "OK");
  CHECK_FALSE(f.host.Blocked(a));
  CHECK(f.host.CallAs(a, {"w", "a2"})->ToString() == "OK");
}

TEST_CASE("CLIENT PAUSE ALL holds every command until its time passes") {
  Fixture f;
  const uint64_t a = f.host.AddClient();
  CHECK(f.Run({"client", "pause", "500"}) == "OK");
  CHECK_FALSE(f.host.CallAs(a, {"r"}).has_value());
  f.host.AdvanceTimeMs(400);
  CHECK(f.host.TakeReplies(a).empty());
  f.host.AdvanceTimeMs(200);
  const auto replies = f.host.TakeReplies(a);
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].ToString() == "(integer) 7");
}

TEST_CASE("CLIENT PAUSE keeps the stricter mode and the later end of the pause in force") {
  Fixture f;
  const uint64_t a = f.host.AddClient();
  CHECK(f.Run({"client", "pause", "1000", "write"}) == "OK");
  CHECK(f.Run({"client", "pause", "10", "write"}) == "OK");  // shorter: the end stays
  f.host.AdvanceTimeMs(100);
  CHECK_FALSE(f.host.CallAs(a, {"w", "x"}).has_value());
  CHECK(f.Run({"client", "pause", "10", "all"}) == "OK");  // stricter: ALL until the end
  f.host.AdvanceTimeMs(100);
  CHECK_FALSE(f.host.CallAs(f.host.AddClient(), {"r"}).has_value());
  f.host.AdvanceTimeMs(1000);
  CHECK(f.host.TakeReplies(a).size() == 1);
  CHECK(g_written == std::vector<std::string>{"x"});
  // A pause that ended does not carry over: a new WRITE pause does not hold reads.
  CHECK(f.Run({"client", "pause", "1000", "write"}) == "OK");
  CHECK(f.host.CallAs(a, {"r"})->ToString() == "(integer) 7");
  CHECK(f.Run({"client", "unpause"}) == "OK");
}

TEST_CASE("CLIENT PAUSE inside a transaction holds nothing of that transaction") {
  Fixture f;
  CHECK(f.Run({"multi"}) == "OK");
  CHECK(f.Run({"client", "pause", "1000", "write"}) == "QUEUED");
  CHECK(f.Run({"w", "in-exec"}) == "QUEUED");
  CHECK(f.Run({"exec"}) == "1) OK\n2) OK");
  CHECK(g_written == std::vector<std::string>{"in-exec"});
  const uint64_t a = f.host.AddClient();
  CHECK_FALSE(f.host.CallAs(a, {"w", "after"}).has_value());  // the pause holds what comes next
  CHECK(f.Run({"client", "unpause"}) == "OK");
  CHECK(g_written == std::vector<std::string>{"in-exec", "after"});
}

TEST_CASE("CLIENT PAUSE refuses bad arguments and NO-TOUCH takes ON or OFF") {
  Fixture f;
  CHECK(f.Run({"client", "pause", "x"}) == "(error) ERR timeout is not an integer or out of range");
  CHECK(f.Run({"client", "pause", "-1"}) == "(error) ERR timeout is negative");
  CHECK(f.Run({"client", "pause", "10", "some"}) == "(error) ERR syntax error");
  CHECK(f.Run({"client", "pause", "10", "all", "x"}) == "(error) ERR syntax error");
  CHECK(f.Run({"client", "pause"}) ==
        "(error) ERR wrong number of arguments for 'client|pause' command");
  CHECK(f.Run({"client", "no-touch", "on"}) == "OK");
  CHECK(f.Run({"client", "no-touch", "OFF"}) == "OK");
  CHECK(f.Run({"client", "no-touch", "maybe"}) == "(error) ERR syntax error");
}
