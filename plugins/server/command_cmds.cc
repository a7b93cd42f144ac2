// COMMAND, COMMAND COUNT / LIST / INFO / DOCS / GETKEYS / HELP over the host's command table.
// COMMAND DOCS derives each command's argument tree from its args hint (args_hint.h), which is
// what redis-cli 7.0 builds its interactive hints from. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "args_hint.h"
#include "command_meta.h"
#include "handlers.h"
#include "server_args.h"
#include "subcommand.h"

namespace plinth::server {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kSubs[] = {{"count", 2}, {"list", -2},    {"info", -2},
                                           {"docs", -2}, {"getkeys", -4}, {"help", 2}};

// The command's name in lower case, as COMMAND replies show it.
std::string LowerName(const plinth_command_spec_t* s) {
  return text::ToLower(s->name ? s->name : "");
}

std::string_view GroupOf(const plinth_command_spec_t* s) { return s->group ? s->group : "module"; }

// One Redis 7 key spec equivalent to the spec's first/last/step key positions.
void ReplyKeySpec(const Call& c, const plinth_command_spec_t* s) {
  c.Map(3);
  c.Bulk("flags");
  c.Set(1);
  c.Simple((s->flags & PLINTH_CMD_WRITE) ? "RW" : "RO");
  c.Bulk("begin_search");
  c.Map(2);
  c.Bulk("type");
  c.Bulk("index");
  c.Bulk("spec");
  c.Map(1);
  c.Bulk("index");
  c.Integer(s->first_key);
  c.Bulk("find_keys");
  c.Map(2);
  c.Bulk("type");
  c.Bulk("range");
  c.Bulk("spec");
  c.Map(3);
  c.Bulk("lastkey");
  c.Integer(s->last_key < 0 ? s->last_key : s->last_key - s->first_key);
  c.Bulk("keystep");
  c.Integer(s->key_step > 0 ? s->key_step : 1);
  c.Bulk("limit");
  c.Integer(0);
}

void ReplyInfo(const Call& c, const plinth_command_spec_t* s) {
  if (!s) return c.Null();
  c.Array(10);
  c.Bulk(LowerName(s));
  c.Integer(s->arity);
  std::vector<std::string_view> flags = FlagNames(s->flags);
  c.Set(static_cast<int64_t>(flags.size()));
  for (std::string_view f : flags) c.Simple(f);
  c.Integer(s->first_key);
  c.Integer(s->first_key ? s->last_key : 0);
  c.Integer(s->first_key ? s->key_step : 0);
  std::vector<std::string_view> cats = AclCategories(s->name, s->flags, GroupOf(s));
  c.Set(static_cast<int64_t>(cats.size()));
  for (std::string_view cat : cats) c.Simple(cat);
  c.Set(0);  // tips
  if (s->first_key > 0) {
    c.Set(1);
    ReplyKeySpec(c, s);
  } else {
    c.Set(0);
  }
  c.Set(0);  // subcommands
}

// Arguments of COMMAND DOCS; with_keys: the command has the one key spec ReplyKeySpec reports,
// which its key arguments point at.
void ReplyArgs(const Call& c, const std::vector<DocArg>& args, bool with_keys) {
  c.Array(static_cast<int64_t>(args.size()));
  for (const DocArg& a : args) {
    bool has_flags = a.optional || a.multiple || a.multiple_token;
    bool nested = a.type == "oneof" || a.type == "block";
    bool key = with_keys && a.type == "key";
    c.Map(2 + (key ? 1 : 0) + (a.token.empty() ? 0 : 1) + (has_flags ? 1 : 0) + (nested ? 1 : 0));
    c.Bulk("name");
    c.Bulk(a.name);
    c.Bulk("type");
    c.Bulk(a.type);
    if (key) {
      c.Bulk("key_spec_index");
      c.Integer(0);
    }
    if (!a.token.empty()) {
      c.Bulk("token");
      c.Bulk(a.token);
    }
    if (has_flags) {
      // redis-cli asserts that these are status strings.
      c.Bulk("flags");
      c.Set((a.optional ? 1 : 0) + (a.multiple ? 1 : 0) + (a.multiple_token ? 1 : 0));
      if (a.optional) c.Simple("optional");
      if (a.multiple) c.Simple("multiple");
      if (a.multiple_token) c.Simple("multiple_token");
    }
    if (nested) {
      c.Bulk("arguments");
      ReplyArgs(c, a.args, with_keys);
    }
  }
}

// The fields every doc map starts with; redis-cli expects summary and group to be there.
void ReplyDocHead(const Call& c, const plinth_command_spec_t* s, int64_t extra) {
  c.Map(2 + (s->since ? 1 : 0) + extra);
  c.Bulk("summary");
  c.Bulk(s->summary ? s->summary : "");
  if (s->since) {
    c.Bulk("since");
    c.Bulk(s->since);
  }
  c.Bulk("group");
  c.Bulk(GroupOf(s));
}

void ReplyDocs(const Call& c, const plinth_command_spec_t* s) {
  std::vector<DocArg> args;
  KeyPositions keys{s->first_key, s->last_key, s->key_step};
  if (!s->args || !ParseArgsHint(s->args, keys, &args)) args.clear();
  std::vector<DocSubcommand> subs = SplitSubcommands(args);
  if (subs.empty()) {
    ReplyDocHead(c, s, args.empty() ? 0 : 1);
    if (args.empty()) return;
    c.Bulk("arguments");
    return ReplyArgs(c, args, s->first_key > 0);
  }
  ReplyDocHead(c, s, 1);
  c.Bulk("subcommands");
  c.Map(static_cast<int64_t>(subs.size()));
  std::string container = LowerName(s);
  for (const DocSubcommand& sub : subs) {
    c.Bulk(container + "|" + sub.name);
    ReplyDocHead(c, s, sub.args.empty() ? 0 : 1);
    if (sub.args.empty()) continue;
    c.Bulk("arguments");
    ReplyArgs(c, sub.args, false);
  }
}

std::vector<const plinth_command_spec_t*> AllCommands(const Call& c) {
  std::vector<const plinth_command_spec_t*> out;
  int32_t n = Api().command_count(c.raw());
  for (int32_t i = 0; i < n; ++i)
    if (const plinth_command_spec_t* s = Api().command_at(c.raw(), i)) out.push_back(s);
  return out;
}

const plinth_command_spec_t* Lookup(const Call& c, std::string_view name) {
  return Api().command_lookup(c.raw(), name.data(), name.size());
}

void List(Call& c) {
  ListFilter filter;
  std::string error;
  if (!ParseListFilter(ArgsFrom(c, 2), &filter, &error)) return c.Error(error);
  std::vector<std::string> names;
  for (const plinth_command_spec_t* s : AllCommands(c)) {
    std::string name = LowerName(s);
    // Commands do not record which plugin registered them, so MODULE matches nothing.
    if (filter.kind == ListFilter::Kind::kModule) continue;
    if (filter.kind == ListFilter::Kind::kPattern && !text::GlobMatch(filter.arg, name, true))
      continue;
    if (filter.kind == ListFilter::Kind::kAclCat &&
        !InAclCategory(s->name, s->flags, GroupOf(s), filter.arg))
      continue;
    names.push_back(std::move(name));
  }
  c.Array(static_cast<int64_t>(names.size()));
  for (const std::string& n : names) c.Bulk(n);
}

void GetKeys(Call& c) {
  const plinth_command_spec_t* s = Lookup(c, c.arg(2));
  if (!s) return c.Error("ERR Invalid command specified");
  int argc = c.argc() - 2;
  if (!common::ArityFits(s->arity, argc))
    return c.Error("ERR Invalid number of arguments specified for command");
  if (s->first_key <= 0) return c.Error("ERR The command has no key arguments");
  int last = s->last_key < 0 ? argc + s->last_key : s->last_key;
  int step = s->key_step > 0 ? s->key_step : 1;
  std::vector<std::string_view> keys;
  for (int i = s->first_key; i <= last && i < argc; i += step) keys.push_back(c.arg(2 + i));
  c.Array(static_cast<int64_t>(keys.size()));
  for (std::string_view k : keys) c.Bulk(k);
}

void Help(const Call& c) {
  ReplyHelp(c, {"COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "(no subcommand)", "    Return details about all commands.", "COUNT",
                "    Return the total number of commands in this server.", "LIST",
                "    Return a list of all commands in this server.", "INFO [<command-name> ...]",
                "    Return details about multiple commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.", "DOCS [<command-name> ...]",
                "    Return documentation details about multiple commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.", "GETKEYS <full-command>",
                "    Return the keys from a full command.", "HELP", "    Prints this help."});
}

}  // namespace

void Command(Call& c) {
  if (c.argc() == 1) {
    std::vector<const plinth_command_spec_t*> all = AllCommands(c);
    c.Array(static_cast<int64_t>(all.size()));
    for (const plinth_command_spec_t* s : all) ReplyInfo(c, s);
    return;
  }
  std::string error;
  int sub = common::FindSubcommand("command", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kSubs[sub].name;
  if (name == "count") return c.Integer(Api().command_count(c.raw()));
  if (name == "list") return List(c);
  if (name == "getkeys") return GetKeys(c);
  if (name == "help") return Help(c);
  std::vector<const plinth_command_spec_t*> specs;
  if (c.argc() == 2) {
    specs = AllCommands(c);
  } else {
    for (int i = 2; i < c.argc(); ++i) specs.push_back(Lookup(c, c.arg(i)));
  }
  if (name == "info") {
    c.Array(static_cast<int64_t>(specs.size()));
    for (const plinth_command_spec_t* s : specs) ReplyInfo(c, s);
    return;
  }
  size_t found = 0;
  for (const plinth_command_spec_t* s : specs) found += s ? 1 : 0;
  c.Map(static_cast<int64_t>(found));
  for (const plinth_command_spec_t* s : specs) {
    if (!s) continue;
    c.Bulk(LowerName(s));
    ReplyDocs(c, s);
  }
}

}  // namespace plinth::server
