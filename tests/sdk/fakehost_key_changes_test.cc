// Key change listeners and client_info_int through the fake host: a "watcher" plugin whose one
// command runs the test's code and whose listener records what it hears.
#include <doctest/doctest.h>

#include <functional>
#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

using plinth::fakehost::FakeHost;

namespace {

const plinth_host_api_t* api = nullptr;
plinth_plugin_t* g_self = nullptr;
int64_t g_listener = -1;
std::function<void(plinth_call_t*)> g_probe;
std::vector<std::string> g_heard;  // "db key client", key "-" for a flush

void Heard(void*, int32_t db, const char* key, size_t klen, uint64_t client) {
  g_heard.push_back(std::to_string(db) + " " + (key ? std::string(key, klen) : "-") + " " +
                    std::to_string(client));
}

void Probe(plinth_call_t* c, void*) {
  g_probe(c);
  api->reply_simple(c, "OK", 2);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  g_self = self;
  g_listener = api->key_change_listener_register(self, Heard, nullptr);
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = "probe";
  s.arity = -1;
  s.flags = PLINTH_CMD_WRITE;
  s.handler = Probe;
  return g_listener >= 0 ? api->command_register(self, &s) : PLINTH_ERR;
}

const plinth_plugin_descriptor_t kWatcher = {sizeof(plinth_plugin_descriptor_t),
                                             PLINTH_ABI_MAJOR,
                                             PLINTH_ABI_MINOR,
                                             0,
                                             "watcher",
                                             "1",
                                             "hears key changes",
                                             Init,
                                             nullptr,
                                             {nullptr, nullptr, nullptr, nullptr}};

void Set(plinth_call_t* c, const std::string& k) {
  api->key_set(c, k.data(), k.size(), api->value_create_string("v", 1), 0);
}

}  // namespace

TEST_CASE("key change listener: hears writes, deletes, expiry and flushes only while on") {
  FakeHost host;
  g_heard.clear();
  REQUIRE_MESSAGE(host.Load(&kWatcher, "watcher"), host.LoadError());
  g_probe = [](plinth_call_t* c) { Set(c, "a"); };
  host.Call({"probe"});
  CHECK(g_heard.empty());  // off until turned on
  CHECK(api->key_change_listener_set(g_self, g_listener, 1) == PLINTH_OK);
  CHECK(api->key_change_listener_set(g_self, g_listener + 1, 1) == PLINTH_ERR);
  host.Call({"probe"});
  const uint64_t b = host.AddClient();
  g_probe = [](plinth_call_t* c) { api->key_delete(c, "a", 1); };
  host.CallAs(b, {"probe"});
  g_probe = [](plinth_call_t* c) { Set(c, "e"); };
  host.Call({"probe"});
  REQUIRE(host.SetExpireAtMs("e", host.TimeMs() + 10));
  host.AdvanceTimeMs(500);  // the active expiry cycle, outside any command
  g_probe = [](plinth_call_t* c) { api->db_flush(c, -1, 0); };
  host.Call({"probe"});
  CHECK(g_heard ==
        std::vector<std::string>{"0 a 1", "0 a " + std::to_string(b), "0 e 1", "0 e 0", "-1 - 1"});
  CHECK(api->key_change_listener_set(g_self, g_listener, 0) == PLINTH_OK);
  g_probe = [](plinth_call_t* c) { Set(c, "z"); };
  host.Call({"probe"});
  CHECK(g_heard.size() == 5);
}

TEST_CASE("client_info_int: another client's protocol and subscriptions, -1 for none") {
  FakeHost host;
  REQUIRE_MESSAGE(host.Load(&kWatcher, "watcher"), host.LoadError());
  const uint64_t b = host.AddClient();
  host.SetClientProtocol(b, 3);
  CHECK(api->client_info_int(g_self, b, PLINTH_CLIENT_INFO_PROTOCOL) == 3);
  CHECK(api->client_info_int(g_self, 1, PLINTH_CLIENT_INFO_PROTOCOL) == 2);
  g_probe = [](plinth_call_t* c) { api->client_set_subscriptions(c, 2, 1); };
  host.CallAs(b, {"probe"});
  CHECK(api->client_info_int(g_self, b, PLINTH_CLIENT_INFO_SUBSCRIPTIONS) == 3);
  CHECK(api->client_info_int(g_self, b, 99) == -1);
  CHECK(api->client_info_int(g_self, 12345, PLINTH_CLIENT_INFO_PROTOCOL) == -1);
  host.CloseClient(b);
  CHECK(api->client_info_int(g_self, b, PLINTH_CLIENT_INFO_PROTOCOL) == -1);
}
