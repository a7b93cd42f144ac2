// The host's ACL provider: authentication, the check of every call of a restricted user, and
// the users' names; plus keeping the host told which users are restricted.
#include <cstring>
#include <plinth/text.hpp>

#include "acl/acl.h"
#include "acl/acl_file.h"
#include "common/fs_util.h"

namespace plinth::acl {
namespace {

using sdk::Api;

const char* ContextName(uint32_t context) {
  return context == PLINTH_ACL_CONTEXT_SCRIPT  ? "lua"
         : context == PLINTH_ACL_CONTEXT_MULTI ? "multi"
                                               : "toplevel";
}

std::string ClientInfo(plinth_call_t* call) {
  std::string out;
  if (!call) return out;
  Api().client_describe(
      call, Api().client_id(call),
      [](void* arg, const char* data, size_t len) {
        static_cast<std::string*>(arg)->append(data, len);
      },
      &out);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// An entry's object and user name are the client's bytes: kept to 1 KiB each, so a full log
// stays small whatever keys or names clients send.
constexpr size_t kLogTextMax = 1024;

void Log(plinth_call_t* call, const char* reason, uint32_t context, std::string object,
         std::string username) {
  LogEntry e;
  e.reason = reason;
  e.context = ContextName(context);
  e.object = std::move(object);
  e.username = std::move(username);
  if (e.object.size() > kLogTextMax) e.object.resize(kLogTextMax);
  if (e.username.size() > kLogTextMax) e.username.resize(kLogTextMax);
  e.client_info = ClientInfo(call);
  G().log.Add(std::move(e), Api().time_us(sdk::Host::self) / 1000);
}

int32_t Authenticate(void*, plinth_call_t* call, const char* user, size_t ulen, const char* pass,
                     size_t plen, uint64_t* user_id, int32_t* restricted) {
  const std::string_view name = user ? std::string_view(user, ulen) : "default";
  const User* u = G().users.Find(name);
  if (!user && u && u->nopass) return PLINTH_AUTH_NOPASS;
  // The password is hashed and compared whether or not the user exists, so the time taken says
  // nothing about which names are users.
  static const User kNobody;
  const bool matches = PasswordMatches(u ? *u : kNobody, std::string_view(pass, plen));
  if (!u || !u->enabled || !(u->nopass || matches)) {
    size_t len = 0;  // the object is the command as the client spelled it (AUTH, hello)
    const char* cmd = call ? Api().call_arg(call, 0, &len) : nullptr;
    Log(call, "auth", PLINTH_ACL_CONTEXT_TOPLEVEL, cmd ? std::string(cmd, len) : "auth",
        std::string(name));
    return PLINTH_ERR;
  }
  *user_id = u->id;
  *restricted = Unrestricted(*u) ? 0 : 1;
  return PLINTH_OK;
}

int32_t CheckCall(void*, plinth_call_t* call, uint64_t user_id, int32_t command_id,
                  uint32_t context, char* err, size_t errcap) {
  State& g = G();
  User* u = g.users.FindId(user_id);
  RefreshTable();
  CallView v;
  v.command = command_id;
  const int32_t argc = Api().call_argc(call);
  std::vector<const char*> argv(static_cast<size_t>(argc));
  std::vector<size_t> lens(static_cast<size_t>(argc));
  for (int32_t i = 0; i < argc; ++i) {
    argv[static_cast<size_t>(i)] = Api().call_arg(call, i, &lens[static_cast<size_t>(i)]);
    v.argv.emplace_back(argv[static_cast<size_t>(i)], lens[static_cast<size_t>(i)]);
  }
  v.refs.resize(static_cast<size_t>(argc));
  int32_t id = -1;
  const int32_t n =
      Api().command_keys(sdk::Host::self, argc, argv.data(), lens.data(), v.refs.data(), &id);
  v.refs.resize(n > 0 ? static_cast<size_t>(n) : 0);
  Denial worst = kDeniedCommand;
  int32_t arg = -1;
  if (u) {
    worst = kAllowed;
    int32_t a = -1;
    Denial d = Check(u->root, g.table, v, &a);
    if (d == kAllowed) return PLINTH_OK;
    worst = d, arg = a;
    for (Selector& s : u->selectors) {
      d = Check(s, g.table, v, &a);
      if (d == kAllowed) return PLINTH_OK;
      if (d > worst) worst = d, arg = a;
    }
  }
  const std::string& name = command_id >= 0 && static_cast<size_t>(command_id) < g.table.size()
                                ? g.table.at(command_id).name
                                : std::string();
  const bool script = context == PLINTH_ACL_CONTEXT_SCRIPT;
  std::string msg, object = name, reason = "command";
  if (worst == kDeniedCommand) {
    msg = script ? "ERR The user executing the script can't run this command or subcommand"
                 : "NOPERM this user has no permissions to run the '" + name + "' command";
  } else {
    const bool key = worst == kDeniedKey;
    reason = key ? "key" : "channel";
    object = arg >= 0 ? std::string(v.argv[static_cast<size_t>(arg)]) : std::string();
    msg = script ? (key ? "ERR The user executing the script can't access at least one of the keys "
                          "mentioned in the command arguments"
                        : "ERR The user executing the script can't publish to the channel "
                          "mentioned in the command")
                 : std::string("NOPERM this user has no permissions to access one of the ") +
                       (key ? "keys" : "channels") + " used as arguments";
  }
  Log(call, reason.c_str(), context, object, u ? u->name : std::string());
  std::snprintf(err, errcap, "%s", msg.c_str());
  return PLINTH_ERR;
}

int32_t CheckKey(void*, uint64_t user_id, const char* key, size_t len, uint32_t flags) {
  const User* u = G().users.FindId(user_id);
  if (!u) return PLINTH_ERR;
  const std::string_view k(key, len);
  if (AllowsKey(u->root, k, flags)) return PLINTH_OK;
  for (const Selector& s : u->selectors)
    if (AllowsKey(s, k, flags)) return PLINTH_OK;
  return PLINTH_ERR;
}

const char* UserName(void*, uint64_t user_id) {
  const User* u = G().users.FindId(user_id);
  return u ? u->name.c_str() : nullptr;
}

int32_t UserExists(void*, const char* name, size_t len) {
  return G().users.Find(std::string_view(name, len)) ? 1 : 0;
}

void RequirePass(void*, const char* pass, size_t len) {
  State& g = G();
  User& d = g.users.default_user();
  d.passwords.clear();
  d.nopass = len == 0;
  if (len) d.passwords.push_back(PasswordHash(std::string_view(pass, len)));
  g.requirepass.assign(pass, len);
  SyncHost();
}

}  // namespace

void SyncHost(const std::vector<uint64_t>& removed) {
  State& g = G();
  User& d = g.users.default_user();
  const int32_t needs_auth = !(d.enabled && d.nopass);
  for (uint64_t id : removed) Api().acl_user_update(sdk::Host::self, id, 1, 1, needs_auth);
  for (const auto& [name, u] : g.users.all())
    Api().acl_user_update(sdk::Host::self, u->id, Unrestricted(*u) ? 0 : 1, 0, needs_auth);
}

bool RegisterProvider() {
  plinth_acl_provider_t p{};
  p.struct_size = sizeof p;
  p.authenticate = Authenticate;
  p.check = CheckCall;
  p.check_key = CheckKey;
  p.user_name = UserName;
  p.requirepass = RequirePass;
  p.user_exists = UserExists;
  if (Api().acl_provider_register(sdk::Host::self, &p) != PLINTH_OK) return false;
  User& d = G().users.default_user();
  Api().acl_default_user(sdk::Host::self, d.id, Unrestricted(d) ? 0 : 1, !(d.enabled && d.nopass));
  return true;
}

bool LoadAclFile(std::string* err) {
  State& g = G();
  std::string text;
  bool missing = false;
  if (!common::ReadSmallFile(g.aclfile, &text, &missing, err)) return false;
  RefreshTable();
  std::vector<User> loaded;
  if (!ParseAclFile(text, g.aclfile, g.table, g.all_channels, &loaded, err)) return false;
  std::vector<uint64_t> removed;
  std::vector<std::string> gone;
  for (const auto& [name, u] : g.users.all()) {
    bool kept = false;
    for (const User& n : loaded) kept = kept || n.name == name;
    if (!kept && name != "default") gone.push_back(name), removed.push_back(u->id);
  }
  for (const std::string& name : gone) g.users.Erase(name);
  bool has_default = false;
  for (User& u : loaded) {
    has_default = has_default || u.name == "default";
    g.users.Put(std::move(u));
  }
  if (!has_default) {
    Users fresh;
    g.users.Put(std::move(*fresh.Find("default")));
  }
  SyncHost(removed);
  return true;
}

}  // namespace plinth::acl
