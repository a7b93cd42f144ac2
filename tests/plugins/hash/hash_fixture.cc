// The hash command test fixture (see hash_fixture.h).
#include "hash_fixture.h"

#include <doctest/doctest.h>

#include <string_view>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::hash::test {
namespace {

std::vector<std::string>* recorded = nullptr;

void Listen(void* ctx, int32_t, uint32_t, const char* event, const char* key, size_t klen) {
  auto* out = static_cast<std::vector<std::string>*>(ctx);
  out->push_back(std::string(event) + " " + std::string(key, klen));
}

int32_t InitRecorder(plinth_plugin_t* self, const plinth_host_api_t* api) {
  return api->keyspace_listener_register(self, &Listen, recorded);
}

const plinth_plugin_descriptor_t kRecorder = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "recorder",
                                              "1",
                                              "records keyspace events for the hash tests",
                                              &InitRecorder,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

std::vector<std::string> events;

std::string PluginPath(const char* name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

void FlattenForResp2(fakehost::Reply* r) {
  if (r->type == fakehost::ReplyType::kMap || r->type == fakehost::ReplyType::kSet) {
    r->type = fakehost::ReplyType::kArray;
  }
  for (fakehost::Reply& e : r->elements) FlattenForResp2(&e);
}

}  // namespace

Fixture::Fixture(bool others) {
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "hash.so"), host.LoadError());
  if (!others) return;
  REQUIRE_MESSAGE(host.LoadFile(PluginPath("keys")), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(PluginPath("strings")), host.LoadError());
  events.clear();
  recorded = &events;
  REQUIRE_MESSAGE(host.Load(&kRecorder, "recorder"), host.LoadError());
}

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

std::vector<std::string> Fixture::Events() {
  std::vector<std::string> out;
  out.swap(events);
  return out;
}

void Fixture::Fill(const std::string& key, int n) {
  Argv argv = {"hset", key};
  for (int i = 0; i < n; ++i) {
    argv.push_back("f" + std::to_string(i));
    argv.push_back("v" + std::to_string(i));
  }
  REQUIRE(host.Call(argv).integer == n);
}

}  // namespace plinth::hash::test
