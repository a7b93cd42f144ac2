// Who may run what: authentication (requirepass, or the ACL provider's default user), the ACL
// provider a plugin registered (api/acl.cc) and its checks, and the enable-debug-command and
// enable-protected-configs policies (host_options.cc). The rules of users are the provider's;
// the host only asks it, and only for clients whose user it said is restricted. Main thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>

#include "host/core/session.h"

namespace plinth::host {

class Core;
struct Command;

class Auth {
 public:
  // The ACL provider (acl_provider_register) and its default user (acl_default_user).
  struct Provider {
    plinth_acl_provider_t spec{};
    std::string owner;  // "": none registered
    uint64_t default_user = 0;
    bool default_restricted = false;
    bool default_needs_auth = false;
  };
  Provider acl;
  bool has_password = false;  // requirepass is set

  // Whether a client must authenticate before other commands: the provider's default user
  // says, or without a provider, requirepass.
  bool DefaultNeedsAuth() const {
    return acl.owner.empty() ? has_password : acl.default_needs_auth;
  }
  // Whether s may run commands without AUTH.
  bool Authenticated(const Session& s) const { return s.authenticated || !DefaultNeedsAuth(); }
  // Whether s's commands go through the provider's check.
  bool Restricted(const Session& s) const {
    return !acl.owner.empty() && (s.user_id ? s.acl_restricted : acl.default_restricted);
  }
  // The provider's check of s's call argv of cmd in core, run being what runs it (cmd or the
  // subcommand argv[1] names); "" when it may run, else the error reply.
  std::string Check(Core* core, Session& s, Command* cmd, const Command* run, int32_t argc,
                    const char* const* argv, const size_t* argvlen) const;

  // enable-debug-command and enable-protected-configs (Redis's values: no, yes, local).
  enum class Policy { kNo, kYes, kLocal };
  Policy enable_debug = Policy::kNo;
  Policy enable_protected_configs = Policy::kNo;
  // enable-debug-command: whether s may run a PLINTH_CMD_PROTECTED command.
  bool DebugAllowed(const Session& s) const { return Allows(enable_debug, s); }
  // enable-protected-configs: whether s may CONFIG SET a PLINTH_OPT_PROTECTED option.
  bool ConfigAllowed(const Session& s) const { return Allows(enable_protected_configs, s); }

 private:
  static bool Allows(Policy p, const Session& s) {
    return p == Policy::kYes || (p == Policy::kLocal && s.local);
  }
};

}  // namespace plinth::host
