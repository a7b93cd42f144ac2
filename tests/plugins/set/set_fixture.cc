// The set command test fixture (see set_fixture.h).
#include "set_fixture.h"

#include <algorithm>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::set::test {
namespace {

std::vector<std::string> events;

void OnEvent(void*, int32_t, uint32_t type, const char* event, const char* key, size_t klen) {
  std::string cls = type == PLINTH_NOTIFY_SET       ? ""
                    : type == PLINTH_NOTIFY_GENERIC ? "g:"
                    : type == PLINTH_NOTIFY_NEW     ? "n:"
                                                    : "?:";
  events.push_back(cls + event + " " + std::string(key, klen));
}

int32_t InitListener(plinth_plugin_t* self, const plinth_host_api_t* api) {
  return api->keyspace_listener_register(self, &OnEvent, nullptr);
}

const plinth_plugin_descriptor_t kListener = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "events",
                                              "1",
                                              "records keyspace events for the set tests",
                                              &InitListener,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

void Flatten(fakehost::Reply* r) {
  if (r->type == fakehost::ReplyType::kMap || r->type == fakehost::ReplyType::kSet) {
    r->type = fakehost::ReplyType::kArray;
  }
  for (fakehost::Reply& e : r->elements) Flatten(&e);
}

}  // namespace

Fixture::Fixture() {
  events.clear();
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "set.so"), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/keys.so"),
                  host.LoadError());
  REQUIRE_MESSAGE(host.Load(&kListener, "events"), host.LoadError());
}

std::string Fixture::Run(const Argv& argv) {
  fakehost::Reply r = host.Call(argv);
  Flatten(&r);
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

std::vector<std::string> Fixture::Events() {
  std::vector<std::string> out;
  out.swap(events);
  return out;
}

std::vector<std::string> Fixture::Sorted(const fakehost::Reply& r) {
  std::vector<std::string> out;
  for (const fakehost::Reply& e : r.elements) out.push_back(e.str);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Fixture::Members(const std::string& key) {
  return Sorted(host.Call({"SMEMBERS", key}));
}

std::string Fixture::Encoding(const std::string& key) {
  return host.Call({"OBJECT", "ENCODING", key}).str;
}

}  // namespace plinth::set::test
