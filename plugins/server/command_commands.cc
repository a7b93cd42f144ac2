// COMMAND, COMMAND COUNT / LIST / INFO / DOCS / GETKEYS / GETKEYSANDFLAGS / HELP over the host's
// command table (categories, subcommands and keys are the host's: command_table.h).
// COMMAND DOCS derives each command's argument tree from its args hint (args_hint.h), which is
// what redis-cli 7.0 builds its interactive hints from. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "common/acl_categories.h"
#include "common/subcommand.h"
#include "server/args_hint.h"
#include "server/command_meta.h"
#include "server/command_table.h"
#include "server/handlers.h"
#include "server/server_args.h"

namespace plinth::server {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kSubs[] = {{"count", 2}, {"list", -2},    {"info", -2},
                                           {"docs", -2}, {"getkeys", -4}, {"getkeysandflags", -4},
                                           {"help", 2}};

// The command's name in lower case, as COMMAND replies show it.
std::string LowerName(const plinth_command_spec_t* s) {
  return text::ToLower(s->name ? s->name : "");
}

std::string_view GroupOf(const plinth_command_spec_t* s) { return s->group ? s->group : "module"; }

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

// The fields every doc map starts with, in Redis's order; redis-cli expects summary and group.
void ReplyDocHead(const Call& c, const plinth_command_spec_t* s, int64_t extra) {
  const char* complexity =
      PLINTH_HAS_FIELD(plinth_command_spec_t, s, complexity) ? s->complexity : nullptr;
  c.Map(2 + (s->since ? 1 : 0) + (complexity ? 1 : 0) + extra);
  c.Bulk("summary");
  c.Bulk(s->summary ? s->summary : "");
  if (s->since) {
    c.Bulk("since");
    c.Bulk(s->since);
  }
  c.Bulk("group");
  c.Bulk(GroupOf(s));
  if (complexity) {
    c.Bulk("complexity");
    c.Bulk(complexity);
  }
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

// COMMAND LIST: commands and subcommands ("config|get"), as Redis 7 lists them.
void List(Call& c) {
  ListFilter filter;
  std::string error;
  if (!ParseListFilter(ArgsFrom(c, 2), &filter, &error)) return c.Error(error);
  const uint64_t category =
      filter.kind == ListFilter::Kind::kAclCat ? common::AclCategoryBit(filter.arg) : 0;
  CommandTable table(c);
  std::vector<std::string_view> names;
  auto add = [&](int32_t id) {
    const plinth_command_info_t& info = table.Info(id);
    // Commands do not record which plugin registered them, so MODULE matches nothing.
    if (filter.kind == ListFilter::Kind::kModule) return;
    if (filter.kind == ListFilter::Kind::kPattern && !text::GlobMatch(filter.arg, info.name, true))
      return;
    if (filter.kind == ListFilter::Kind::kAclCat && !(info.acl_categories & category)) return;
    names.push_back(info.name);
  };
  for (int32_t id : table.TopLevel()) {
    add(id);
    for (int32_t sub : table.Subcommands(id)) add(sub);
  }
  c.Array(static_cast<int64_t>(names.size()));
  for (std::string_view n : names) c.Bulk(n);
}

// COMMAND GETKEYS / GETKEYSANDFLAGS: the keys the host finds in the call, as Redis 7.0 answers.
void GetKeys(Call& c, bool with_flags) {
  std::vector<std::string_view> argv = ArgsFrom(c, 2);
  CommandTable table(c);
  int32_t id = table.Find(argv[0]);
  if (id < 0 || table.Info(id).parent >= 0) return c.Error("ERR Invalid command specified");
  if (argv.size() > 1 && !table.Subcommands(id).empty()) {
    const int32_t sub = table.Find(std::string(argv[0]) + "|" + std::string(argv[1]));
    if (sub >= 0) id = sub;
  }
  if (!table.HasKeys(id)) return c.Error("ERR The command has no key arguments");
  std::vector<plinth_key_ref_t> keys;
  if (!CallKeys(argv, &keys))
    return c.Error("ERR Invalid number of arguments specified for command");
  c.Array(static_cast<int64_t>(keys.size()));
  for (const plinth_key_ref_t& k : keys) {
    if (!with_flags) {
      c.Bulk(argv[k.index]);
      continue;
    }
    c.Array(2);
    c.Bulk(argv[k.index]);
    std::vector<std::string_view> flags = KeySpecFlags(k.flags);
    c.Set(static_cast<int64_t>(flags.size()));
    for (std::string_view f : flags) c.Simple(f);
  }
}

void Help(const Call& c) {
  ReplyHelp(c, {"COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "(no subcommand)",
                "    Return details about all commands.",
                "COUNT",
                "    Return the total number of commands in this server.",
                "LIST",
                "    Return a list of all commands in this server.",
                "INFO [<command-name> ...]",
                "    Return details about multiple commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "DOCS [<command-name> ...]",
                "    Return documentation details about multiple commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "GETKEYS <full-command>",
                "    Return the keys from a full command.",
                "GETKEYSANDFLAGS <full-command>",
                "    Return the keys and the access flags from a full command.",
                "HELP",
                "    Prints this help."});
}

// COMMAND INFO [name ...]: every command, or those named ("get", "config|get"; unknown: null).
void CommandInfo(Call& c) {
  CommandTable table(c);
  std::vector<int32_t> ids;
  if (c.argc() <= 2) {
    ids = table.TopLevel();
  } else {
    for (int i = 2; i < c.argc(); ++i) ids.push_back(table.Find(c.arg(i)));
  }
  c.Array(static_cast<int64_t>(ids.size()));
  for (int32_t id : ids) ReplyCommandInfo(c, table, id);
}

}  // namespace

void Command(Call& c) {
  if (c.argc() == 1) return CommandInfo(c);
  std::string error;
  int sub = common::FindSubcommand("command", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kSubs[sub].name;
  if (name == "count") return c.Integer(Api().command_count(c.raw()));
  if (name == "list") return List(c);
  if (name == "getkeys") return GetKeys(c, false);
  if (name == "getkeysandflags") return GetKeys(c, true);
  if (name == "help") return Help(c);
  if (name == "info") return CommandInfo(c);
  std::vector<const plinth_command_spec_t*> specs;
  if (c.argc() == 2) {
    specs = AllCommands(c);
  } else {
    for (int i = 2; i < c.argc(); ++i) specs.push_back(Lookup(c, c.arg(i)));
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
