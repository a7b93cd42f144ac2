// The fake host's keyspace calls made from inside a command: key_move, key_scan, key_random,
// db_flush, db_swap, TTLs and the dirty counter, through a "probe" plugin whose one command
// runs the test's code.
#include <doctest/doctest.h>

#include <functional>
#include <plinth/fakehost.hpp>
#include <set>
#include <string>

using plinth::fakehost::FakeHost;

namespace {

const plinth_host_api_t* api = nullptr;
std::function<void(plinth_call_t*)> g_probe;

void Probe(plinth_call_t* c, void*) {
  g_probe(c);
  api->reply_simple(c, "OK", 2);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = "probe";
  s.arity = -1;
  s.flags = PLINTH_CMD_WRITE;
  s.handler = Probe;
  return api->command_register(self, &s);
}

const plinth_plugin_descriptor_t kProbe = {sizeof(plinth_plugin_descriptor_t),
                                           PLINTH_ABI_MAJOR,
                                           PLINTH_ABI_MINOR,
                                           0,
                                           "probe",
                                           "1",
                                           "runs test code inside a call",
                                           Init,
                                           nullptr,
                                           {nullptr, nullptr, nullptr, nullptr}};

// Runs fn inside a PROBE call.
void InCall(FakeHost& host, std::function<void(plinth_call_t*)> fn) {
  g_probe = std::move(fn);
  CHECK(host.Call({"PROBE"}).ToString() == "OK");
}

}  // namespace

TEST_CASE("fake host keys: key_move renames, copies, moves between dbs and honours NX") {
  FakeHost host;
  REQUIRE(host.Load(&kProbe));
  host.PutString("a", "1");
  host.PutString("b", "2");
  InCall(host, [](plinth_call_t* c) {
    CHECK(api->key_move(c, "a", 1, "b", 1, -1, PLINTH_MOVE_NX) == 0);
    CHECK(api->key_move(c, "a", 1, "b", 1, -1, PLINTH_MOVE_COPY) == 0);
    CHECK(api->key_move(c, "a", 1, "c", 1, -1, PLINTH_MOVE_COPY) == 1);
    CHECK(api->key_move(c, "a", 1, "a", 1, -1, 0) == 1);
    CHECK(api->key_move(c, "zz", 2, "b", 1, -1, 0) == -1);
    CHECK(api->key_move(c, "a", 1, "a", 1, 16, 0) == -3);
    CHECK(api->key_move(c, "a", 1, "b", 1, -1, 0) == 1);  // RENAME overwrites
    CHECK(api->key_move(c, "c", 1, "c", 1, 5, PLINTH_MOVE_NX) == 1);
  });
  CHECK(host.GetString("a") == std::nullopt);
  CHECK(host.GetString("b") == "1");
  CHECK(host.GetString("c", 5) == "1");
  CHECK(host.Propagated().size() == 1);
  CHECK(host.Propagated()[0].argv == std::vector<std::string>{"PROBE"});
}

TEST_CASE("fake host keys: key_move keeps the TTL and key_expire_get reports it") {
  FakeHost host;
  REQUIRE(host.Load(&kProbe));
  host.PutString("k", "v");
  const int64_t at = host.TimeMs() + 5000;
  InCall(host, [at](plinth_call_t* c) {
    CHECK(api->key_expire_get(c, "k", 1) == -1);
    CHECK(api->key_expire_get(c, "none", 4) == -2);
    CHECK(api->key_expire_set(c, "k", 1, at) == 1);
    CHECK(api->key_expire_set(c, "none", 4, at) == 0);
    CHECK(api->key_move(c, "k", 1, "m", 1, -1, 0) == 1);
    CHECK(api->key_expire_get(c, "m", 1) == at);
    plinth_value_t* v = api->value_create_string("w", 1);
    CHECK(api->key_set(c, "m", 1, v, PLINTH_SET_KEEPTTL) == PLINTH_OK);
    CHECK(api->key_expire_get(c, "m", 1) == at);
    CHECK(api->key_set(c, "m", 1, api->value_create_string("x", 1), 0) == PLINTH_OK);
    CHECK(api->key_expire_get(c, "m", 1) == -1);
  });
}

TEST_CASE("fake host keys: key_scan visits every key once across calls") {
  FakeHost host;
  REQUIRE(host.Load(&kProbe));
  for (int i = 0; i < 100; ++i) host.PutString("key:" + std::to_string(i), "v");
  InCall(host, [](plinth_call_t* c) {
    std::multiset<std::string> seen;
    uint64_t cursor = 0;
    int rounds = 0;
    do {
      cursor = api->key_scan(
          c, cursor, 7,
          [](void* arg, const char* k, size_t len, const plinth_value_t*) {
            static_cast<std::multiset<std::string>*>(arg)->emplace(k, len);
          },
          &seen);
      ++rounds;
      if (rounds == 3) api->key_delete(c, "key:1", 5);  // removing others must not skip keys
    } while (cursor != 0 && rounds < 1000);
    CHECK(rounds > 5);  // several calls, so the delete falls mid-scan
    CHECK(seen.size() >= 99);
    CHECK(seen.count("key:0") == 1);
    for (int i = 2; i < 100; ++i) CHECK(seen.count("key:" + std::to_string(i)) == 1);
  });
}

TEST_CASE("fake host keys: key_random, db_size, db_swap and db_flush") {
  FakeHost host;
  REQUIRE(host.Load(&kProbe));
  host.PutString("a", "1", 0);
  host.PutString("b", "2", 1);
  const uint64_t dirty = host.Dirty();
  InCall(host, [](plinth_call_t* c) {
    std::string picked;
    CHECK(api->key_random(
              c,
              [](void* arg, const char* k, size_t len, const plinth_value_t*) {
                static_cast<std::string*>(arg)->assign(k, len);
              },
              &picked) == 1);
    CHECK(picked == "a");
    CHECK(api->db_size(c) == 1);
    CHECK(api->db_count(c) == 16);
    CHECK(api->db_current(c) == 0);
    CHECK(api->db_swap(c, 0, 1) == PLINTH_OK);
    CHECK(api->db_swap(c, 0, 16) == PLINTH_ERR);
    size_t len = 0;
    const char* b = api->value_string(api->key_get(c, "b", 1), &len);
    CHECK(std::string(b ? b : "", len) == "2");
    api->db_flush(c, 1, 0);
  });
  CHECK(host.KeyCount(1) == 0);
  CHECK(host.KeyCount(0) == 1);
  CHECK(host.Dirty() > dirty);
}

TEST_CASE("fake host keys: value encodings follow Redis's rules") {
  FakeHost host;
  const plinth_host_api_t* a = host.Api();
  auto enc = [a](const std::string& s) {
    plinth_value_t* v = a->value_create_string(s.data(), s.size());
    int32_t e = a->value_encoding(v);
    a->value_release(v);
    return e;
  };
  CHECK(enc("12345") == PLINTH_ENC_INT);
  CHECK(enc("-7") == PLINTH_ENC_INT);
  CHECK(enc("012") == PLINTH_ENC_EMBSTR);
  CHECK(enc(std::string(44, 'x')) == PLINTH_ENC_EMBSTR);
  CHECK(enc(std::string(45, 'x')) == PLINTH_ENC_RAW);
  CHECK(std::string(a->type_name(host.TestPlugin(), PLINTH_TYPE_STRING)) == "string");
  CHECK(std::string(a->type_name(host.TestPlugin(), PLINTH_TYPE_NONE)) == "none");
}
