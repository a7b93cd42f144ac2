// The strings command test fixture and its helper plugin (see commands_fixture.h).
#include "commands_fixture.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::strings::test {
namespace {

const plinth_host_api_t* api = nullptr;
uint32_t other_type = 0;
plinth_plugin_t* plugin = nullptr;

std::string_view Arg(plinth_call_t* c, int i) {
  size_t len = 0;
  const char* p = api->call_arg(c, i, &len);
  return std::string_view(p ? p : "", len);
}

void MkOther(plinth_call_t* c, void*) {
  std::string_view k = Arg(c, 1);
  plinth_value_t* v = api->value_create_typed(plugin, other_type, std::malloc(1));
  api->key_set(c, k.data(), k.size(), v, 0);
  api->reply_simple(c, "OK", 2);
}

void Del(plinth_call_t* c, void*) {
  std::string_view k = Arg(c, 1);
  api->reply_integer(c, api->key_delete(c, k.data(), k.size()));
}

void PExpireAt(plinth_call_t* c, void*) {
  std::string_view k = Arg(c, 1);
  int64_t when = std::atoll(std::string(Arg(c, 2)).c_str());
  api->reply_integer(c, api->key_expire_set(c, k.data(), k.size(), when));
}

void Persist(plinth_call_t* c, void*) {
  std::string_view k = Arg(c, 1);
  api->reply_integer(c, api->key_expire_set(c, k.data(), k.size(), -1));
}

int32_t Register(plinth_plugin_t* self, const char* name, int32_t arity, plinth_command_fn fn) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.arity = arity;
  s.flags = PLINTH_CMD_WRITE;
  s.first_key = s.last_key = s.key_step = 1;
  s.handler = fn;
  return api->command_register(self, &s);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  plugin = self;
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "other";
  t.free_payload = &std::free;
  t.copy = [](const void* p) -> void* {
    void* c = std::malloc(1);
    if (c) std::memcpy(c, p, 1);
    return c;
  };
  other_type = api->type_register(self, &t);
  if (other_type == 0) return PLINTH_ERR;
  if (Register(self, "mkother", 2, MkOther) != PLINTH_OK) return PLINTH_ERR;
  if (Register(self, "del", -2, Del) != PLINTH_OK) return PLINTH_ERR;
  if (Register(self, "pexpireat", -3, PExpireAt) != PLINTH_OK) return PLINTH_ERR;
  if (Register(self, "persist", 2, Persist) != PLINTH_OK) return PLINTH_ERR;
  // The protocol plugin's limit, as resp registers it, but with no 1mb floor so the tests can
  // reach it with small values.
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = "proto-max-bulk-len";
  o.type = PLINTH_OPT_MEMORY;
  o.flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
  o.default_value = "512mb";
  o.min = 1;
  o.max = INT64_MAX;
  return api->option_register(self, &o) ? PLINTH_OK : PLINTH_ERR;
}

const plinth_plugin_descriptor_t kOther = {sizeof(plinth_plugin_descriptor_t),
                                           PLINTH_ABI_MAJOR,
                                           PLINTH_ABI_MINOR,
                                           0,
                                           "other",
                                           "1",
                                           "test helper for the strings plugin",
                                           &Init,
                                           nullptr,
                                           {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

const plinth_plugin_descriptor_t* OtherPluginDescriptor() { return &kOther; }

Fixture::Fixture(bool helper) {
  // The helper first: like resp in the server, it registers the limit strings reads.
  if (helper) REQUIRE_MESSAGE(host.Load(OtherPluginDescriptor(), "other"), host.LoadError());
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "strings.so"), host.LoadError());
}

namespace {

// A RESP2 client sees maps and sets as flat arrays (redis-cli prints them so).
void FlattenForResp2(fakehost::Reply* r) {
  if (r->type == fakehost::ReplyType::kMap || r->type == fakehost::ReplyType::kSet) {
    r->type = fakehost::ReplyType::kArray;
  }
  for (fakehost::Reply& e : r->elements) FlattenForResp2(&e);
}

}  // namespace

std::string Fixture::Run(const Argv& argv) {
  fakehost::Reply r = host.Call(argv);
  FlattenForResp2(&r);
  return r.ToString();
}

std::vector<std::string> Fixture::Propagated() {
  std::vector<std::string> out;
  for (const fakehost::PropagatedCommand& p : host.Propagated()) {
    std::string line;
    for (const std::string& a : p.argv) line += (line.empty() ? "" : " ") + a;
    out.push_back(line);
  }
  host.ClearPropagated();
  return out;
}

}  // namespace plinth::strings::test
