// OBJECT (ENCODING, FREQ, IDLETIME, REFCOUNT, HELP): introspection of one stored value. IDLETIME
// and FREQ read the host's access stamp of the key (key_access) without refreshing it; which of
// the two is tracked follows maxmemory-policy, as in Redis. REFCOUNT reports 1. Main thread.
#include <string>

#include "common/subcommand.h"
#include "keys/handlers.h"

namespace plinth::keys {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kObjectSubs[] = {
    {"encoding", 3}, {"freq", 3}, {"idletime", 3}, {"refcount", 3}, {"help", 2}};

void ObjectHelp(const Call& c) {
  ReplyHelp(c, {"OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "ENCODING <key>",
                "    Return the kind of internal representation used in order to store the value",
                "    associated with a <key>.", "FREQ <key>",
                "    Return the access frequency index of the <key>. The returned integer is",
                "    proportional to the logarithm of the recent access frequency of the key.",
                "IDLETIME <key>", "    Return the idle time of the <key>, that is the approximated",
                "    number of seconds elapsed since the last access to the key.", "REFCOUNT <key>",
                "    Return the number of references of the value (always 1 here).", "HELP",
                "    Prints this help."});
}

}  // namespace

void ReplyHelp(const Call& c, std::initializer_list<std::string_view> lines) {
  c.Array(static_cast<int64_t>(lines.size()));
  for (std::string_view l : lines) c.Simple(l);
}

void Object(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("object", kObjectSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kObjectSubs[sub].name;
  if (name == "help") return ObjectHelp(c);
  const plinth_value_t* v = c.Get(c.arg(2));
  if (!v) return c.Null();
  if (name == "encoding") return c.Bulk(Api().value_encoding_name(v));
  if (name == "refcount") return c.Integer(1);
  const bool freq = name == "freq";
  int64_t got = 0;
  const std::string_view key = c.arg(2);
  if (Api().key_access(c.raw(), key.data(), key.size(), freq ? PLINTH_KEY_FREQ : PLINTH_KEY_IDLE_MS,
                       &got) == PLINTH_ERR) {
    return c.Error(freq ? "ERR An LFU maxmemory policy is not selected, access frequency not "
                          "tracked. Please note that when switching between policies at runtime "
                          "LRU and LFU data will take some time to adjust."
                        : "ERR An LFU maxmemory policy is selected, idle time not tracked. Please "
                          "note that when switching between policies at runtime LRU and LFU data "
                          "will take some time to adjust.");
  }
  c.Integer(freq ? got : got / 1000);
}

}  // namespace plinth::keys
