// ACL SETUSER, GETUSER, DELUSER, USERS, LIST, WHOAMI, CAT, GENPASS, LOG, LOAD, SAVE, DRYRUN and
// HELP, with Redis 7.0's replies and errors.
#include <sys/random.h>

#include <plinth/errors.hpp>
#include <plinth/text.hpp>

#include "acl/acl.h"
#include "acl/acl_file.h"
#include "common/acl_categories.h"
#include "common/fs_util.h"
#include "common/subcommand.h"

namespace plinth::acl {
namespace {

using sdk::Api;
using sdk::Call;

constexpr const char* kNoAclFile =
    "ERR This Redis instance is not configured to use an ACL file. You may want to specify users "
    "via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis "
    "configuration file set) in order to store users in the Redis configuration.";

void SetUser(const Call& c) {
  State& g = G();
  RefreshTable();
  std::vector<std::string> words, rules;
  for (int i = 3; i < c.argc(); ++i) words.emplace_back(c.arg(i));
  std::string err;
  if (!MergeSelectorWords(words, &rules, &err)) return c.Error("ERR " + err);
  const std::string name(c.arg(2));
  const User* old = g.users.Find(name);
  User u = old ? *old : NewUser(name, g.all_channels);
  for (const std::string& r : rules) {
    err = ApplyUserRule(u, r, g.table, g.all_channels);
    if (!err.empty()) return c.Error("ERR Error in ACL SETUSER modifier '" + r + "': " + err);
  }
  g.users.Put(std::move(u));
  SyncHost();
  c.Ok();
}

void GetUser(const Call& c) {
  User* u = G().users.Find(c.arg(2));
  if (!u) return c.Null();
  c.Map(6);
  c.Bulk("flags");
  c.Array(u->nopass ? 2 : 1);
  c.Bulk(u->enabled ? "on" : "off");
  if (u->nopass) c.Bulk("nopass");
  c.Bulk("passwords");
  c.Array(static_cast<int64_t>(u->passwords.size()));
  for (const std::string& p : u->passwords) c.Bulk(p);
  c.Bulk("commands");
  c.Bulk(DescribeCommands(u->root));
  c.Bulk("keys");
  c.Bulk(DescribeKeys(u->root));
  c.Bulk("channels");
  c.Bulk(DescribeChannels(u->root));
  c.Bulk("selectors");
  c.Array(static_cast<int64_t>(u->selectors.size()));
  for (const Selector& s : u->selectors) {
    c.Map(3);
    c.Bulk("commands");
    c.Bulk(DescribeCommands(s));
    c.Bulk("keys");
    c.Bulk(DescribeKeys(s));
    c.Bulk("channels");
    c.Bulk(DescribeChannels(s));
  }
}

void DelUser(const Call& c) {
  State& g = G();
  std::vector<uint64_t> removed;
  for (int i = 2; i < c.argc(); ++i)
    if (c.arg(i) == "default") return c.Error("ERR The 'default' user cannot be removed");
  for (int i = 2; i < c.argc(); ++i) {
    User* u = g.users.Find(c.arg(i));
    if (!u) continue;
    removed.push_back(u->id);
    g.users.Erase(c.arg(i));
  }
  SyncHost(removed);
  c.Integer(static_cast<int64_t>(removed.size()));
}

void UserNames(const Call& c, bool list) {
  const auto& all = G().users.all();
  c.Array(static_cast<int64_t>(all.size()));
  for (const auto& [name, u] : all) c.Bulk(list ? "user " + name + " " + DescribeUser(*u) : name);
}

void Cat(const Call& c) {
  State& g = G();
  if (c.argc() == 2) {
    c.Array(PLINTH_ACL_CATEGORY_COUNT);
    for (int i = 0; i < PLINTH_ACL_CATEGORY_COUNT; ++i) c.Bulk(common::AclCategoryName(i));
    return;
  }
  const uint64_t bit = common::AclCategoryBit(c.arg(2));
  if (!bit) return c.Error("ERR Unknown category '" + std::string(c.arg(2)) + "'");
  RefreshTable();
  std::vector<const std::string*> names;
  for (size_t id = 0; id < g.table.size(); ++id) {
    const CommandEntry& e = g.table.at(static_cast<int32_t>(id));
    if (e.categories & bit) names.push_back(&e.name);
  }
  c.Array(static_cast<int64_t>(names.size()));
  for (const std::string* n : names) c.Bulk(*n);
}

void GenPass(const Call& c) {
  int64_t bits = 256;
  if (c.argc() == 3 && (!text::ParseInt64(c.arg(2), &bits) || bits <= 0 || bits > 4096))
    return c.Error(
        "ERR ACL GENPASS argument must be the number of bits for the output password, a "
        "positive number up to 4096");
  unsigned char raw[512];
  const size_t chars = static_cast<size_t>((bits + 3) / 4);
  if (getrandom(raw, (chars + 1) / 2, 0) < 0) return c.Error("ERR no random bytes available");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < chars; ++i) out += kHex[(raw[i / 2] >> ((i & 1) ? 0 : 4)) & 15];
  c.Bulk(out);
}

void LogCommand(const Call& c) {
  State& g = G();
  int64_t count = 10;
  if (c.argc() == 3) {
    if (text::EqualsNoCase(c.arg(2), "reset")) {
      g.log.Reset();
      return c.Ok();
    }
    if (!text::ParseInt64(c.arg(2), &count) || count < 0) return c.Error(errors::kNotPositive);
  }
  const auto& entries = g.log.entries();
  const size_t n = std::min(entries.size(), static_cast<size_t>(count));
  const int64_t now = Api().time_us(sdk::Host::self) / 1000;
  c.Array(static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const LogEntry& e = entries[i];
    c.Map(7);
    c.Bulk("count");
    c.Integer(static_cast<int64_t>(e.count));
    c.Bulk("reason");
    c.Bulk(e.reason);
    c.Bulk("context");
    c.Bulk(e.context);
    c.Bulk("object");
    c.Bulk(e.object);
    c.Bulk("username");
    c.Bulk(e.username);
    c.Bulk("age-seconds");
    c.Double(static_cast<double>(now - e.updated_ms) / 1000.0);
    c.Bulk("client-info");
    c.Bulk(e.client_info);
  }
}

void DryRun(const Call& c) {
  State& g = G();
  User* u = g.users.Find(c.arg(2));
  if (!u) return c.Error("ERR User '" + std::string(c.arg(2)) + "' not found");
  RefreshTable();
  const int32_t argc = c.argc() - 3;
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  CallView v;
  for (int i = 3; i < c.argc(); ++i) {
    v.argv.push_back(c.arg(i));
    argv.push_back(v.argv.back().data());
    lens.push_back(v.argv.back().size());
  }
  const std::string cmd(c.arg(3));
  if (Api().command_find(sdk::Host::self, cmd.data(), cmd.size()) < 0 || cmd.find('|') != cmd.npos)
    return c.Error("ERR Command '" + cmd + "' not found");
  v.refs.resize(static_cast<size_t>(argc));
  const int32_t n = Api().command_keys(sdk::Host::self, argc, argv.data(), lens.data(),
                                       v.refs.data(), &v.command);
  if (n < 0)
    return c.Error(std::string(errors::kWrongArgumentsPrefix) + text::ToLower(cmd) + "' command");
  v.refs.resize(static_cast<size_t>(n));
  Denial worst = kAllowed;
  int32_t arg = -1, a = -1;
  worst = Check(u->root, g.table, v, &arg);
  for (size_t i = 0; worst != kAllowed && i < u->selectors.size(); ++i) {
    const Denial d = Check(u->selectors[i], g.table, v, &a);
    if (d == kAllowed || d > worst) worst = d, arg = a;
  }
  if (worst == kAllowed) return c.Ok();
  if (worst == kDeniedCommand)
    return c.Bulk("This user has no permissions to run the '" + g.table.at(v.command).name +
                  "' command");
  c.Bulk("This user has no permissions to access the '" +
         std::string(v.argv[static_cast<size_t>(arg)]) + "' " +
         (worst == kDeniedKey ? "key" : "channel"));
}

void Load(const Call& c) {
  if (G().aclfile.empty()) return c.Error(kNoAclFile);
  std::string err;
  if (!LoadAclFile(&err)) return c.Error("ERR " + err);
  c.Ok();
}

void Save(const Call& c) {
  State& g = G();
  if (g.aclfile.empty()) return c.Error(kNoAclFile);
  std::string err;
  const size_t slash = g.aclfile.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : g.aclfile.substr(0, slash);
  const std::string name = g.aclfile.substr(slash == std::string::npos ? 0 : slash + 1);
  if (!common::ReplaceFileAtomically(dir, name, name + ".tmp", AclFileText(g.users), &err))
    return c.Error(
        "ERR There was an error trying to save the ACLs. Please check the server "
        "logs for more information");
  c.Ok();
}

constexpr common::SubcommandDef kSubcommands[] = {
    {"setuser", -3}, {"getuser", 3}, {"deluser", -3}, {"users", 2}, {"list", 2},
    {"whoami", 2},   {"cat", -2},    {"genpass", -2}, {"log", -2},  {"load", 2},
    {"save", 2},     {"dryrun", -4}, {"help", 2}};

const char* const kHelp[] = {
    "ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CAT [<category>]",
    "    List all commands that belong to <category>, or all command categories",
    "    when no category is specified.",
    "DELUSER <username> [<username> ...]",
    "    Delete a list of users.",
    "DRYRUN <username> <command> [<arg> ...]",
    "    Returns whether the user can execute the given command without executing the command.",
    "GETUSER <username>",
    "    Get the user's details.",
    "GENPASS [<bits>]",
    "    Generate a secure 256-bit user password. The optional `bits` argument can",
    "    be used to specify a different size.",
    "LIST",
    "    Show users details in config file format.",
    "LOAD",
    "    Reload users from the ACL file.",
    "LOG [<count> | RESET]",
    "    Show the ACL log entries.",
    "SAVE",
    "    Save the current config to the ACL file.",
    "SETUSER <username> <attribute> [<attribute> ...]",
    "    Create or modify a user with the specified attributes.",
    "USERS",
    "    List all the registered usernames.",
    "WHOAMI",
    "    Return the current connection username.",
    "HELP",
    "    Print this help."};

}  // namespace

void AclCommand(Call& c) {
  std::string error;
  const int sub = common::FindSubcommand("acl", kSubcommands, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  const std::string_view name = kSubcommands[sub].name;
  if (name == "setuser") return SetUser(c);
  if (name == "getuser") return GetUser(c);
  if (name == "deluser") return DelUser(c);
  if (name == "users") return UserNames(c, false);
  if (name == "list") return UserNames(c, true);
  if (name == "cat")
    return c.argc() > 3 ? c.Error(common::SubcommandSyntaxError("acl", c.arg(1))) : Cat(c);
  if (name == "genpass")
    return c.argc() > 3 ? c.Error(common::SubcommandSyntaxError("acl", c.arg(1))) : GenPass(c);
  if (name == "log")
    return c.argc() > 3 ? c.Error(common::SubcommandSyntaxError("acl", c.arg(1))) : LogCommand(c);
  if (name == "load") return Load(c);
  if (name == "save") return Save(c);
  if (name == "dryrun") return DryRun(c);
  if (name == "help") {
    c.Array(static_cast<int64_t>(std::size(kHelp)));
    for (const char* line : kHelp) c.Simple(line);
    return;
  }
  const char* user = nullptr;
  Api().client_user(c.raw(), &user);
  c.Bulk(user ? user : "default");  // whoami
}

}  // namespace plinth::acl
