// Unit tests of the ctr plugin against the SDK's fake host: exactly what each command puts on
// the propagation stream. The fake host runs the server's core with none of the bundled
// plugins, so SET, DECRBY and the others exist only where a test loads a stand-in for the
// strings plugin (validation looks at the command table, never at what a command does).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

using plinth::fakehost::FakeHost;
using plinth::fakehost::PropagatedCommand;
using Argv = std::vector<std::string>;

namespace {

// Stand-ins for the strings plugin's commands: only their names and arities matter here.
struct StandIn {
  const char* name;
  int32_t arity;
};
const StandIn kStrings[] = {{"set", -3}, {"decrby", 3}, {"incrby", 3}, {"incr", 2}};
// A server whose SET takes exactly key and value (some other plugin's SET).
const StandIn kNarrowSet[] = {{"set", 3}, {"decrby", 3}, {"incrby", 3}, {"incr", 2}};
const StandIn* stand_ins = nullptr;
size_t stand_in_count = 0;

void StandInHandler(plinth_call_t* call, void* ctx) {
  static_cast<const plinth_host_api_t*>(ctx)->reply_simple(call, "OK", 2);
}

int32_t StandInInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  for (size_t i = 0; i < stand_in_count; ++i) {
    plinth_command_spec_t s{};
    s.struct_size = sizeof s;
    s.name = stand_ins[i].name;
    s.arity = stand_ins[i].arity;
    s.flags = PLINTH_CMD_WRITE;
    s.first_key = s.last_key = s.key_step = 1;
    s.handler = StandInHandler;
    s.ctx = const_cast<plinth_host_api_t*>(api);
    if (api->command_register(self, &s) != PLINTH_OK) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

const plinth_plugin_descriptor_t kStandIn = {sizeof(plinth_plugin_descriptor_t),
                                             PLINTH_ABI_MAJOR,
                                             PLINTH_TARGET_MINOR,
                                             0,
                                             "standin",
                                             "0",
                                             "stand-ins for the strings commands",
                                             StandInInit,
                                             nullptr,
                                             {nullptr, nullptr, nullptr, nullptr}};

template <size_t N>
void LoadStandIn(FakeHost& host, const StandIn (&table)[N]) {
  stand_ins = table;
  stand_in_count = N;
  REQUIRE_MESSAGE(host.Load(&kStandIn, "standin"), host.LoadError());
}

// The propagated commands as argv lists (database 0 checked separately where it matters).
std::vector<Argv> Emitted(const FakeHost& host) {
  std::vector<Argv> out;
  for (const PropagatedCommand& c : host.Propagated()) out.push_back(c.argv);
  return out;
}

}  // namespace

TEST_CASE("ctr: CTR.INCRBY emits SET ... KEEPTTL unvalidated, even where SET is unknown") {
  FakeHost host;  // no strings plugin: the table has no SET
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK_FALSE(host.HasCommand("set"));
  CHECK(host.Call({"CTR.INCRBY", "hits", "5"}).integer == 5);
  CHECK(host.Call({"ctr.incrby", "hits", "-2"}).integer == 3);
  CHECK(host.GetString("hits") == "3");
  // One effect per command: no MULTI; the bypass appends whatever it is given.
  CHECK(Emitted(host) ==
        std::vector<Argv>{{"SET", "hits", "5", "KEEPTTL"}, {"SET", "hits", "3", "KEEPTTL"}});

  host.ClearPropagated();
  host.PutString("name", "bob");
  CHECK(host.Call({"CTR.INCRBY", "name", "1"}).str ==
        "ERR value is not an integer or out of range");
  CHECK(host.Call({"CTR.INCRBY", "hits", "x"}).str ==
        "ERR value is not an integer or out of range");
  host.PutString("max", "9223372036854775807");
  CHECK(host.Call({"CTR.INCRBY", "max", "1"}).str == "ERR increment or decrement would overflow");
  CHECK(host.Propagated().empty());
}

TEST_CASE("ctr: CTR.INCRBY keeps the TTL, and its SET goes to the client's database") {
  FakeHost host;
  LoadStandIn(host, kStrings);
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  host.PutString("n", "41");
  const int64_t at = host.TimeMs() + 10000;
  REQUIRE(host.SetExpireAtMs("n", at));
  CHECK(host.Call({"CTR.INCRBY", "n", "1"}).integer == 42);
  CHECK(host.ExpireAtMs("n") == at);
  host.Select(3);
  CHECK(host.Call({"CTR.INCRBY", "n", "7"}).integer == 7);
  // The stream's SELECT 3 is folded into the entry's database.
  const auto& p = host.Propagated();
  REQUIRE(p.size() == 2);
  CHECK(p[0].db == 0);
  CHECK(p[0].argv == Argv{"SET", "n", "42", "KEEPTTL"});
  CHECK(p[1].db == 3);
  CHECK(p[1].argv == Argv{"SET", "n", "7", "KEEPTTL"});
}

TEST_CASE("ctr: CTR.SET is validated: refused with nothing emitted where SET is unknown") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  host.PutString("c", "1");
  CHECK(host.Call({"CTR.SET", "c", "10"}).str ==
        "ERR ctr: this server cannot replicate SET key value KEEPTTL");
  CHECK(host.GetString("c") == "1");  // refused before anything changed
  CHECK(host.Propagated().empty());
}

TEST_CASE("ctr: CTR.SET is validated: refused where SET's arity does not fit") {
  FakeHost host;
  LoadStandIn(host, kNarrowSet);  // SET key value only: KEEPTTL makes one argument too many
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"CTR.SET", "c", "10"}).str ==
        "ERR ctr: this server cannot replicate SET key value KEEPTTL");
  CHECK_FALSE(host.GetString("c"));
  CHECK(host.Propagated().empty());
  // The bypass does not look: CTR.INCRBY emits the same SET regardless.
  CHECK(host.Call({"CTR.INCRBY", "c", "1"}).integer == 1);
  CHECK(Emitted(host) == std::vector<Argv>{{"SET", "c", "1", "KEEPTTL"}});
}

TEST_CASE("ctr: CTR.SET emits SET key value KEEPTTL where SET exists") {
  FakeHost host;
  LoadStandIn(host, kStrings);
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"ctr.set", "c", "10"}).str == "OK");
  CHECK(host.GetString("c") == "10");
  CHECK(host.Call({"CTR.SET", "c", "ten"}).str == "ERR value is not an integer or out of range");
  CHECK(Emitted(host) == std::vector<Argv>{{"SET", "c", "10", "KEEPTTL"}});
}

TEST_CASE("ctr: CTR.TRANSFER's three writes reach the stream as one MULTI ... EXEC unit") {
  FakeHost host;
  LoadStandIn(host, kStrings);
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  host.PutString("alice", "100");
  host.Select(2);
  host.PutString("alice", "100");
  const auto r = host.Call({"CTR.TRANSFER", "alice", "bob", "30"});
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].integer == 70);
  CHECK(r.elements[1].integer == 30);
  CHECK(host.GetString("bob") == "30");
  CHECK(host.GetString("ctr:transfers") == "1");
  const auto& p = host.Propagated();
  REQUIRE(p.size() == 5);
  CHECK(p[0].argv == Argv{"MULTI"});
  CHECK(p[1].argv == Argv{"DECRBY", "alice", "30"});
  CHECK(p[2].argv == Argv{"INCRBY", "bob", "30"});
  CHECK(p[3].argv == Argv{"INCR", "ctr:transfers"});
  CHECK(p[4].argv == Argv{"EXEC"});
  for (const PropagatedCommand& c : p) CHECK(c.db == 2);  // SELECT 2 came before the MULTI
  CHECK(host.GetString("alice", 0) == "100");             // db 0 untouched

  host.ClearPropagated();
  CHECK(host.Call({"CTR.TRANSFER", "alice", "bob", "71"}).str == "ERR insufficient balance");
  CHECK(host.Call({"CTR.TRANSFER", "alice", "alice", "1"}).str ==
        "ERR source and destination are the same counter");
  CHECK(host.Call({"CTR.TRANSFER", "alice", "bob", "0"}).str ==
        "ERR the amount must be a positive integer");
  CHECK(host.Propagated().empty());
}

TEST_CASE("ctr: CTR.TRANSFER is refused with nothing emitted or changed where DECRBY is unknown") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  host.PutString("alice", "100");
  CHECK(host.Call({"CTR.TRANSFER", "alice", "bob", "30"}).str ==
        "ERR ctr: this server cannot replicate DECRBY");
  CHECK(host.GetString("alice") == "100");
  CHECK_FALSE(host.GetString("bob"));
  CHECK_FALSE(host.GetString("ctr:transfers"));
  CHECK(host.Propagated().empty());  // no MULTI, no EXEC either
}

TEST_CASE("ctr: the decay sweep halves touched counters from a timer, with replicate_db") {
  FakeHost host;
  LoadStandIn(host, kStrings);
  host.SetOption("ctr.decay-ms", "1000");
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"CTR.INCRBY", "a", "9"}).integer == 9);
  CHECK(host.Call({"CTR.INCRBY", "b", "1"}).integer == 1);
  CHECK(host.Call({"CTR.INCRBY", "zero", "0"}).integer == 0);
  host.ClearPropagated();

  host.AdvanceTimeMs(1000);
  CHECK(host.GetString("a") == "4");
  CHECK(host.GetString("b") == "0");
  CHECK(host.GetString("zero") == "0");
  // One unit per counter (no MULTI), nothing for the one already at 0; the internal client
  // that ran CTR.HALVE emitted nothing itself.
  CHECK(Emitted(host) ==
        std::vector<Argv>{{"SET", "a", "4", "KEEPTTL"}, {"SET", "b", "0", "KEEPTTL"}});

  host.ClearPropagated();
  host.AdvanceTimeMs(1000);  // nothing touched since the last sweep
  CHECK(host.GetString("a") == "4");
  CHECK(host.Propagated().empty());

  // A client's CTR.HALVE emits its own SET.
  CHECK(host.Call({"CTR.HALVE", "a"}).integer == 2);
  CHECK(Emitted(host) == std::vector<Argv>{{"SET", "a", "2", "KEEPTTL"}});

  CHECK(host.SetOption("ctr.decay-ms", "0"));  // off: the timer stops
  CHECK(host.ActiveTimers() == 0);
}

TEST_CASE("ctr: the sweep's validated replicate_db refuses where SET is unknown, and says so") {
  FakeHost host;  // no SET on this server
  host.SetOption("ctr.decay-ms", "100");
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"CTR.INCRBY", "a", "8"}).integer == 8);
  host.ClearPropagated();
  host.AdvanceTimeMs(100);
  CHECK(host.GetString("a") == "4");  // halved here
  CHECK(host.Propagated().empty());   // but not emitted
  CHECK(host.LogContains("decay of 'a' not replicated"));
}
