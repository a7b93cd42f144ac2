// OBJECT (ENCODING, FREQ, IDLETIME, REFCOUNT, HELP) and MEMORY (USAGE, HELP): introspection of
// one stored value. The host tracks no access times or frequencies, so IDLETIME and FREQ answer
// with errors; REFCOUNT reports 1. Main thread.
#include <string>

#include "handlers.h"
#include "options.h"
#include "subcommand.h"

namespace plinth::keys {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kObjectSubs[] = {
    {"encoding", 3}, {"freq", 3}, {"idletime", 3}, {"refcount", 3}, {"help", 2}};
constexpr common::SubcommandDef kMemorySubs[] = {{"usage", -3}, {"help", 2}};

void ReplyHelp(const Call& c, std::initializer_list<std::string_view> lines) {
  c.Array(static_cast<int64_t>(lines.size()));
  for (std::string_view l : lines) c.Simple(l);
}

void ObjectHelp(const Call& c) {
  ReplyHelp(c, {"OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "ENCODING <key>",
                "    Return the kind of internal representation used in order to store the value",
                "    associated with a <key>.", "FREQ <key>",
                "    Not tracked by this server: always an error.", "IDLETIME <key>",
                "    Not tracked by this server: always an error.", "REFCOUNT <key>",
                "    Return the number of references of the value (always 1 here).", "HELP",
                "    Prints this help."});
}

}  // namespace

void Object(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("object", kObjectSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  if (kObjectSubs[sub].name == "help") return ObjectHelp(c);
  const plinth_value_t* v = c.Get(c.arg(2));
  if (!v) return c.Null();
  std::string_view name = kObjectSubs[sub].name;
  if (name == "encoding") return c.Bulk(Api().value_encoding_name(v));
  if (name == "refcount") return c.Integer(1);
  if (name == "freq")
    return c.Error(
        "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note "
        "that when switching between policies at runtime LRU and LFU data will take some time "
        "to adjust.");
  c.Error("ERR idle time is not tracked by this server");
}

void Memory(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("memory", kMemorySubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  if (kMemorySubs[sub].name == "help") {
    return ReplyHelp(c, {"MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                         "USAGE <key> [SAMPLES <count>]",
                         "    Return memory in bytes used by <key> and its value. Nested values",
                         "    are measured exactly; SAMPLES is accepted and ignored.", "HELP",
                         "    Prints this help."});
  }
  if (!ParseMemoryUsageOptions(ArgsFrom(c, 3), &error)) return c.Error(error);
  std::string_view key = c.arg(2);
  const plinth_value_t* v = c.Get(key);
  if (!v) return c.Null();
  c.Integer(static_cast<int64_t>(Api().value_memory(v) + key.size()));
}

}  // namespace plinth::keys
