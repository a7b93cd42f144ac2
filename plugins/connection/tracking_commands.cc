// CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO, and the host hooks that feed the
// Tracker: a command observer (the keys tracking clients read, the end of each command) and a
// key change listener (writes, expiry, eviction, flushes), both on only while some client
// tracks, so other commands pay nothing; a before-sleep hook for BCAST; a client listener
// (closed clients, RESET). Invalidations go out through client_push. Main thread.
#include <cstdint>
#include <exception>
#include <memory>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/subcommand.h"
#include "connection/handlers.h"
#include "connection/tracking.h"

namespace plinth::connection {

using sdk::Api;
using sdk::Host;

namespace {

constexpr std::string_view kChannel = "__redis__:invalidate";
// Keys of the tracking table forgotten (and invalidated) per command or event-loop turn at
// most, so that lowering tracking-table-max-keys never stalls the server in one go.
constexpr size_t kEvictEffort = 1000;

plinth_reply_item_t Item(uint32_t type, std::string_view s = {}, int64_t n = 0) {
  plinth_reply_item_t it{};
  it.struct_size = sizeof it;
  it.type = type;
  it.data = s.data();
  it.len = s.size();
  it.integer = n;
  return it;
}

int64_t ClientFact(uint64_t id, uint32_t what) {
  return Api().client_info_int(Host::self, id, what);
}

// Pushes an invalidation as Redis's sendTrackingMessage: to the redirect client when there is
// one (RESP2: a __redis__:invalidate message when it subscribes), to the client itself in RESP3.
class PushSink final : public InvalidationSink {
 public:
  void Send(uint64_t target, ClientTracking& t, const std::vector<std::string>* keys) override {
    uint64_t to = target;
    std::vector<plinth_reply_item_t> items;
    if (t.redirect != 0) {
      if (ClientFact(t.redirect, PLINTH_CLIENT_INFO_PROTOCOL) < 0) {
        t.broken_redirect = true;
        if (ClientFact(target, PLINTH_CLIENT_INFO_PROTOCOL) != 3) return;
        items = {Item(PLINTH_REPLY_PUSH, {}, 2), Item(PLINTH_REPLY_BULK, "tracking-redir-broken"),
                 Item(PLINTH_REPLY_INTEGER, {}, static_cast<int64_t>(t.redirect))};
        Api().client_push(Host::self, target, items.data(), items.size());
        return;
      }
      to = t.redirect;
    }
    if (ClientFact(to, PLINTH_CLIENT_INFO_PROTOCOL) == 3) {
      items = {Item(PLINTH_REPLY_PUSH, {}, 2), Item(PLINTH_REPLY_BULK, "invalidate")};
    } else if (to != target && ClientFact(to, PLINTH_CLIENT_INFO_SUBSCRIPTIONS) > 0) {
      items = {Item(PLINTH_REPLY_PUSH, {}, 3), Item(PLINTH_REPLY_BULK, "message"),
               Item(PLINTH_REPLY_BULK, kChannel)};
    } else {
      return;  // RESP2 without a subscribed redirect client: nowhere to say it
    }
    if (!keys) {
      items.push_back(Item(PLINTH_REPLY_NULL));
    } else {
      items.push_back(Item(PLINTH_REPLY_ARRAY, {}, static_cast<int64_t>(keys->size())));
      for (const std::string& k : *keys) items.push_back(Item(PLINTH_REPLY_BULK, k));
    }
    Api().client_push(Host::self, to, items.data(), items.size());
  }
};

struct State {
  PushSink sink;
  Tracker tracker{&sink};
  int64_t observer = -1;
  int64_t listener = -1;
  bool hooks_on = false;
  const plinth_option_t* max_keys = nullptr;  // tracking-table-max-keys
  int delivering = 0;                         // inside a Tracker call that may push
  std::vector<uint64_t> closed;               // clients closed meanwhile (a push over their limits)
};
std::unique_ptr<State> g;

// Turns the observer and the key change listener on while some client tracks or waits for
// its own invalidations, off otherwise.
void SyncHooks() {
  const bool on = g->tracker.TrackingClients() > 0 || g->tracker.HasPending();
  if (on == g->hooks_on || g->observer < 0) return;
  g->hooks_on = on;
  Api().command_observer_set(Host::self, g->observer, on ? 0 : -1);
  Api().key_change_listener_set(Host::self, g->listener, on ? 1 : 0);
}

// Runs fn, which may push to clients; a client a push closed is forgotten afterwards.
template <typename Fn>
void Delivering(Fn&& fn) {
  g->delivering++;
  try {
    fn();
  } catch (const std::exception& e) {
    sdk::Log(PLINTH_LOG_WARNING, "client tracking: %s", e.what());
  }
  if (--g->delivering == 0) {
    for (uint64_t id : std::exchange(g->closed, {})) g->tracker.Forget(id);
  }
  SyncHooks();
}

bool ReadOnlyScript(std::string_view name) {
  return name == "eval_ro" || name == "evalsha_ro" || name == "fcall_ro";
}

// The keys a tracking client's read-only command read (Redis: every key of the command).
void RememberKeys(const plinth_command_event_t* ev) {
  std::vector<plinth_key_ref_t> refs(static_cast<size_t>(ev->argc));
  int32_t id = -1;
  const int32_t n =
      Api().command_keys(Host::self, ev->argc, ev->argv, ev->argvlen, refs.data(), &id);
  if (n <= 0) return;
  plinth_command_info_t info{};
  info.struct_size = sizeof info;
  if (Api().command_info(Host::self, id, &info) != PLINTH_OK) return;
  if (!(info.flags & PLINTH_CMD_READONLY) || (info.flags & PLINTH_CMD_PUBSUB)) return;
  for (int32_t i = 0; i < n; ++i) {
    const plinth_key_ref_t& r = refs[static_cast<size_t>(i)];
    if (r.flags & (PLINTH_KEY_CHANNEL | PLINTH_KEY_PATTERN)) continue;
    g->tracker.Remember(ev->client_id, std::string_view(ev->argv[r.index], ev->argvlen[r.index]));
  }
}

size_t MaxKeys() {
  const int64_t max = g->max_keys ? sdk::OptionInt(g->max_keys, 1000000) : 1000000;
  return max > 0 ? static_cast<size_t>(max) : 0;
}

// Keeps the table within tracking-table-max-keys (Redis's trackingLimitUsedSlots).
void Limit() {
  const size_t max = MaxKeys();
  if (max > 0 && g->tracker.TrackedKeys() > max) g->tracker.Evict(max, kEvictEffort);
}

void OnCommand(void*, const plinth_command_event_t* ev) {
  if (!g || !g->tracker.Find(ev->client_id)) return;
  Delivering([ev] {
    const std::string_view name = ev->name;
    if (g->tracker.WantsKeys(ev->client_id) && !ReadOnlyScript(name)) {
      RememberKeys(ev);
      Limit();
    }
    g->tracker.CommandDone(ev->client_id, {name, (ev->flags & PLINTH_EVENT_NESTED) != 0});
  });
}

void OnKeyChange(void*, int32_t, const char* key, size_t klen, uint64_t client_id) {
  if (!g) return;
  Delivering([=] {
    if (key) {
      g->tracker.KeyChanged(std::string_view(key, klen), client_id);
    } else {
      g->tracker.Flushed(client_id);
    }
  });
}

void OnBeforeSleep(void*) {
  if (!g || g->tracker.TrackingClients() == 0) return;
  Delivering([] {
    g->tracker.Broadcast();
    Limit();  // what a lowered limit left over
  });
}

void OnClientEvent(void*, uint64_t id, uint32_t event) {
  if (!g || !g->tracker.Find(id)) return;
  if (event == PLINTH_CLIENT_RESET) {
    g->tracker.Disable(id);  // RESET turns tracking off (Redis)
  } else if (event == PLINTH_CLIENT_CLOSED) {
    if (g->delivering > 0) return g->closed.push_back(id);
    g->tracker.Forget(id);
  }
  SyncHooks();
}

void Tracking(Call& c) {
  const uint64_t self = Api().client_id(c.raw());
  TrackingOptions o;
  std::string error = ParseTrackingOptions(
      ArgsFrom(c, 3), [](uint64_t id) { return ClientFact(id, PLINTH_CLIENT_INFO_PROTOCOL) > 0; },
      &o);
  if (!error.empty()) return c.Error(error);
  if (text::EqualsNoCase(c.arg(2), "on")) {
    error = g->tracker.Enable(self, o);
    if (!error.empty()) return c.Error(error);
  } else if (text::EqualsNoCase(c.arg(2), "off")) {
    g->tracker.Disable(self);
  } else {
    return c.Error(errors::kSyntax);
  }
  SyncHooks();
  c.Ok();
}

void TrackingInfo(Call& c) {
  const ClientTracking* t = g->tracker.Find(Api().client_id(c.raw()));
  const bool on = t && t->on;
  std::vector<std::string_view> flags{on ? "on" : "off"};
  if (on) {
    if (t->bcast) flags.push_back("bcast");
    if (t->optin) flags.push_back("optin");
    if (t->optin && t->caching) flags.push_back("caching-yes");
    if (t->optout) flags.push_back("optout");
    if (t->optout && t->caching) flags.push_back("caching-no");
    if (t->noloop) flags.push_back("noloop");
    if (t->broken_redirect) flags.push_back("broken_redirect");
  }
  c.Map(3);
  c.Bulk("flags");
  c.Set(static_cast<int64_t>(flags.size()));
  for (std::string_view f : flags) c.Bulk(f);
  c.Bulk("redirect");
  c.Integer(on ? static_cast<int64_t>(t->redirect) : -1);
  c.Bulk("prefixes");
  c.Array(on ? static_cast<int64_t>(t->prefixes.size()) : 0);
  if (on)
    for (const std::string& p : t->prefixes) c.Bulk(p);
}

}  // namespace

bool SetupTracking() {
  const plinth_host_api_t& api = sdk::Api();
  g = std::make_unique<State>();
  g->max_keys = sdk::RegisterOption(
      "tracking-table-max-keys", PLINTH_OPT_INT, PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE,
      "1000000", 0, INT64_MAX,
      "keys the CLIENT TRACKING table remembers at most (0: no limit); past it, keys are "
      "forgotten and invalidated to their readers");
  if (!g->max_keys) return false;
  if (!PLINTH_HAS(&api, client_info_int)) return true;  // an older host: CLIENT TRACKING refuses
  g->observer = api.command_observer_register(Host::self, OnCommand, nullptr, -1);
  g->listener = api.key_change_listener_register(Host::self, OnKeyChange, nullptr);
  return g->observer >= 0 && g->listener >= 0 &&
         api.before_sleep_register(Host::self, OnBeforeSleep, nullptr) == PLINTH_OK &&
         api.client_listener_register(Host::self, OnClientEvent, nullptr) == PLINTH_OK;
}

void ClientTrackingCommand(Call& c, std::string_view sub) {
  if (!g || g->observer < 0) return c.Error("ERR client tracking needs a newer Plinth host");
  if (sub == "tracking") return Tracking(c);
  if (sub == "trackinginfo") return TrackingInfo(c);
  const uint64_t self = Api().client_id(c.raw());
  if (sub == "getredir") {
    const ClientTracking* t = g->tracker.Find(self);
    return c.Integer(t && t->on ? static_cast<int64_t>(t->redirect) : -1);
  }
  const std::string error = g->tracker.Caching(self, c.arg(2));  // "caching"
  return error.empty() ? c.Ok() : c.Error(error);
}

}  // namespace plinth::connection
