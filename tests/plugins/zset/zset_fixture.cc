// The zset command-test fixture and its helper plugin (see zset_fixture.h).
#include "zset_fixture.h"

#include <cstdio>
#include <string_view>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::zset::test {
namespace {

const plinth_host_api_t* api = nullptr;
std::vector<std::string>* events = nullptr;

// Records every event but the host's own "new" (key created) ones.
void OnEvent(void*, int32_t, uint32_t type, const char* event, const char* key, size_t klen) {
  if (type == PLINTH_NOTIFY_NEW) return;
  if (events) events->push_back(std::string(event) + " " + std::string(key, klen));
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
                                            "zsethelper",
                                            "1",
                                            "test helper for the zset plugin",
                                            &Init,
                                            nullptr,
                                            {nullptr, nullptr, nullptr, nullptr}};

std::vector<std::string> g_events;

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
    case ReplyType::kSimple:
    case ReplyType::kBulk:
    case ReplyType::kVerbatim:
    case ReplyType::kBigNumber:
      return r.str;
    case ReplyType::kError:
      return "!" + r.str;
    case ReplyType::kInteger:
    case ReplyType::kBool:
      return ":" + std::to_string(r.integer);
    case ReplyType::kDouble: {
      char buf[64];
      std::snprintf(buf, sizeof buf, ",%.17g", r.dbl);
      return buf;
    }
    case ReplyType::kNull:
      return "nil";
    case ReplyType::kNullArray:
      return "nilarray";
    case ReplyType::kArray:
    case ReplyType::kPush:
      list("[", "]");
      return out;
    case ReplyType::kMap:
      list("{", "}");
      return out;
    case ReplyType::kSet:
      list("~[", "]");
      return out;
  }
  return "?";
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

Fixture::Fixture(bool with_keys) {
  events = &g_events;
  g_events.clear();
  REQUIRE_MESSAGE(host.Load(&kHelper, "zsethelper"), host.LoadError());
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "zset.so"), host.LoadError());
  if (with_keys) {
    REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/keys.so"),
                    host.LoadError());
  }
}

std::string Fixture::R(const std::string& line) { return Run(Split(line)); }

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
  out.swap(g_events);
  return out;
}

}  // namespace plinth::zset::test
