// SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, SSUBSCRIBE and SUNSUBSCRIBE. Each name gets
// its own confirmation [kind, name, count]: all but the last are pushed to the caller itself
// (queued before the handler's reply, so they arrive in order) and the last is the handler's
// one reply. Afterwards the host learns the client's counts (RESP2 subscriber mode, the pubsub
// output limits, CLIENT LIST). Main thread.
#include <optional>
#include <string>
#include <vector>

#include "pubsub/handlers.h"

namespace plinth::pubsub {
namespace {

using sdk::Api;

// What one command of the family confirms with, and which subscriptions it counts: shard
// channels count apart from channels and patterns, as in Redis 7.0.
struct Family {
  Kind kind;
  const char* subscribe;
  const char* unsubscribe;
};

constexpr Family kChannels{Kind::kChannel, "subscribe", "unsubscribe"};
constexpr Family kPatterns{Kind::kPattern, "psubscribe", "punsubscribe"};
constexpr Family kShards{Kind::kShard, "ssubscribe", "sunsubscribe"};

int64_t CountFor(Kind kind, uint64_t me) {
  const Registry& reg = Subs();
  if (kind == Kind::kShard) return static_cast<int64_t>(reg.Count(Kind::kShard, me));
  return static_cast<int64_t>(reg.Count(Kind::kChannel, me) + reg.Count(Kind::kPattern, me));
}

// Sends [word, name (or nil), count]: as the handler's reply when last, else pushed to me.
void Confirm(const Call& c, uint64_t me, bool last, const char* word,
             std::optional<std::string_view> name, int64_t count) {
  if (last) {
    sdk::Api().reply_push(c.raw(), 3);  // an array in RESP2
    c.Bulk(word);
    if (name) {
      c.Bulk(*name);
    } else {
      c.Null();
    }
    return c.Integer(count);
  }
  plinth_reply_item_t items[4] = {};
  for (plinth_reply_item_t& it : items) it.struct_size = sizeof it;
  items[0].type = PLINTH_REPLY_PUSH;
  items[0].integer = 3;
  items[1].type = PLINTH_REPLY_BULK;
  items[1].data = word;
  items[1].len = std::char_traits<char>::length(word);
  items[2].type = name ? PLINTH_REPLY_BULK : PLINTH_REPLY_NULL;
  if (name) {
    items[2].data = name->data();
    items[2].len = name->size();
  }
  items[3].type = PLINTH_REPLY_INTEGER;
  items[3].integer = count;
  PushTo(me, items, 4);
}

// Tells the host how many subscriptions the client has now. Shard channels are reported with
// the channels: the host has no separate count for them.
void UpdateHost(const Call& c, uint64_t me) {
  const Registry& reg = Subs();
  Api().client_set_subscriptions(
      c.raw(), static_cast<int64_t>(reg.Count(Kind::kChannel, me) + reg.Count(Kind::kShard, me)),
      static_cast<int64_t>(reg.Count(Kind::kPattern, me)));
}

bool NeedsClient(const Call& c, uint64_t me) {
  if (me != 0) return true;
  c.Error("ERR pub/sub needs a client connection");
  return false;
}

void SubscribeGeneric(Call& c, const Family& f) {
  const uint64_t me = Api().client_id(c.raw());
  if (!NeedsClient(c, me)) return;
  BusyScope busy;
  const int argc = c.argc();
  for (int i = 1; i < argc; ++i) {
    std::string_view name = c.arg(i);
    Subs().Subscribe(f.kind, me, name);
    Confirm(c, me, i == argc - 1, f.subscribe, name, CountFor(f.kind, me));
  }
  UpdateHost(c, me);
}

void UnsubscribeGeneric(Call& c, const Family& f) {
  const uint64_t me = Api().client_id(c.raw());
  if (!NeedsClient(c, me)) return;
  BusyScope busy;
  const int argc = c.argc();
  if (argc > 1) {
    for (int i = 1; i < argc; ++i) {
      std::string_view name = c.arg(i);
      Subs().Unsubscribe(f.kind, me, name);
      Confirm(c, me, i == argc - 1, f.unsubscribe, name, CountFor(f.kind, me));
    }
    return UpdateHost(c, me);
  }
  // Without arguments: every subscription of this kind, or one confirmation with a nil name.
  std::vector<std::string> names = Subs().Names(f.kind, me);
  if (names.empty()) return Confirm(c, me, true, f.unsubscribe, std::nullopt, CountFor(f.kind, me));
  for (size_t i = 0; i < names.size(); ++i) {
    Subs().Unsubscribe(f.kind, me, names[i]);
    Confirm(c, me, i + 1 == names.size(), f.unsubscribe, names[i], CountFor(f.kind, me));
  }
  UpdateHost(c, me);
}

}  // namespace

void Subscribe(Call& c) { SubscribeGeneric(c, kChannels); }
void Unsubscribe(Call& c) { UnsubscribeGeneric(c, kChannels); }
void PSubscribe(Call& c) { SubscribeGeneric(c, kPatterns); }
void PUnsubscribe(Call& c) { UnsubscribeGeneric(c, kPatterns); }
void SSubscribe(Call& c) { SubscribeGeneric(c, kShards); }
void SUnsubscribe(Call& c) { UnsubscribeGeneric(c, kShards); }

}  // namespace plinth::pubsub
