// The stream command-test fixture and its helper plugin (see stream_fixture.h).
#include "stream_fixture.h"

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::stream::test {
namespace {

const plinth_host_api_t* api = nullptr;
std::vector<std::string> g_events;

void OnEvent(void*, int32_t, uint32_t type, const char* event, const char* key, size_t klen) {
  if (type == PLINTH_NOTIFY_NEW) return;
  g_events.push_back(std::string(event) + " " + std::string(key, klen));
}

void SetStr(plinth_call_t* c, void*) {
  size_t kl = 0, vl = 0;
  const char* k = api->call_arg(c, 1, &kl);
  const char* v = api->call_arg(c, 2, &vl);
  api->key_set(c, k, kl, api->value_create_string(v, vl), 0);
  api->reply_simple(c, "OK", 2);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  if (api->keyspace_listener_register(self, &OnEvent, nullptr) != PLINTH_OK) return PLINTH_ERR;
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = "setstr";
  s.arity = 3;
  s.flags = PLINTH_CMD_WRITE;
  s.first_key = s.last_key = s.key_step = 1;
  s.handler = &SetStr;
  return api->command_register(self, &s);
}

const plinth_plugin_descriptor_t kHelper = {sizeof(plinth_plugin_descriptor_t),
                                            PLINTH_ABI_MAJOR,
                                            PLINTH_ABI_MINOR,
                                            0,
                                            "streamhelper",
                                            "1",
                                            "test helper for the stream plugin",
                                            &Init,
                                            nullptr,
                                            {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

std::string Render(const fakehost::Reply& r) {
  using fakehost::ReplyType;
  std::string out;
  auto list = [&](const char* open, const char* close) {
    out += open;
    for (size_t i = 0; i < r.elements.size(); ++i) {
      if (i) out += " ";
      out += Render(r.elements[i]);
    }
    out += close;
  };
  switch (r.type) {
    case ReplyType::kError:
      return "!" + r.str;
    case ReplyType::kInteger:
    case ReplyType::kBool:
      return ":" + std::to_string(r.integer);
    case ReplyType::kNull:
      return "nil";
    case ReplyType::kNullArray:
      return "nilarray";
    case ReplyType::kArray:
    case ReplyType::kPush:
    case ReplyType::kSet:
      list("[", "]");
      return out;
    case ReplyType::kMap:
      list("{", "}");
      return out;
    default:
      return r.str;
  }
}

Argv Split(const std::string& line) {
  Argv out;
  size_t i = 0;
  while (i <= line.size()) {
    const size_t j = line.find(' ', i);
    out.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

Fixture::Fixture() {
  g_events.clear();
  REQUIRE_MESSAGE(host.Load(&kHelper, "streamhelper"), host.LoadError());
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "stream.so"), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/keys.so"),
                  host.LoadError());
  g_events.clear();
}

std::string Fixture::R(const std::string& line) { return Render(host.Call(Split(line))); }

std::string Fixture::RunAs(uint64_t id, const std::string& line) {
  std::optional<fakehost::Reply> r = host.CallAs(id, Split(line));
  return r ? Render(*r) : "(blocked)";
}

std::string Fixture::Taken(uint64_t id) {
  std::string out;
  for (const fakehost::Reply& r : host.TakeReplies(id))
    out += (out.empty() ? "" : " | ") + Render(r);
  return out;
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

std::vector<std::string> Fixture::Events() {
  std::vector<std::string> out;
  out.swap(g_events);
  return out;
}

}  // namespace plinth::stream::test
