// The pub/sub plugin's state and command handlers, one family per .cc file, registered by
// plugin.cc. Everything runs on the main thread (command handlers, host listeners).
#ifndef PLINTH_PUBSUB_HANDLERS_H
#define PLINTH_PUBSUB_HANDLERS_H

#include <plinth/plugin.hpp>
#include <string_view>

#include "pubsub/registry.h"

namespace plinth::pubsub {

using sdk::Call;

// The one subscription registry of this plugin.
Registry& Subs();
// Forgets every subscription (init and shutdown: a host loading the plugin again starts
// clean).
void ResetSubscriptions();

// Marks the plugin busy while it walks subscriber lists: a client that closes meanwhile (a
// client_push can close one that overran its output limit) is forgotten when the outermost
// scope ends, not under the walk.
class BusyScope {
 public:
  BusyScope();
  ~BusyScope();
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;
};

// delivery.cc

// Sends one complete reply (items[0, n)) to client id outside its commands. Returns true when
// the host queued it.
bool PushTo(uint64_t id, const plinth_reply_item_t* items, size_t n);
// Delivers message on channel: ["message", channel, message] to its subscribers and, for
// Kind::kChannel, ["pmessage", pattern, channel, message] to every client of each matching
// pattern; ["smessage", ...] for Kind::kShard. Returns the number of messages queued (a
// client subscribed by name and by a pattern counts twice, as in Redis).
int64_t Publish(Kind kind, std::string_view channel, std::string_view message);
// Client listener: forgets the subscriptions of a closed or RESET client.
void OnClientEvent(void* ctx, uint64_t client, uint32_t event);

// subscribe_commands.cc
void Subscribe(Call& c);
void Unsubscribe(Call& c);
void PSubscribe(Call& c);
void PUnsubscribe(Call& c);
void SSubscribe(Call& c);
void SUnsubscribe(Call& c);

// publish_commands.cc
void PublishCommand(Call& c);
void SPublish(Call& c);
void PubsubCommand(Call& c);

// notifications.cc

// Registers the notify-keyspace-events option and the keyspace listener that publishes
// __keyspace@<db>__:<key> and __keyevent@<db>__:<event>. Init only. Returns false on failure.
bool RegisterNotifications();

}  // namespace plinth::pubsub

#endif  // PLINTH_PUBSUB_HANDLERS_H
