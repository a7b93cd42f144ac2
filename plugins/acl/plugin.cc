// The acl plugin: users and their permissions (ACL), as the host's ACL provider. AUTH and
// HELLO (connection plugin) authenticate through it; the host asks it about every call of a
// client whose user is restricted, and about none otherwise. Options: aclfile (loaded at
// start: a bad line refuses the start), acllog-max-len, acl-pubsub-default.
#include "acl/acl.h"
#include "common/options.h"

namespace plinth::acl {

using sdk::Api;

State& G() {
  static State s;
  return s;
}

namespace {

int32_t ApplyOption(void*, const char* name, const char*, size_t, int64_t number, char*, size_t) {
  const std::string_view n(name);
  if (n == "acllog-max-len") G().log.SetMaxLen(static_cast<size_t>(number));
  if (n == "acl-pubsub-default") G().all_channels = number == 0;
  return PLINTH_OK;
}

constexpr uint32_t kAdmin =
    PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE;
constexpr uint32_t kPlain = PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE;

// The container, and its subcommands' flags for access control (Redis 7.0's categories).
const sdk::CommandDef kCommands[] = {
    {"acl", -2, kPlain, 0, 0, 0, AclCommand, "server",
     "<CAT [category]|DELUSER username [username ...]|DRYRUN username command [arg ...]|GENPASS "
     "[bits]|GETUSER username|LIST|LOAD|LOG [count|RESET]|SAVE|SETUSER username [rule ...]|USERS|"
     "WHOAMI|HELP>",
     "A container for Access List Control commands", "6.0.0"},
    {"acl|cat", -2, kPlain, 0, 0, 0, nullptr, "server", "[category]",
     "List the ACL categories or the commands inside a category", "6.0.0"},
    {"acl|deluser", -3, kAdmin, 0, 0, 0, nullptr, "server", "username [username ...]",
     "Remove the specified ACL users and the associated rules", "6.0.0"},
    {"acl|dryrun", -4, kAdmin, 0, 0, 0, nullptr, "server", "username command [arg ...]",
     "Returns whether the user can execute the given command without executing the command.",
     "7.0.0"},
    {"acl|genpass", -2, kPlain, 0, 0, 0, nullptr, "server", "[bits]",
     "Generate a pseudorandom secure password to use for ACL users", "6.0.0"},
    {"acl|getuser", 3, kAdmin, 0, 0, 0, nullptr, "server", "username",
     "Get the rules for a specific ACL user", "6.0.0"},
    {"acl|help", 2, kPlain, 0, 0, 0, nullptr, "server", nullptr,
     "Show helpful text about the different subcommands", "6.0.0"},
    {"acl|list", 2, kAdmin, 0, 0, 0, nullptr, "server", nullptr,
     "List the current ACL rules in ACL config file format", "6.0.0"},
    {"acl|load", 2, kAdmin, 0, 0, 0, nullptr, "server", nullptr,
     "Reload the ACLs from the configured ACL file", "6.0.0"},
    {"acl|log", -2, kAdmin, 0, 0, 0, nullptr, "server", "[count|RESET]",
     "List latest events denied because of ACLs in place", "6.0.0"},
    {"acl|save", 2, kAdmin, 0, 0, 0, nullptr, "server", nullptr,
     "Save the current ACL rules in the configured ACL file", "6.0.0"},
    {"acl|setuser", -3, kAdmin, 0, 0, 0, nullptr, "server", "username [rule [rule ...]]",
     "Modify or create the rules for a specific ACL user", "6.0.0"},
    {"acl|users", 2, kAdmin, 0, 0, 0, nullptr, "server", nullptr,
     "List the username of all the configured ACL rules", "6.0.0"},
    {"acl|whoami", 2, kPlain, 0, 0, 0, nullptr, "server", nullptr,
     "Return the name of the user associated to the current connection", "6.0.0"},
};

const plinth_option_t* RegisterPubsubDefault() {
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = "acl-pubsub-default";
  o.type = PLINTH_OPT_ENUM;
  o.flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
  o.default_value = "resetchannels";
  o.enum_values = "allchannels|resetchannels";
  o.description = "Channels a new user may use: allchannels or resetchannels";
  o.apply = ApplyOption;
  return Api().option_register(sdk::Host::self, &o);
}

bool Init() {
  State& g = G();
  g = State{};  // a fresh start for each load (the fake host loads the plugin again)
  const plinth_option_t *aclfile = nullptr, *log_len = nullptr, *pubsub = nullptr;
  if (!common::RegisterGlobalOption(&aclfile, "aclfile", PLINTH_OPT_STRING, PLINTH_OPT_PROTECTED,
                                    "", 0, 0,
                                    "File of users ACL LOAD reads and ACL SAVE writes; read "
                                    "at start, where a bad line refuses to start",
                                    nullptr) ||
      !common::RegisterGlobalOption(&log_len, "acllog-max-len", PLINTH_OPT_INT, PLINTH_OPT_MUTABLE,
                                    "128", 0, INT32_MAX, "Entries ACL LOG keeps", ApplyOption) ||
      !(pubsub = RegisterPubsubDefault()))
    return false;
  g.aclfile = sdk::OptionString(aclfile);
  g.log.SetMaxLen(static_cast<size_t>(sdk::OptionInt(log_len, 128)));
  g.all_channels = sdk::OptionInt(pubsub, 1) == 0;
  if (!sdk::RegisterCommands(kCommands) || !RegisterProvider()) return false;
  const std::string pass = sdk::OptionString(sdk::FindOption("requirepass"));
  if (!pass.empty()) {
    User& d = g.users.default_user();
    d.nopass = false;
    d.passwords = {PasswordHash(pass)};
  }
  if (!g.aclfile.empty()) {
    std::string err;
    if (!LoadAclFile(&err)) {
      sdk::Log(PLINTH_LOG_WARNING, "%s", err.c_str());
      return false;
    }
  }
  SyncHost();
  return true;
}

}  // namespace
}  // namespace plinth::acl

PLINTH_PLUGIN("acl", "0.1.0", "ACL users and permissions", plinth::acl::Init, nullptr)
