// The pub/sub plugin: Redis 7.0's SUBSCRIBE family, PUBLISH, PUBSUB and keyspace notifications.
// This file only declares the command table and the plugin descriptor.
#include "common/acl_keys.h"
#include "pubsub/handlers.h"

namespace plinth::pubsub {
namespace {

constexpr uint32_t kBase = PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE;
constexpr uint32_t kSub = kBase | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_SUBSCRIBER;
constexpr uint32_t kPub = kBase | PLINTH_CMD_FAST | PLINTH_CMD_MAY_REPLICATE;

const sdk::CommandDef kCommands[] = {
    {"subscribe", -2, kSub, 0, 0, 0, Subscribe, "pubsub", "channel [channel ...]",
     "Listen for messages published to the given channels", "2.0.0", 0, 0,
     &common::FirstAndRest<1, PLINTH_KEY_CHANNEL, PLINTH_KEY_CHANNEL>},
    {"unsubscribe", -1, kSub, 0, 0, 0, Unsubscribe, "pubsub", "[channel [channel ...]]",
     "Stop listening for messages posted to the given channels", "2.0.0"},
    {"psubscribe", -2, kSub, 0, 0, 0, PSubscribe, "pubsub", "pattern [pattern ...]",
     "Listen for messages published to channels matching the given patterns", "2.0.0", 0, 0,
     &common::FirstAndRest<1, PLINTH_KEY_CHANNEL | PLINTH_KEY_PATTERN,
                           PLINTH_KEY_CHANNEL | PLINTH_KEY_PATTERN>},
    {"punsubscribe", -1, kSub, 0, 0, 0, PUnsubscribe, "pubsub", "[pattern [pattern ...]]",
     "Stop listening for messages posted to channels matching the given patterns", "2.0.0"},
    {"ssubscribe", -2, kSub, 1, -1, 1, SSubscribe, "pubsub", "shardchannel [shardchannel ...]",
     "Listen for messages published to the given shard channels", "7.0.0", 0, 0,
     &common::FirstAndRest<1, PLINTH_KEY_CHANNEL, PLINTH_KEY_CHANNEL>},
    {"sunsubscribe", -1, kSub, 1, -1, 1, SUnsubscribe, "pubsub",
     "[shardchannel [shardchannel ...]]",
     "Stop listening for messages posted to the given shard channels", "7.0.0", 0, 0,
     &common::FirstAndRest<1, 0, 0>},
    {"publish", 3, kPub, 0, 0, 0, PublishCommand, "pubsub", "channel message",
     "Post a message to a channel", "2.0.0", 0, 0, &common::OneKey<1, PLINTH_KEY_CHANNEL>},
    {"spublish", 3, kPub, 1, 1, 1, SPublish, "pubsub", "shardchannel message",
     "Post a message to a shard channel", "7.0.0", 0, 0, &common::OneKey<1, PLINTH_KEY_CHANNEL>},
    {"pubsub", -2, kBase, 0, 0, 0, PubsubCommand, "pubsub",
     "<CHANNELS [pattern]|NUMSUB [channel ...]|NUMPAT|SHARDCHANNELS [pattern]|SHARDNUMSUB "
     "[shardchannel ...]|HELP>",
     "A container for Pub/Sub commands", "2.8.0"},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"pubsub|channels", -2, PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"pubsub|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"pubsub|numpat", 2, PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"pubsub|numsub", -2, PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"pubsub|shardchannels", -2, PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"pubsub|shardnumsub", -2, PLINTH_CMD_PUBSUB | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
};

bool Init() {
  ResetSubscriptions();
  if (!sdk::RegisterCommands(kCommands) || !RegisterNotifications()) return false;
  return sdk::Api().client_listener_register(sdk::Host::self, OnClientEvent, nullptr) == PLINTH_OK;
}

void Shutdown() { ResetSubscriptions(); }

}  // namespace
}  // namespace plinth::pubsub

PLINTH_PLUGIN("pubsub", "0.1.0",
              "Pub/Sub: SUBSCRIBE, PUBLISH, PSUBSCRIBE, PUBSUB, keyspace notifications",
              plinth::pubsub::Init, plinth::pubsub::Shutdown)
