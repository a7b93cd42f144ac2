// SLOWLOG, LATENCY and MONITOR through the fake host, fed by the host's command observers. A
// small plugin in this file provides commands that take a given time ("sleep ms", and
// "fastsleep ms" flagged fast).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

const plinth_host_api_t* g_api = nullptr;

void Sleep(plinth_call_t* c, void*) {
  size_t len = 0;
  const char* ms = g_api->call_arg(c, 1, &len);
  usleep(static_cast<useconds_t>(std::atoi(std::string(ms, len).c_str()) * 1000));  // text: 0
  g_api->reply_simple(c, "OK", 2);
}

int32_t SleeperInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  for (const char* name : {"sleep", "fastsleep"}) {
    plinth_command_spec_t s{};
    s.struct_size = sizeof s;
    s.name = name;
    s.arity = 2;
    s.flags = name[0] == 'f' ? PLINTH_CMD_FAST : 0;
    s.handler = Sleep;
    if (api->command_register(self, &s) != PLINTH_OK) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

const plinth_plugin_descriptor_t kSleeper = {sizeof(plinth_plugin_descriptor_t),
                                             PLINTH_ABI_MAJOR,
                                             PLINTH_ABI_MINOR,
                                             0,
                                             "sleeper",
                                             "1",
                                             "commands that take a while",
                                             SleeperInit,
                                             nullptr,
                                             {nullptr, nullptr, nullptr, nullptr}};

struct Fixture {
  Fixture() {
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "diagnostics.so"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(&kSleeper, "sleeper"), host.LoadError());
  }
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  plinth::fakehost::FakeHost host;
};

std::vector<std::string> Strings(const plinth::fakehost::Reply& r) {
  std::vector<std::string> out;
  for (const auto& e : r.elements) out.push_back(e.str);
  return out;
}

}  // namespace

TEST_CASE("SLOWLOG keeps the commands slower than slowlog-log-slower-than, newest first") {
  Fixture f;
  REQUIRE(f.host.SetOption("slowlog-log-slower-than", "20000"));
  CHECK(f.Run({"sleep", "0"}) == "OK");
  CHECK(f.Run({"sleep", "30"}) == "OK");
  CHECK(f.Run({"slowlog", "len"}) == "(integer) 1");
  plinth::fakehost::Reply r = f.host.Call({"slowlog", "get"});
  REQUIRE(r.elements.size() == 1);
  const plinth::fakehost::Reply& e = r.elements[0];
  REQUIRE(e.elements.size() == 6);
  CHECK(e.elements[0].integer == 0);
  CHECK(e.elements[1].integer == f.host.TimeMs() / 1000);
  CHECK(e.elements[2].integer >= 30000);
  CHECK(Strings(e.elements[3]) == std::vector<std::string>{"sleep", "30"});
  CHECK(e.elements[4].str == "fake:0");
  CHECK(e.elements[5].str == "");

  // 0 logs everything; ids keep counting after a RESET; slowlog-max-len drops the oldest.
  REQUIRE(f.host.SetOption("slowlog-log-slower-than", "0"));
  CHECK(f.Run({"slowlog", "reset"}) == "OK");
  REQUIRE(f.host.SetOption("slowlog-max-len", "3"));
  for (const char* ms : {"1", "2", "3", "4"}) f.Run({"sleep", ms});
  r = f.host.Call({"slowlog", "get", "-1"});
  REQUIRE(r.elements.size() == 3);
  CHECK(Strings(r.elements[0].elements[3]) == std::vector<std::string>{"sleep", "4"});
  CHECK(Strings(r.elements[2].elements[3]) == std::vector<std::string>{"sleep", "2"});
  CHECK(r.elements[0].elements[0].integer > r.elements[2].elements[0].integer);
  CHECK(f.host.Call({"slowlog", "get", "1"}).elements.size() == 1);

  // EXEC's commands are logged one by one, EXEC itself not.
  CHECK(f.Run({"slowlog", "reset"}) == "OK");
  f.Run({"multi"});
  f.Run({"sleep", "5"});
  f.Run({"exec"});
  r = f.host.Call({"slowlog", "get"});
  std::vector<std::string> names;
  for (const auto& x : r.elements) names.push_back(x.elements[3].elements[0].str);
  CHECK(names == std::vector<std::string>{"sleep", "multi", "slowlog"});

  // -1 logs nothing.
  REQUIRE(f.host.SetOption("slowlog-log-slower-than", "-1"));
  CHECK(f.Run({"slowlog", "reset"}) == "OK");
  f.Run({"sleep", "1"});
  CHECK(f.Run({"slowlog", "len"}) == "(integer) 0");
}

TEST_CASE("SLOWLOG refuses bad arguments with Redis's errors") {
  Fixture f;
  CHECK(f.Run({"slowlog", "get", "-2"}) ==
        "(error) ERR count should be greater than or equal to -1");
  CHECK(f.Run({"slowlog", "get", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"slowlog", "get", "1", "2"}) ==
        "(error) ERR unknown subcommand or wrong number of arguments for 'get'. Try SLOWLOG "
        "HELP.");
  CHECK(f.Run({"slowlog", "nope"}) == "(error) ERR unknown subcommand 'nope'. Try SLOWLOG HELP.");
  CHECK(f.host.Call({"slowlog", "help"}).elements.size() > 4);
  std::string err;
  CHECK_FALSE(f.host.SetOption("slowlog-log-slower-than", "-2", &err));
}

TEST_CASE("LATENCY records commands at or above latency-monitor-threshold") {
  Fixture f;
  CHECK(f.Run({"sleep", "25"}) == "OK");
  CHECK(f.host.Call({"latency", "latest"}).elements.empty());  // off by default
  CHECK(f.host.Call({"latency", "doctor"}).str.find("off") != std::string::npos);
  REQUIRE(f.host.SetOption("latency-monitor-threshold", "20"));
  CHECK(f.Run({"sleep", "1"}) == "OK");
  CHECK(f.Run({"sleep", "25"}) == "OK");
  CHECK(f.Run({"fastsleep", "25"}) == "OK");
  plinth::fakehost::Reply r = f.host.Call({"latency", "latest"});
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].elements[0].str == "command");
  CHECK(r.elements[0].elements[1].integer == f.host.TimeMs() / 1000);
  CHECK(r.elements[0].elements[2].integer >= 25);
  CHECK(r.elements[0].elements[3].integer >= 25);
  CHECK(r.elements[1].elements[0].str == "fast-command");
  r = f.host.Call({"latency", "history", "command"});
  REQUIRE(r.elements.size() == 1);
  CHECK(r.elements[0].elements[1].integer >= 25);
  CHECK(f.host.Call({"latency", "history", "nothing"}).elements.empty());
  CHECK(f.host.Call({"latency", "graph", "command"}).str.find("command - high") == 0);
  CHECK(f.Run({"latency", "graph", "nothing"}) ==
        "(error) ERR No samples available for event 'nothing'");
  CHECK(f.host.Call({"latency", "doctor"}).str.find("fast-command") != std::string::npos);
  CHECK(f.Run({"latency", "reset", "command", "nothing"}) == "(integer) 1");
  CHECK(f.Run({"latency", "reset"}) == "(integer) 1");
  CHECK(f.host.Call({"latency", "latest"}).elements.empty());
}

TEST_CASE("MONITOR shows other clients' commands in order until its client goes") {
  Fixture f;
  const uint64_t m = f.host.AddClient();
  REQUIRE(f.host.CallAs(m, {"monitor"})->ToString() == "OK");
  f.Run({"sleep", "0"});
  f.Run({"slowlog", "len"});  // administrative: not shown
  f.Run({"fastsleep", std::string("a\"b\n", 4)});
  f.host.Select(2);
  f.Run({"sleep", "1"});
  const std::vector<plinth::fakehost::Reply> lines = f.host.TakeReplies(m);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].str.find(" [0 fake:0] \"sleep\" \"0\"") != std::string::npos);
  CHECK(lines[0].str.find('.') == 10);  // unix seconds, then microseconds
  CHECK(lines[1].str.find(" [0 fake:0] \"fastsleep\" \"a\\\"b\\n\"") != std::string::npos);
  CHECK(lines[2].str.find(" [2 fake:0] \"sleep\" \"1\"") != std::string::npos);
  f.host.CloseClient(m);
  f.Run({"sleep", "0"});
  CHECK(f.host.TakeReplies(m).empty());
}
