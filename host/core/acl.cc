// Access control as the host sees it: Auth::Check asks the ACL provider a plugin registered
// (api/acl.cc) whether a client's user may run a command (auth.h).
#include <cstring>
#include <string>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

uint32_t ContextOf(const Session& s) {
  if (s.run_flags) return PLINTH_ACL_CONTEXT_SCRIPT;
  return (s.tx.active || s.tx.executing) ? PLINTH_ACL_CONTEXT_MULTI : PLINTH_ACL_CONTEXT_TOPLEVEL;
}

}  // namespace

std::string Auth::Check(Core* core, Session& s, Command* cmd, const Command* run, int32_t argc,
                        const char* const* argv, const size_t* argvlen) const {
  plinth_call call;
  call.core = core;
  call.session = &s;
  call.cmd = cmd;
  call.argc = argc;
  call.argv = argv;
  call.argvlen = argvlen;
  call.db = s.db;
  const uint64_t user = s.user_id ? s.user_id : acl.default_user;
  char err[512] = "";
  if (acl.spec.check(acl.spec.ctx, &call, user, run->id, ContextOf(s), err, sizeof err) ==
      PLINTH_OK)
    return std::string();
  return err[0] ? std::string(err)
                : "NOPERM this user has no permissions to run the '" + run->name + "' command";
}

}  // namespace plinth::host
