// Message fan-out to subscribers through client_push, and cleanup of closed clients. A PUBLISH
// nobody listens to costs one hash lookup (plus a walk of the patterns when there are some).
// Main thread.
#include <plinth/text.hpp>
#include <vector>

#include "pubsub/handlers.h"

namespace plinth::pubsub {
namespace {

struct State {
  Registry registry;
  int busy = 0;
  std::vector<uint64_t> closed;  // clients that went away while busy
};

State& TheState() {
  static State state;
  return state;
}

plinth_reply_item_t Item(uint32_t type, int64_t integer = 0, std::string_view s = {}) {
  plinth_reply_item_t it{};
  it.struct_size = sizeof it;
  it.type = type;
  it.integer = integer;
  it.data = s.data();
  it.len = s.size();
  return it;
}

plinth_reply_item_t Bulk(std::string_view s) { return Item(PLINTH_REPLY_BULK, 0, s); }

}  // namespace

Registry& Subs() { return TheState().registry; }

void ResetSubscriptions() {
  State& st = TheState();
  st.registry = Registry();
  st.closed.clear();
}

BusyScope::BusyScope() { TheState().busy++; }

BusyScope::~BusyScope() {
  State& st = TheState();
  if (--st.busy > 0 || st.closed.empty()) return;
  std::vector<uint64_t> closed;
  closed.swap(st.closed);
  for (uint64_t id : closed) st.registry.DropClient(id);
}

bool PushTo(uint64_t id, const plinth_reply_item_t* items, size_t n) {
  return sdk::Api().client_push(sdk::Host::self, id, items, n) == PLINTH_OK;
}

int64_t Publish(Kind kind, std::string_view channel, std::string_view message) {
  Registry& reg = Subs();
  const Registry::Ids* ids = reg.Subscribers(kind, channel);
  const bool patterns = kind == Kind::kChannel && reg.Size(Kind::kPattern) > 0;
  if (!ids && !patterns) return 0;
  BusyScope busy;
  int64_t receivers = 0;
  if (ids) {
    const plinth_reply_item_t items[] = {Item(PLINTH_REPLY_PUSH, 3),
                                         Bulk(kind == Kind::kShard ? "smessage" : "message"),
                                         Bulk(channel), Bulk(message)};
    for (uint64_t id : *ids)
      if (PushTo(id, items, 4)) ++receivers;
  }
  if (patterns) {
    plinth_reply_item_t items[] = {Item(PLINTH_REPLY_PUSH, 4), Bulk("pmessage"), Bulk({}),
                                   Bulk(channel), Bulk(message)};
    reg.ForEach(Kind::kPattern, [&](const std::string& pattern, const Registry::Ids& subs) {
      if (!text::GlobMatch(pattern, channel)) return;
      items[2] = Bulk(pattern);
      for (uint64_t id : subs)
        if (PushTo(id, items, 5)) ++receivers;
    });
  }
  return receivers;
}

void OnClientEvent(void*, uint64_t client, uint32_t event) {
  if (event != PLINTH_CLIENT_CLOSED && event != PLINTH_CLIENT_RESET) return;
  State& st = TheState();
  if (st.busy > 0) {
    st.closed.push_back(client);
  } else {
    st.registry.DropClient(client);
  }
}

}  // namespace plinth::pubsub
