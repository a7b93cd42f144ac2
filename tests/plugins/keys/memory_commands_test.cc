// maxmemory through the keys plugin's commands in the fake host: OBJECT IDLETIME and FREQ from
// the host's access stamps, the eviction policies (which keys go, as DEL on the stream), the
// OOM refusals under noeviction, and the MEMORY subcommands. The fake host's memory figure is
// set by each test (SetUsedMemory), lowered by the test where the allocator's would go down.
#include <set>

#include "keys_fixture.h"

namespace plinth::keys::test {
namespace {

constexpr int64_t kLimit = 1 << 20;
const std::string kOom = "(error) OOM command not allowed when used memory > 'maxmemory'.";

std::string InfoField(fakehost::FakeHost& host, const std::string& section,
                      const std::string& name) {
  const std::string info = host.Info(section);
  const size_t at = info.find("\r\n" + name + ":");
  if (at == std::string::npos) return "";
  const size_t start = at + name.size() + 3;
  return info.substr(start, info.find("\r\n", start) - start);
}

struct MemoryFixture : Fixture {
  MemoryFixture() { host.SetTimeMs(kNow); }
  // Sets the policy and the limit. Tenacity 100: one command evicts until memory is under the
  // limit whatever it takes, so what a test sees does not depend on how fast the build runs
  // (a sanitizer build on a loaded machine evicted 16 keys within the default 500 us).
  void Policy(const std::string& policy) {
    std::string err;
    REQUIRE_MESSAGE(host.SetOption("maxmemory-policy", policy, &err), err);
    REQUIRE_MESSAGE(host.SetOption("maxmemory-eviction-tenacity", "100", &err), err);
    REQUIRE_MESSAGE(host.SetOption("maxmemory", std::to_string(kLimit), &err), err);
  }
  // The keys that are gone, from the DELs on the stream (each checked absent).
  std::set<std::string> Evicted() {
    std::set<std::string> out;
    for (const std::string& line : Propagated()) {
      REQUIRE(line.rfind("DEL ", 0) == 0);
      out.insert(line.substr(4));
      CHECK(Run({"EXISTS", line.substr(4)}) == "(integer) 0");
    }
    return out;
  }
};

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: OBJECT IDLETIME counts seconds since the last access, which only "
                  "real accesses reset") {
  host.PutString("k", "v");
  host.SetTimeMs(kNow + 30000);
  CHECK(Run({"OBJECT", "IDLETIME", "k"}) == "(integer) 30");
  // Looking at a key is no access (Redis's LOOKUP_NOTOUCH commands).
  for (const Argv& look :
       {Argv{"TYPE", "k"}, Argv{"EXISTS", "k"}, Argv{"TTL", "k"}, Argv{"PTTL", "k"},
        Argv{"OBJECT", "ENCODING", "k"}, Argv{"MEMORY", "USAGE", "k"}})
    Run(look);
  CHECK(Run({"OBJECT", "IDLETIME", "k"}) == "(integer) 30");
  CHECK(Run({"TOUCH", "k"}) == "(integer) 1");
  CHECK(Run({"OBJECT", "IDLETIME", "k"}) == "(integer) 0");
  host.SetTimeMs(kNow + 35000);
  CHECK(Run({"EXPIRE", "k", "100"}) == "(integer) 1");  // a write is an access too
  CHECK(Run({"OBJECT", "IDLETIME", "k"}) == "(integer) 0");
  CHECK(Run({"OBJECT", "IDLETIME", "nosuch"}) == "(nil)");
  CHECK(Run({"OBJECT", "FREQ", "k"})
            .rfind("(error) ERR An LFU maxmemory policy is not selected", 0) == 0);
}

// A command that turns CLIENT NO-TOUCH on for its client, as the connection plugin's CLIENT
// NO-TOUCH ON does.
const plinth_host_api_t* g_api = nullptr;
void NoTouchOn(plinth_call_t* c, void*) {
  g_api->client_attr_set(c, PLINTH_CLIENT_NO_TOUCH, "1", 1);
  g_api->reply_simple(c, "OK", 2);
}
int32_t NoTouchInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t spec{};
  spec.struct_size = sizeof spec;
  spec.name = "notouch-on";
  spec.arity = 1;
  spec.handler = NoTouchOn;
  return api->command_register(self, &spec);
}
const plinth_plugin_descriptor_t kNoTouch = {sizeof(plinth_plugin_descriptor_t),
                                             PLINTH_ABI_MAJOR,
                                             PLINTH_ABI_MINOR,
                                             0,
                                             "notouch",
                                             "1",
                                             "CLIENT NO-TOUCH ON as a command",
                                             NoTouchInit,
                                             nullptr,
                                             {nullptr, nullptr, nullptr, nullptr}};

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: a NO-TOUCH client's commands leave the access stamp, but its TOUCH "
                  "stamps the key") {
  REQUIRE_MESSAGE(host.Load(&kNoTouch, "notouch"), host.LoadError());
  Policy("allkeys-lfu");
  host.PutString("k", "v");
  CHECK(Run({"notouch-on"}) == "OK");
  for (int i = 0; i < 20; ++i) Run({"EXPIRE", "k", "100"});  // a write is an access, but not now
  CHECK(Run({"OBJECT", "FREQ", "k"}) == "(integer) 5");      // a new key's counter, untouched
  CHECK(Run({"TOUCH", "k"}) == "(integer) 1");
  CHECK(Run({"OBJECT", "FREQ", "k"}) == "(integer) 6");  // at 5 the first access always counts
  CHECK(Run({"EXPIRE", "k", "100"}) == "(integer) 1");   // NO-TOUCH holds again after TOUCH
  CHECK(Run({"OBJECT", "FREQ", "k"}) == "(integer) 6");
}

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: under an LFU policy OBJECT FREQ grows with accesses and decays one "
                  "per idle minute") {
  Policy("allkeys-lfu");
  host.PutString("k", "v");
  CHECK(Run({"OBJECT", "FREQ", "k"}) == "(integer) 5");  // a new key's counter
  for (int i = 0; i < 200; ++i) Run({"TOUCH", "k"});
  const std::string after = Run({"OBJECT", "FREQ", "k"});
  const int freq = std::stoi(after.substr(10));
  CHECK(freq > 7);
  CHECK(freq < 30);  // logarithmic: 200 accesses at lfu-log-factor 10
  host.SetTimeMs(kNow + 3 * 60000);
  CHECK(Run({"OBJECT", "FREQ", "k"}) == "(integer) " + std::to_string(freq - 3));
  CHECK(Run({"OBJECT", "IDLETIME", "k"})
            .rfind("(error) ERR An LFU maxmemory policy is selected", 0) == 0);
}

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: noeviction refuses what may grow memory with Redis's OOM error and "
                  "goes on serving reads") {
  Policy("noeviction");
  host.PutString("a", "1");
  host.SetUsedMemory(2 * kLimit);
  CHECK(Run({"COPY", "a", "b"}) == kOom);
  CHECK(Run({"EXISTS", "a"}) == "(integer) 1");
  CHECK(Run({"DEL", "a"}) == "(integer) 1");  // a write that frees memory runs
  host.PutString("a", "1");
  // Inside MULTI anything queued is refused, and EXEC then aborts; DISCARD still works.
  CHECK(Run({"MULTI"}) == "OK");
  CHECK(Run({"EXISTS", "a"}) == kOom);
  CHECK(Run({"EXEC"}).rfind("(error) EXECABORT", 0) == 0);
  CHECK(InfoField(host, "stats", "evicted_keys") == "0");
  CHECK(InfoField(host, "memory", "maxmemory") == std::to_string(kLimit));
  CHECK(InfoField(host, "memory", "maxmemory_human") == "1.00M");
  CHECK(InfoField(host, "memory", "maxmemory_policy") == "noeviction");
  host.SetUsedMemory(kLimit / 2);
  CHECK(Run({"COPY", "a", "b"}) == "(integer) 1");
}

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: allkeys-lru evicts the keys idle longest until under the limit, each "
                  "as DEL on the stream") {
  Policy("allkeys-lru");
  const std::string value(1000, 'x');
  for (int i = 0; i < 200; ++i) host.PutString("k" + std::to_string(i), value);
  host.SetTimeMs(kNow + 100000);
  for (int i = 100; i < 200; ++i) Run({"TOUCH", "k" + std::to_string(i)});
  Propagated();
  host.SetUsedMemory(kLimit + 40 * 1100);  // about 40 keys over
  CHECK(Run({"DBSIZE"}) != "(integer) 200");
  host.SetUsedMemory(kLimit);  // what the allocator would say now
  const std::set<std::string> gone = Evicted();
  CHECK(gone.size() >= 30);
  CHECK(gone.size() <= 45);
  CHECK(InfoField(host, "stats", "evicted_keys") == std::to_string(gone.size()));
  size_t idle = 0;
  for (const std::string& k : gone) idle += std::stoi(k.substr(1)) < 100;
  CHECK(idle * 10 >= gone.size() * 9);  // sampled, so approximately the idle ones
  // At the limit, not over it: nothing more goes.
  CHECK(Run({"DBSIZE"}) == "(integer) " + std::to_string(200 - gone.size()));
  CHECK(Propagated().empty());
}

TEST_CASE_FIXTURE(MemoryFixture,
                  "memory: volatile-lru evicts only keys with a TTL, then refuses with OOM") {
  Policy("volatile-lru");
  for (int i = 0; i < 20; ++i) host.PutString("keep" + std::to_string(i), "v");
  for (int i = 0; i < 10; ++i) {
    host.PutString("ttl" + std::to_string(i), "v");
    REQUIRE(host.SetExpireAtMs("ttl" + std::to_string(i), kNow + 3600000));
  }
  Propagated();
  host.SetUsedMemory(100 * kLimit);
  CHECK(Run({"COPY", "keep0", "copy"}) == kOom);  // every TTL key went, and it was not enough
  const std::set<std::string> gone = Evicted();
  CHECK(gone.size() == 10);
  for (const std::string& k : gone) CHECK(k.rfind("ttl", 0) == 0);
  CHECK(Run({"DBSIZE"}) == "(integer) 20");
}

TEST_CASE_FIXTURE(MemoryFixture, "memory: volatile-ttl evicts the key closest to expiring") {
  Policy("volatile-ttl");
  REQUIRE(host.SetOption("maxmemory-samples", "64"));
  for (int i = 0; i < 4; ++i) {
    host.PutString("t" + std::to_string(i), "v");
    REQUIRE(host.SetExpireAtMs("t" + std::to_string(i), kNow + (4 - i) * 1000000));
  }
  host.PutString("plain", "v");
  Propagated();
  host.SetUsedMemory(kLimit + 1);
  Run({"DBSIZE"});
  host.SetUsedMemory(kLimit);
  CHECK(Evicted() == std::set<std::string>{"t3"});
}

TEST_CASE_FIXTURE(MemoryFixture, "memory: MEMORY STATS, DOCTOR, MALLOC-STATS and PURGE") {
  host.PutString("a", std::string(100, 'x'));
  host.SetUsedMemory(50 << 20);
  const std::string stats = Run({"MEMORY", "STATS"});
  CHECK(stats.find("\"total.allocated\"") != std::string::npos);
  CHECK(stats.find("(integer) 52428800") != std::string::npos);
  CHECK(stats.find("\"keys.count\"") != std::string::npos);
  CHECK(stats.find("\"db.0\"") != std::string::npos);
  CHECK(stats.find("\"overhead.hashtable.main\"") != std::string::npos);
  CHECK(Run({"MEMORY", "DOCTOR"}).find("No memory problem found") != std::string::npos);
  CHECK(!Run({"MEMORY", "MALLOC-STATS"}).empty());
  CHECK(Run({"MEMORY", "PURGE"}) == "OK");
}

}  // namespace
}  // namespace plinth::keys::test
