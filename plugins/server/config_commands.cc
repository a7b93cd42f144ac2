// CONFIG GET, SET, RESETSTAT, REWRITE and HELP over the host's option table. CONFIG SET with
// several parameters is all-or-nothing, like Redis 7: names are checked first, and values already
// set are restored when a later one is refused. Main thread.
#include <plinth/text.hpp>
#include <string>
#include <utility>

#include "common/subcommand.h"
#include "server/handlers.h"
#include "server/server_args.h"

namespace plinth::server {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kSubs[] = {
    {"get", -3}, {"set", -4}, {"resetstat", 2}, {"rewrite", 2}, {"help", 2}};

// Collects config_get's alternating name/value emissions.
struct PairSink {
  std::vector<std::pair<std::string, std::string>> pairs;
  bool want_value = false;
  static void Emit(void* arg, const char* data, size_t len) {
    auto* self = static_cast<PairSink*>(arg);
    if (self->want_value) {
      self->pairs.back().second.assign(data, len);
    } else {
      self->pairs.emplace_back(std::string(data, len), std::string());
    }
    self->want_value = !self->want_value;
  }
};

bool OptionValue(std::string_view name, std::string* value) {
  std::string n(name);
  if (n.find('\0') != std::string::npos) return false;
  const plinth_option_t* o = Api().option_find(plinth::sdk::Host::self, n.c_str());
  if (!o) return false;
  *value = plinth::sdk::OptionString(o);
  return true;
}

void Get(Call& c) {
  PairSink sink;
  for (int i = 2; i < c.argc(); ++i) {
    std::string_view pattern = c.arg(i);
    Api().config_get(c.raw(), pattern.data(), pattern.size(), &PairSink::Emit, &sink);
    sink.want_value = false;
  }
  std::vector<const std::pair<std::string, std::string>*> unique;
  for (const auto& p : sink.pairs) {
    bool seen = false;
    for (const auto* u : unique) seen = seen || text::EqualsNoCase(u->first, p.first);
    if (!seen) unique.push_back(&p);
  }
  c.Map(static_cast<int64_t>(unique.size()));
  for (const auto* p : unique) {
    c.Bulk(p->first);
    c.Bulk(p->second);
  }
}

void Set(Call& c) {
  if (c.argc() % 2 != 0) return c.Error("ERR wrong number of arguments for 'config|set' command");
  std::vector<std::string_view> names, values;
  std::vector<bool> known;
  std::vector<std::string> old;
  for (int i = 2; i < c.argc(); i += 2) {
    names.push_back(c.arg(i));
    values.push_back(c.arg(i + 1));
    old.emplace_back();
    known.push_back(OptionValue(names.back(), &old.back()));
  }
  std::string error;
  if (!CheckConfigSetNames(names, known, &error)) return c.Error(error);
  char reason[256];
  for (size_t i = 0; i < names.size(); ++i) {
    reason[0] = '\0';
    if (Api().config_set(c.raw(), names[i].data(), names[i].size(), values[i].data(),
                         values[i].size(), reason, sizeof reason) == PLINTH_OK)
      continue;
    std::string why = reason[0] ? reason : "the new value was refused";
    for (size_t j = i; j-- > 0;) {
      char ignored[256];
      Api().config_set(c.raw(), names[j].data(), names[j].size(), old[j].data(), old[j].size(),
                       ignored, sizeof ignored);
    }
    return c.Error(ConfigSetFailed(names[i], why));
  }
  c.Ok();
}

// CONFIG REWRITE: the host writes the file back; Redis's texts for its failures.
void Rewrite(Call& c) {
  char reason[512] = "";
  if (Api().config_rewrite(c.raw(), reason, sizeof reason) == PLINTH_OK) return c.Ok();
  c.Error(std::string("ERR ") + (reason[0] ? reason : "Rewriting config file failed"));
}

}  // namespace

void Config(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("config", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kSubs[sub].name;
  if (name == "get") return Get(c);
  if (name == "set") return Set(c);
  if (name == "resetstat") {
    Api().stats_reset(c.raw());
    return c.Ok();
  }
  if (name == "rewrite") return Rewrite(c);
  ReplyHelp(c, {"CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "GET <pattern>",
                "    Return parameters matching the glob-like <pattern> and their values.",
                "SET <directive> <value>", "    Set the configuration <directive> to <value>.",
                "RESETSTAT", "    Reset statistics reported by the INFO command.", "REWRITE",
                "    Rewrite the configuration file.", "HELP", "    Prints this help."});
}

}  // namespace plinth::server
