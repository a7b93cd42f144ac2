// CLIENT TRACKING through the fake host: which client hears which invalidation, in what form
// and when. A small plugin in this file gives a write ("w key value"), a read of keys
// ("r key [key ...]"), a flush of the client's database ("fl") and a subscription ("sub").
#include <doctest/doctest.h>

#include <algorithm>
#include <plinth/fakehost.hpp>
#include <set>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

using plinth::fakehost::Reply;
using plinth::fakehost::ReplyType;

const plinth_host_api_t* g_api = nullptr;

std::string Arg(plinth_call_t* c, int32_t i) {
  size_t len = 0;
  const char* v = g_api->call_arg(c, i, &len);
  return std::string(v, len);
}

void Write(plinth_call_t* c, void*) {
  const std::string k = Arg(c, 1), v = Arg(c, 2);
  g_api->key_set(c, k.data(), k.size(), g_api->value_create_string(v.data(), v.size()), 0);
  g_api->reply_simple(c, "OK", 2);
}

void Read(plinth_call_t* c, void*) {
  int64_t found = 0;
  for (int32_t i = 1; i < g_api->call_argc(c); ++i) {
    const std::string k = Arg(c, i);
    found += g_api->key_get(c, k.data(), k.size()) != nullptr;
  }
  g_api->reply_integer(c, found);
}

void Flush(plinth_call_t* c, void*) {
  g_api->db_flush(c, g_api->db_current(c), 0);
  g_api->reply_simple(c, "OK", 2);
}

void Subscribe(plinth_call_t* c, void*) {
  g_api->client_set_subscriptions(c, 1, 0);
  g_api->reply_simple(c, "OK", 2);
}

int32_t KvInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  plinth_command_spec_t w{};
  w.struct_size = sizeof w;
  w.name = "w";
  w.arity = 3;
  w.flags = PLINTH_CMD_WRITE;
  w.first_key = w.last_key = w.key_step = 1;
  w.handler = Write;
  plinth_command_spec_t r = w;
  r.name = "r";
  r.arity = -2;
  r.flags = PLINTH_CMD_READONLY;
  r.last_key = -1;
  r.handler = Read;
  plinth_command_spec_t fl = w;
  fl.name = "fl";
  fl.arity = 1;
  fl.first_key = fl.last_key = fl.key_step = 0;
  fl.handler = Flush;
  plinth_command_spec_t sub = fl;
  sub.name = "sub";
  sub.flags = PLINTH_CMD_PUBSUB | PLINTH_CMD_SUBSCRIBER;
  sub.handler = Subscribe;
  for (const plinth_command_spec_t* s : {&w, &r, &fl, &sub})
    if (api->command_register(self, s) != PLINTH_OK) return PLINTH_ERR;
  return PLINTH_OK;
}

const plinth_plugin_descriptor_t kKv = {sizeof(plinth_plugin_descriptor_t),
                                        PLINTH_ABI_MAJOR,
                                        PLINTH_ABI_MINOR,
                                        0,
                                        "kv",
                                        "1",
                                        "a write, a read, a flush and a subscription",
                                        KvInit,
                                        nullptr,
                                        {nullptr, nullptr, nullptr, nullptr}};

// One reply in a short form: "invalidate [a b]", "invalidate nil", "message
// __redis__:invalidate [a]", "tracking-redir-broken 3", or ToString() for other replies.
std::string Short(const Reply& r) {
  if (r.type != ReplyType::kPush) return r.ToString();
  std::string out;
  for (const Reply& e : r.elements) {
    if (!out.empty()) out += ' ';
    if (e.type == ReplyType::kArray) {
      out += '[';
      for (size_t i = 0; i < e.elements.size(); ++i) out += (i ? " " : "") + e.elements[i].str;
      out += ']';
    } else if (e.type == ReplyType::kInteger) {
      out += std::to_string(e.integer);
    } else {
      out += e.IsNull() ? "nil" : e.str;
    }
  }
  return out;
}

struct Fixture {
  Fixture() {
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "connection.so"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(&kKv, "kv"), host.LoadError());
  }
  // A new client speaking RESP3 (resp3) or RESP2.
  uint64_t Client(bool resp3 = true) {
    const uint64_t id = host.AddClient();
    host.SetClientProtocol(id, resp3 ? 3 : 2);
    return id;
  }
  // What client id reads in reply to argv, in order: its reply and what came with it. Other
  // clients' earlier pushes must have been taken first.
  std::vector<std::string> Run(uint64_t id, const std::vector<std::string>& argv) {
    std::optional<Reply> own = host.CallAs(id, argv);
    std::vector<std::string> got = Pushed(id);
    if (own) got.push_back(Short(*own));
    return got;
  }
  // What client id received outside its own commands.
  std::vector<std::string> Pushed(uint64_t id) {
    std::vector<std::string> got;
    for (const Reply& r : host.TakeReplies(id)) got.push_back(Short(r));
    return got;
  }
  using Lines = std::vector<std::string>;
  plinth::fakehost::FakeHost host;
};

}  // namespace

TEST_CASE("client tracking: a reader hears once that a key it read changed") {
  Fixture f;
  const uint64_t a = f.Client(), b = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k", "j"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(b, {"w", "k", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [k]"});
  CHECK(f.Run(b, {"w", "k", "2"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a).empty());  // forgotten once invalidated
  CHECK(f.Run(b, {"w", "other", "2"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a).empty());  // never read
  CHECK(f.Run(b, {"w", "j", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [j]"});
  // Keys are tracked by name, whatever the database (Redis).
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(b, {"select", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"w", "k", "3"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [k]"});
  // Off: nothing more.
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(a, {"client", "tracking", "off"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "j"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(b, {"select", "0"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"w", "j", "2"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a).empty());
}

TEST_CASE("client tracking: the writer's own invalidation follows its reply and NOLOOP has none") {
  Fixture f;
  const uint64_t a = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(a, {"w", "k", "1"}) == Fixture::Lines{"OK", "invalidate [k]"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(a, {"multi"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"w", "k", "2"}) == Fixture::Lines{"QUEUED"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"QUEUED"});
  // After EXEC's whole reply, and the key read inside stays tracked.
  CHECK(f.Run(a, {"exec"}) == Fixture::Lines{"1) OK\n2) (integer) 1", "invalidate [k]"});
  CHECK(f.Run(f.Client(), {"w", "k", "3"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [k]"});
  CHECK(f.Run(a, {"client", "tracking", "on", "noloop"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(a, {"w", "k", "4"}) == Fixture::Lines{"OK"});
}

TEST_CASE("client tracking: a flush sends every tracking client a null and expiry invalidates") {
  Fixture f;
  const uint64_t a = f.Client(), b = f.Client(), c = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"client", "tracking", "on", "bcast", "prefix", "zz"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(c, {"fl"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate nil"});
  CHECK(f.Pushed(b) == Fixture::Lines{"invalidate nil"});
  CHECK(f.Run(c, {"w", "k", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a).empty());  // the flush forgot every key
  CHECK(f.Run(a, {"fl"}) == Fixture::Lines{"OK", "invalidate nil"});
  CHECK(f.Pushed(b) == Fixture::Lines{"invalidate nil"});

  CHECK(f.Run(c, {"w", "e", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "e"}) == Fixture::Lines{"(integer) 1"});
  REQUIRE(f.host.SetExpireAtMs("e", f.host.TimeMs() + 50));
  f.host.AdvanceTimeMs(1000);  // the active expiry cycle deletes it
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [e]"});
}

TEST_CASE("client tracking: BCAST sends the changed keys of each prefix once per loop") {
  Fixture f;
  const uint64_t a = f.Client(), b = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on", "bcast", "prefix", "ab", "prefix", "b"}) ==
        Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"multi"}) == Fixture::Lines{"OK"});
  for (const char* k : {"abx", "b1", "zz", "ab", "abx"})
    CHECK(f.Run(b, {"w", k, "1"}) == Fixture::Lines{"QUEUED"});
  CHECK(f.Run(b, {"exec"}).size() == 1);
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [ab abx]", "invalidate [b1]"});
  CHECK(f.Run(a, {"client", "trackinginfo"}) ==
        Fixture::Lines{"1# \"flags\" => 1~ \"on\"\n              2~ \"bcast\"\n2# \"redirect\" => "
                       "(integer) 0\n3# \"prefixes\" => 1) \"ab\"\n                 2) \"b\""});
  // NOLOOP: its own changes are left out; re-enabling adds prefixes.
  CHECK(f.Run(a, {"client", "tracking", "on", "bcast", "prefix", "c", "noloop"}) ==
        Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"w", "c1", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"w", "c2", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [c2]"});
  // Without PREFIX: every key.
  const uint64_t c = f.Client();
  CHECK(f.Run(c, {"client", "tracking", "on", "bcast"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(b, {"w", "q", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(c) == Fixture::Lines{"invalidate [q]"});
}

TEST_CASE("client tracking: REDIRECT to a RESP2 subscriber, then to a client that left") {
  Fixture f;
  const uint64_t a = f.Client(false), sub = f.Client(false), b = f.Client();
  CHECK(f.Run(sub, {"sub"}) == Fixture::Lines{"OK"});
  const std::string redirect = std::to_string(sub);
  CHECK(f.Run(a, {"client", "tracking", "on", "redirect", redirect}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"client", "getredir"}) == Fixture::Lines{"(integer) " + redirect});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(b, {"w", "k", "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(sub) == Fixture::Lines{"message __redis__:invalidate [k]"});
  CHECK(f.Pushed(a).empty());
  // A RESP2 client without a redirect hears nothing.
  const uint64_t plain = f.Client(false);
  CHECK(f.Run(plain, {"client", "tracking", "on"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(plain, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  // The redirect client leaves: a RESP3 tracker hears tracking-redir-broken instead.
  const uint64_t c = f.Client();
  CHECK(f.Run(c, {"client", "tracking", "on", "redirect", redirect}) == Fixture::Lines{"OK"});
  CHECK(f.Run(c, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  f.host.CloseClient(sub);
  CHECK(f.Run(b, {"w", "k", "2"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(c) == Fixture::Lines{"tracking-redir-broken " + redirect});
  CHECK(f.Pushed(plain).empty());
  const std::vector<std::string> info = f.Run(c, {"client", "trackinginfo"});
  REQUIRE(info.size() == 1);
  CHECK(info[0].find("\"broken_redirect\"") != std::string::npos);
}

TEST_CASE("client tracking: OPTIN remembers only after CLIENT CACHING yes, for one command") {
  Fixture f;
  const uint64_t a = f.Client(), b = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on", "optin"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(a, {"client", "caching", "yes"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "j"}) == Fixture::Lines{"(integer) 0"});
  CHECK(f.Run(a, {"r", "i"}) == Fixture::Lines{"(integer) 0"});
  for (const char* k : {"k", "j", "i"}) CHECK(f.Run(b, {"w", k, "1"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [j]"});
  // OPTOUT: everything but the command after CLIENT CACHING no.
  CHECK(f.Run(a, {"client", "tracking", "off"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"client", "tracking", "on", "optout"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"client", "caching", "no"}) == Fixture::Lines{"OK"});
  CHECK(f.Run(a, {"r", "k"}) == Fixture::Lines{"(integer) 1"});
  CHECK(f.Run(a, {"r", "j"}) == Fixture::Lines{"(integer) 1"});
  for (const char* k : {"k", "j"}) CHECK(f.Run(b, {"w", k, "2"}) == Fixture::Lines{"OK"});
  CHECK(f.Pushed(a) == Fixture::Lines{"invalidate [j]"});
}

TEST_CASE("client tracking: Redis 7.0's errors and replies") {
  Fixture f;
  const uint64_t a = f.Client();
  auto one = [&](std::vector<std::string> argv) {
    const std::vector<std::string> got = f.Run(a, argv);
    return got.size() == 1 ? got[0] : "?";
  };
  CHECK(one({"client", "getredir"}) == "(integer) -1");
  CHECK(one({"client", "trackinginfo"}) ==
        "1# \"flags\" => 1~ \"off\"\n2# \"redirect\" => (integer) -1\n3# \"prefixes\" => "
        "(empty array)");
  CHECK(one({"client", "caching", "yes"}) ==
        "(error) ERR CLIENT CACHING can be called only when the client is in tracking mode with "
        "OPTIN or OPTOUT mode enabled");
  CHECK(one({"client", "tracking", "on", "prefix", "a"}) ==
        "(error) ERR PREFIX option requires BCAST mode to be enabled");
  CHECK(one({"client", "tracking", "on", "optin", "optout"}) ==
        "(error) ERR You can't specify both OPTIN mode and OPTOUT mode");
  CHECK(one({"client", "tracking", "on", "bcast", "optin"}) ==
        "(error) ERR OPTIN and OPTOUT are not compatible with BCAST");
  CHECK(one({"client", "tracking", "on", "bcast", "prefix", "ab", "prefix", "a"}) ==
        "(error) ERR Prefix 'ab' overlaps with another provided prefix 'a'. Prefixes for a "
        "single client must not overlap.");
  CHECK(one({"client", "tracking", "on", "redirect", "999"}) ==
        "(error) ERR The client ID you want redirect to does not exist");
  CHECK(one({"client", "tracking", "on", "redirect", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(one({"client", "tracking", "on", "redirect", "1", "redirect", "1"}) ==
        "(error) ERR A client can only redirect to a single other client");
  CHECK(one({"client", "tracking", "on", "foo"}) == "(error) ERR syntax error");
  CHECK(one({"client", "tracking", "maybe"}) == "(error) ERR syntax error");
  CHECK(one({"client", "tracking", "on", "prefix"}) == "(error) ERR syntax error");
  CHECK(one({"client", "tracking"}) ==
        "(error) ERR wrong number of arguments for 'client|tracking' command");
  CHECK(one({"client", "caching"}) ==
        "(error) ERR wrong number of arguments for 'client|caching' command");
  CHECK(one({"client", "tracking", "on", "bcast", "prefix", "ab"}) == "OK");
  CHECK(one({"client", "tracking", "on", "bcast", "prefix", "abc"}) ==
        "(error) ERR Prefix 'abc' overlaps with an existing prefix 'ab'. Prefixes for a single "
        "client must not overlap.");
  CHECK(one({"client", "tracking", "on"}) ==
        "(error) ERR You can't switch BCAST mode on/off before disabling tracking for this "
        "client, and then re-enabling it with a different mode.");
  CHECK(one({"client", "tracking", "off"}) == "OK");
  CHECK(one({"client", "tracking", "on", "optin"}) == "OK");
  CHECK(one({"client", "tracking", "on", "optout"}) ==
        "(error) ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this "
        "client, and then re-enabling it with a different mode.");
  CHECK(one({"client", "caching", "no"}) ==
        "(error) ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
  CHECK(one({"client", "caching", "maybe"}) == "(error) ERR syntax error");
  CHECK(one({"client", "caching", "yes"}) == "OK");
  CHECK(one({"client", "trackinginfo"}) ==
        "1# \"flags\" => 1~ \"on\"\n              2~ \"optin\"\n              3~ \"caching-yes\"\n"
        "2# \"redirect\" => (integer) 0\n3# \"prefixes\" => (empty array)");
  CHECK(one({"client", "getredir"}) == "(integer) 0");
  CHECK(one({"reset"}) == "RESET");  // RESET turns tracking off
  CHECK(one({"client", "getredir"}) == "(integer) -1");
}

TEST_CASE("client tracking: past tracking-table-max-keys, keys are forgotten and invalidated") {
  Fixture f;
  CHECK(f.host.GetOption("tracking-table-max-keys") == "1000000");  // Redis's default
  REQUIRE(f.host.SetOption("tracking-table-max-keys", "2"));
  const uint64_t a = f.Client(), b = f.Client();
  CHECK(f.Run(a, {"client", "tracking", "on"}) == Fixture::Lines{"OK"});
  const Fixture::Lines got = f.Run(a, {"r", "k1", "k2", "k3", "k4", "k5"});
  // The reply, and one invalidation for each of the three keys the table could not keep.
  std::set<std::string> evicted;
  for (const std::string& line : got) {
    if (line.rfind("invalidate [", 0) == 0) evicted.insert(line.substr(12, line.size() - 13));
  }
  CHECK(std::count(got.begin(), got.end(), "(integer) 0") == 1);
  CHECK(got.size() == 4);
  CHECK(evicted.size() == 3);
  // Only the two kept keys are still tracked: a write to an evicted one says nothing more.
  int heard = 0;
  for (const char* k : {"k1", "k2", "k3", "k4", "k5"}) {
    CAPTURE(k);
    CHECK(f.Run(b, {"w", k, "1"}) == Fixture::Lines{"OK"});
    const Fixture::Lines pushed = f.Pushed(a);
    if (evicted.count(k)) {
      CHECK(pushed.empty());
    } else {
      CHECK(pushed == Fixture::Lines{"invalidate [" + std::string(k) + "]"});
      heard++;
    }
  }
  CHECK(heard == 2);
  // 0: no limit.
  REQUIRE(f.host.SetOption("tracking-table-max-keys", "0"));
  CHECK(f.Run(a, {"r", "k1", "k2", "k3", "k4", "k5"}) == Fixture::Lines{"(integer) 5"});
}
