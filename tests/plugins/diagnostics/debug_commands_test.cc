// DEBUG through the fake host (which starts with enable-debug-command yes): the container's
// HELP, SLEEP, OBJECT and SET-ACTIVE-EXPIRE, Redis's errors, and a subcommand another plugin
// registers ("debug|reload") reaching that plugin's handler.
#include <doctest/doctest.h>

#include <chrono>
#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

const plinth_host_api_t* g_api = nullptr;

void Reload(plinth_call_t* c, void*) { g_api->reply_simple(c, "RELOADED", 8); }

// Registers "debug|reload" before DEBUG exists (the host stands in until diagnostics loads).
int32_t ReloaderInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = "debug|reload";
  s.arity = -2;
  s.flags = PLINTH_CMD_PROTECTED | PLINTH_CMD_ADMIN;
  s.handler = Reload;
  return api->command_register(self, &s);
}

const plinth_plugin_descriptor_t kReloader = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "reloader",
                                              "1",
                                              "a DEBUG subcommand of its own",
                                              ReloaderInit,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

struct Fixture {
  explicit Fixture(bool reloader = false) {
    if (reloader) REQUIRE_MESSAGE(host.Load(&kReloader, "reloader"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "diagnostics.so"), host.LoadError());
  }
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  plinth::fakehost::FakeHost host;
};

bool HelpHas(plinth::fakehost::FakeHost& host, const std::string& line) {
  for (const auto& e : host.Call({"debug", "help"}).elements)
    if (e.str == line) return true;
  return false;
}

}  // namespace

TEST_CASE("DEBUG: the container is flagged as Redis flags it") {
  Fixture f;
  const plinth_command_spec_t* spec = f.host.FindCommand("debug");
  REQUIRE(spec != nullptr);
  CHECK(spec->arity == -2);
  const uint32_t want = PLINTH_CMD_PROTECTED | PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT |
                        PLINTH_CMD_LOADING | PLINTH_CMD_STALE;
  CHECK((spec->flags & want) == want);
  CHECK(spec->acl_categories == (PLINTH_ACL_ADMIN | PLINTH_ACL_SLOW | PLINTH_ACL_DANGEROUS));
}

TEST_CASE("DEBUG: unknown subcommands and wrong argument counts get Redis's error") {
  Fixture f;
  CHECK(f.Run({"debug", "FOO"}) ==
        "(error) ERR unknown subcommand or wrong number of arguments for 'FOO'. Try DEBUG "
        "HELP.");
  CHECK(f.Run({"debug", "sleep"}) ==
        "(error) ERR unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG "
        "HELP.");
  CHECK(f.Run({"debug", "help", "x"}) ==
        "(error) ERR unknown subcommand or wrong number of arguments for 'help'. Try DEBUG "
        "HELP.");
  CHECK(f.Run({"debug"}) == "(error) ERR wrong number of arguments for 'debug' command");
}

TEST_CASE("DEBUG SLEEP stops the server for the seconds asked, decimals allowed") {
  Fixture f;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(f.Run({"debug", "sleep", "0.05"}) == "OK");
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(50));
  CHECK(f.Run({"debug", "sleep", "0"}) == "OK");
  CHECK(f.Run({"debug", "sleep", "abc"}) == "OK");  // as Redis: strtod reads 0
}

TEST_CASE("DEBUG OBJECT describes a key's value as Redis does, or says there is no key") {
  Fixture f;
  CHECK(f.Run({"debug", "object", "nokey"}) == "(error) ERR no such key");
  f.host.PutString("k", "v");
  f.host.PutString("n", "1234567");
  const std::string k = f.Run({"debug", "object", "k"});
  CHECK(k.rfind("Value at:0x", 0) == 0);
  CHECK(k.find(" refcount:1 encoding:embstr serializedlength:2 lru:") != std::string::npos);
  CHECK(k.find(" lru_seconds_idle:0") != std::string::npos);
  CHECK(f.Run({"debug", "object", "n"}).find("encoding:int serializedlength:5 ") !=
        std::string::npos);
  f.host.AdvanceTimeMs(3000);
  CHECK(f.Run({"debug", "object", "k"}).find(" lru_seconds_idle:3") != std::string::npos);
}

TEST_CASE("DEBUG SET-ACTIVE-EXPIRE 0 leaves expired keys until read, 1 expires them again") {
  Fixture f;
  f.host.PutString("gone", "v");
  REQUIRE(f.host.SetExpireAtMs("gone", f.host.TimeMs() + 50));
  CHECK(f.Run({"debug", "set-active-expire", "0"}) == "OK");
  f.host.AdvanceTimeMs(1000);
  CHECK(f.host.KeyCount() == 1);  // still stored: no active expiry
  CHECK(f.Run({"debug", "set-active-expire", "1"}) == "OK");
  f.host.AdvanceTimeMs(1000);
  CHECK(f.host.KeyCount() == 0);
}

TEST_CASE("DEBUG: another plugin's subcommand runs its own handler and joins HELP") {
  Fixture without;
  CHECK_FALSE(HelpHas(without.host, "RELOAD"));
  CHECK(without.Run({"debug", "reload"}) ==
        "(error) ERR unknown subcommand or wrong number of arguments for 'reload'. Try DEBUG "
        "HELP.");
  Fixture with(true);
  CHECK(with.Run({"debug", "RELOAD"}) == "RELOADED");
  CHECK(HelpHas(with.host, "RELOAD"));
  CHECK(HelpHas(with.host, "SLEEP <seconds>"));
}
