// The fake host loading plugins (the loader's checks and rollback), options, INFO, logs,
// timers and posted tasks.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>

#include "kv_plugin.h"

using plinth::fakehost::FakeHost;

namespace {

const plinth_host_api_t* g_api = nullptr;

int32_t InitOk(plinth_plugin_t*, const plinth_host_api_t* api) {
  g_api = api;
  return PLINTH_OK;
}

void Noop(plinth_call_t* c, void*) { g_api->reply_simple(c, "OK", 2); }

// Registers a command and an option, then fails.
int32_t InitRegistersThenFails(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t c{};
  c.struct_size = sizeof c;
  c.name = "half.cmd";
  c.arity = 1;
  c.handler = Noop;
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = "level";
  o.type = PLINTH_OPT_INT;
  o.default_value = "1";
  o.max = 10;
  if (api->command_register(self, &c) || !api->option_register(self, &o)) return PLINTH_ERR;
  api->timer_start(
      self, 1000, 1000, [](void*) {}, nullptr);
  const char why[] = "cannot reach the backend";
  api->log_write(self, PLINTH_LOG_WARNING, why, sizeof why - 1);
  return PLINTH_ERR;
}

plinth_plugin_descriptor_t Descriptor(const char* name,
                                      int32_t (*init)(plinth_plugin_t*, const plinth_host_api_t*)) {
  return {sizeof(plinth_plugin_descriptor_t),
          PLINTH_ABI_MAJOR,
          PLINTH_ABI_MINOR,
          0,
          name,
          "1",
          "test",
          init,
          nullptr,
          {nullptr, nullptr, nullptr, nullptr}};
}

int g_ticks = 0;
void Tick(void*) { ++g_ticks; }

}  // namespace

TEST_CASE("fake host: load refuses bad descriptors with the loader's stages") {
  FakeHost host;
  auto d = Descriptor("ok", InitOk);
  d.abi_major = 2;
  CHECK_FALSE(host.Load(&d, "/p/x.so"));
  const std::string host_abi = "1." + std::to_string(PLINTH_ABI_MINOR);
  CHECK(host.LoadError() == "plugin /p/x.so: abi: plugin ABI 2." +
                                std::to_string(PLINTH_ABI_MINOR) + ", host ABI " + host_abi +
                                " (major differs)");
  d = Descriptor("ok", InitOk);
  d.abi_minor = PLINTH_ABI_MINOR + 1;
  CHECK_FALSE(host.Load(&d));
  CHECK(host.LoadError() == "plugin fake: abi: plugin ABI 1." +
                                std::to_string(PLINTH_ABI_MINOR + 1) + ", host ABI " + host_abi +
                                " (plugin needs a newer host)");
  // A plugin built with this SDK for an older minor loads: abi_minor is the oldest host it needs.
  d = Descriptor("older", InitOk);
  d.abi_minor = 0;
  CHECK(host.Load(&d));
  d = Descriptor("ok", InitOk);
  d.struct_size = 40;
  CHECK_FALSE(host.Load(&d));
  CHECK(host.LoadError().rfind("plugin fake: descriptor: descriptor too short (40 bytes", 0) == 0);
  d = Descriptor(nullptr, InitOk);
  CHECK_FALSE(host.Load(&d));
  CHECK(host.LoadError() == "plugin fake: descriptor: name is NULL");
  d = Descriptor("Bad Name!", InitOk);
  CHECK_FALSE(host.Load(&d));
  CHECK(host.LoadError().find("descriptor: invalid name 'Bad Name!'") != std::string::npos);
  CHECK_FALSE(host.Load(static_cast<plinth_plugin_entry_v1_fn>(nullptr)));
  CHECK(host.LoadError().find(": entry: ") != std::string::npos);
  d = Descriptor("ok", InitOk);
  CHECK(host.Load(&d, "a.so"));
  CHECK(host.LoadError().empty());
  CHECK_FALSE(host.Load(&d, "b.so"));
  CHECK(host.LoadError() ==
        "plugin b.so: descriptor: duplicate name 'ok' (already loaded from a.so)");
  CHECK(host.LogContains("plugin b.so: descriptor:"));
}

TEST_CASE("fake host: a failed init rolls back every registration of the plugin") {
  FakeHost host;
  auto bad = Descriptor("half", InitRegistersThenFails);
  CHECK_FALSE(host.Load(&bad, "half.so"));
  CHECK(host.LoadError() ==
        "plugin half.so: init: init returned an error: cannot reach the backend");
  CHECK_FALSE(host.HasCommand("half.cmd"));
  CHECK(host.GetOption("half.level") == std::nullopt);
  CHECK(host.Call({"half.cmd"}).IsError());
  CHECK(host.Info("plugins").find("half") == std::string::npos);
  CHECK(host.ActiveTimers() == 0);  // the timer its init started was stopped
  // Registering outside init is refused too.
  plinth_command_spec_t c{};
  c.struct_size = sizeof c;
  c.name = "late";
  c.arity = 1;
  c.handler = Noop;
  CHECK(host.Api()->command_register(nullptr, &c) == PLINTH_ERR);
}

TEST_CASE("fake host: a command name that already exists fails the second plugin's init") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  auto d = Descriptor("again", [](plinth_plugin_t* self, const plinth_host_api_t* api) {
    plinth_command_spec_t c{};
    c.struct_size = sizeof c;
    c.name = "GET";
    c.arity = 2;
    c.handler = Noop;
    return api->command_register(self, &c);
  });
  CHECK_FALSE(host.Load(&d));
  CHECK(host.LoadError() ==
        "plugin fake: init: init returned an error: command 'get' already exists");
}

TEST_CASE("fake host: options take configured values, validate and follow CONFIG SET rules") {
  plinth::kvtest::AppliedForTest().clear();
  FakeHost host;
  CHECK(host.SetOption("kv.mode", "SAFE"));
  CHECK(host.SetOption("port", "7000"));
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  const plinth_host_api_t* api = host.Api();
  CHECK(host.GetOption("kv.mode") == "safe");
  CHECK(plinth::kvtest::AppliedForTest() == std::vector<std::string>{"safe"});
  plinth_plugin_t* self = host.TestPlugin();
  CHECK(api->option_int(api->option_find(self, "kv.mode")) == 1);  // enum index
  CHECK(api->option_int(api->option_find(self, "KV.LIMIT")) == 1024);
  CHECK(api->option_find(self, "port") == nullptr);  // configured, never registered
  CHECK(api->option_find(self, "nosuch") == nullptr);
  size_t len = 0;
  CHECK(std::string(api->option_string(api->option_find(self, "kv.limit"), &len)) == "1024");
  CHECK(len == 4);
  std::string err;
  CHECK_FALSE(host.SetOption("kv.mode", "slow", &err));
  CHECK(err == "argument(s) must be one of the following: fast, safe, reject");
  CHECK_FALSE(host.SetOption("kv.mode", "reject", &err));
  CHECK(err == "the word 'reject' is refused");
  CHECK(host.GetOption("kv.mode") == "safe");
  CHECK_FALSE(host.SetOption("kv.limit", "2kb", &err));
  CHECK(err == "can't set immutable config");
}

TEST_CASE("fake host: with no persistence plugin, save and appendonly read as their defaults") {
  // plugins/placeholder_options.txt: clients reading CONFIG GET save/appendonly get an answer,
  // and a value only the missing plugin could honour is refused.
  FakeHost host;
  CHECK(host.GetOption("appendonly") == "no");
  CHECK(host.GetOption("save") == "");
  std::string err;
  CHECK_FALSE(host.SetOption("appendonly", "yes", &err));
  CHECK(err == "'appendonly' needs a plugin that provides it, and none is loaded");
  CHECK(host.SetOption("appendonly", "no"));
  CHECK_FALSE(host.SetOption("save", "900 1", &err));
  CHECK(host.GetOption("save") == "");
}

TEST_CASE("fake host: an invalid configured value fails the plugin's init") {
  FakeHost host;
  host.SetOption("kv.limit", "5gb");
  CHECK_FALSE(host.Load(plinth::kvtest::Descriptor()));
  CHECK(host.LoadError().find(
            "init returned an error: option 'kv.limit': argument must be between 0 and") !=
        std::string::npos);
}

TEST_CASE("fake host: INFO renders the registered sections") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  CHECK(host.Info("kv") == "# Kv\r\nkv_mode:test\r\nkv_answer:42\r\n");
  CHECK(host.Info("KV") == host.Info("kv"));
  CHECK(host.Info().find("# Server\r\n") == 0);  // the host's sections come first, as in INFO
  CHECK(host.Info().find("\r\n\r\n# Kv\r\nkv_mode:test\r\n") != std::string::npos);
}

TEST_CASE("fake host: logs are captured with the writer's name and not printed") {
  FakeHost host;
  auto d = Descriptor("talker", [](plinth_plugin_t* self, const plinth_host_api_t* api) {
    api->log_write(self, PLINTH_LOG_NOTICE, "ready", 5);
    return PLINTH_OK;
  });
  REQUIRE(host.Load(&d));
  auto logs = host.Logs();
  REQUIRE(logs.size() == 2);  // the plugin's line, then the loader's
  CHECK(logs[0].plugin == "talker");
  CHECK(logs[0].level == PLINTH_LOG_NOTICE);
  CHECK(logs[0].text == "ready");
  CHECK(logs[1].plugin.empty());
  CHECK(logs[1].text == "Plugin 'talker' 1 loaded from fake");
  host.ClearLogs();
  CHECK(host.Logs().empty());
}

TEST_CASE("fake host: timers fire as the clock advances and posted tasks run on demand") {
  FakeHost host;
  const plinth_host_api_t* api = host.Api();
  g_ticks = 0;
  plinth_plugin_t* self = host.TestPlugin();
  plinth_timer_t* repeat = api->timer_start(self, 100, 50, Tick, nullptr);
  plinth_timer_t* once = api->timer_start(self, 120, 0, Tick, nullptr);
  host.AdvanceTimeMs(99);
  CHECK(g_ticks == 0);
  host.AdvanceTimeMs(1);  // 100
  CHECK(g_ticks == 1);
  host.AdvanceTimeMs(100);  // 120 once, 150 and 200 repeat
  CHECK(g_ticks == 4);
  CHECK(host.TimeMs() == FakeHost::kDefaultTimeMs + 200);
  CHECK(host.ActiveTimers() == 1);
  api->timer_stop(repeat);
  api->timer_stop(once);
  host.AdvanceTimeMs(1000);
  CHECK(g_ticks == 4);
  CHECK(api->loop_post(self, Tick, nullptr) == PLINTH_OK);
  CHECK(g_ticks == 4);
  CHECK(host.RunPosted() == 1);
  CHECK(g_ticks == 5);
  CHECK(api->listener_add(self, 0, 3, "x") == PLINTH_ERR);  // no transport 0
}

TEST_CASE("fake host: shutdown hooks run once in reverse load order") {
  static std::string order;
  order.clear();
  auto a = Descriptor("a", InitOk);
  a.shutdown = [](plinth_plugin_t*) { order += "a"; };
  auto b = Descriptor("b", InitOk);
  b.shutdown = [](plinth_plugin_t*) { order += "b"; };
  {
    FakeHost host;
    REQUIRE(host.Load(&a));
    REQUIRE(host.Load(&b));
    host.Shutdown();
    CHECK(order == "ba");
  }
  CHECK(order == "ba");
}
