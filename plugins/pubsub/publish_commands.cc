// PUBLISH, SPUBLISH and the PUBSUB container (CHANNELS, NUMSUB, NUMPAT, SHARDCHANNELS,
// SHARDNUMSUB, HELP). PUBLISH and SPUBLISH are propagated, as Redis 7.0 forces them to its
// replicas, so a replica's subscribers hear them too. Main thread.
#include <initializer_list>
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "common/subcommand.h"
#include "pubsub/handlers.h"

namespace plinth::pubsub {
namespace {

using sdk::Api;

// Appends the command verbatim to the propagation stream (it is not a write, so the host
// would not on its own).
void PropagateVerbatim(const Call& c, const char* command) {
  std::string_view a = c.arg(1), b = c.arg(2);
  const char* argv[2] = {a.data(), b.data()};
  const size_t lens[2] = {a.size(), b.size()};
  Api().replicate(c.raw(), 0, command, 2, argv, lens);
}

void PublishGeneric(Call& c, Kind kind, const char* command) {
  const int64_t receivers = Publish(kind, c.arg(1), c.arg(2));
  PropagateVerbatim(c, command);
  c.Integer(receivers);
}

// CHANNELS / SHARDCHANNELS [pattern]: the names with a subscriber, matching pattern if given.
void ReplyChannels(const Call& c, Kind kind) {
  if (c.argc() > 3) {
    return c.Error(common::SubcommandSyntaxError("pubsub", c.arg(1)));
  }
  const bool all = c.argc() == 2;
  std::string_view pattern = all ? std::string_view() : c.arg(2);
  std::vector<const std::string*> names;
  Subs().ForEach(kind, [&](const std::string& name, const Registry::Ids&) {
    if (all || text::GlobMatch(pattern, name)) names.push_back(&name);
  });
  c.Array(static_cast<int64_t>(names.size()));
  for (const std::string* name : names) c.Bulk(*name);
}

// NUMSUB / SHARDNUMSUB [name ...]: a flat name, count list (an array in RESP3 too, as Redis).
void ReplyNumSub(const Call& c, Kind kind) {
  c.Array(2 * static_cast<int64_t>(c.argc() - 2));
  for (int i = 2; i < c.argc(); ++i) {
    const Registry::Ids* ids = Subs().Subscribers(kind, c.arg(i));
    c.Bulk(c.arg(i));
    c.Integer(ids ? static_cast<int64_t>(ids->size()) : 0);
  }
}

void ReplyHelp(const Call& c) {
  static constexpr std::string_view kLines[] = {
      "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "CHANNELS [<pattern>]",
      "    Return the currently active channels matching a <pattern> (default: '*').",
      "NUMPAT",
      "    Return number of subscriptions to patterns.",
      "NUMSUB [<channel> ...]",
      "    Return the number of subscribers for the specified channels, excluding",
      "    pattern subscriptions(default: no channels).",
      "SHARDCHANNELS [<pattern>]",
      "    Return the currently active shard level channels matching a <pattern> (default: "
      "'*').",
      "SHARDNUMSUB [<shardchannel> ...]",
      "    Return the number of subscribers for the specified shard level channel(s)",
      "HELP",
      "    Prints this help.",
  };
  c.Array(static_cast<int64_t>(std::size(kLines)));
  for (std::string_view line : kLines) c.Simple(line);
}

constexpr common::SubcommandDef kPubsubSubs[] = {
    {"channels", -2},      {"numsub", -2},      {"numpat", 2},
    {"shardchannels", -2}, {"shardnumsub", -2}, {"help", 2},
};

}  // namespace

void PublishCommand(Call& c) { PublishGeneric(c, Kind::kChannel, "publish"); }
void SPublish(Call& c) { PublishGeneric(c, Kind::kShard, "spublish"); }

void PubsubCommand(Call& c) {
  std::string error;
  const int sub = common::FindSubcommand("pubsub", kPubsubSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  const std::string_view name = kPubsubSubs[sub].name;
  if (name == "channels") return ReplyChannels(c, Kind::kChannel);
  if (name == "shardchannels") return ReplyChannels(c, Kind::kShard);
  if (name == "numsub") return ReplyNumSub(c, Kind::kChannel);
  if (name == "shardnumsub") return ReplyNumSub(c, Kind::kShard);
  if (name == "numpat") return c.Integer(static_cast<int64_t>(Subs().Size(Kind::kPattern)));
  ReplyHelp(c);
}

}  // namespace plinth::pubsub
