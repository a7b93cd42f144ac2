// The list command test fixture and its event-recording helper plugin (see list_fixture.h).
#include "list_fixture.h"

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::list::test {
namespace {

std::vector<std::string>* g_events = nullptr;

void OnEvent(void*, int32_t, uint32_t, const char* event, const char* key, size_t klen) {
  if (g_events) g_events->push_back(std::string(event) + ":" + std::string(key, klen));
}

const plinth_host_api_t* g_api = nullptr;

// MKSTR key value: stores a string value (the strings plugin is not loaded here).
void MkStr(plinth_call_t* c, void*) {
  size_t klen = 0, vlen = 0;
  const char* k = g_api->call_arg(c, 1, &klen);
  const char* v = g_api->call_arg(c, 2, &vlen);
  g_api->key_set(c, k, klen, g_api->value_create_string(v, vlen), 0);
  g_api->reply_simple(c, "OK", 2);
}

int32_t RecorderInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = "mkstr";
  s.arity = 3;
  s.flags = PLINTH_CMD_WRITE;
  s.first_key = s.last_key = s.key_step = 1;
  s.handler = &MkStr;
  if (api->command_register(self, &s) != PLINTH_OK) return PLINTH_ERR;
  return api->keyspace_listener_register(self, &OnEvent, nullptr);
}

const plinth_plugin_descriptor_t kRecorder = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "events",
                                              "1",
                                              "records keyspace events for the list tests",
                                              &RecorderInit,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

std::vector<std::string> recorded;

void Flatten(fakehost::Reply* r) {
  if (r->type == fakehost::ReplyType::kMap || r->type == fakehost::ReplyType::kSet)
    r->type = fakehost::ReplyType::kArray;
  for (fakehost::Reply& e : r->elements) Flatten(&e);
}

}  // namespace

std::string Render(fakehost::Reply r) {
  Flatten(&r);
  return r.ToString();
}

Fixture::Fixture(bool with_keys) {
  recorded.clear();
  g_events = &recorded;
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "list.so"), host.LoadError());
  REQUIRE_MESSAGE(host.Load(&kRecorder, "events"), host.LoadError());
  if (with_keys) {
    REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/keys.so"),
                    host.LoadError());
  }
}

std::string Fixture::Run(const Argv& argv) { return Render(host.Call(argv)); }

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

std::vector<std::string> Fixture::Events() {
  std::vector<std::string> out;
  out.swap(recorded);
  return out;
}

std::string Fixture::RunAs(uint64_t id, const Argv& argv) {
  std::optional<fakehost::Reply> r = host.CallAs(id, argv);
  return r ? Render(*r) : "(blocked)";
}

std::string Fixture::Taken(uint64_t id) {
  std::string out;
  for (const fakehost::Reply& r : host.TakeReplies(id))
    out += (out.empty() ? "" : " | ") + Render(r);
  return out;
}

}  // namespace plinth::list::test
