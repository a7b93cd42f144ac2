// The acl plugin's state and the parts its files share. Main thread.
#pragma once

#include <plinth/plugin.hpp>
#include <string>

#include "acl/acl_log.h"
#include "acl/command_table.h"
#include "acl/users.h"

namespace plinth::acl {

struct State {
  Users users;
  CommandTable table;
  AclLog log;
  std::string aclfile;        // "" when none is configured
  bool all_channels = false;  // acl-pubsub-default allchannels
  std::string requirepass;    // the last value the host told us
};
State& G();

// Tells the host how every user's clients are to be treated now (restricted or not, the
// default user's need to authenticate), closing the clients of users no longer there.
void SyncHost(const std::vector<uint64_t>& removed = {});
// Reloads the command table when plugins added commands.
inline void RefreshTable() { G().table.Refresh(); }
// Registers this plugin as the host's ACL provider.
bool RegisterProvider();
// Replaces every user with the ACL file's. Returns false with *err and changes nothing.
bool LoadAclFile(std::string* err);

// The ACL command (commands.cc).
void AclCommand(sdk::Call& c);

}  // namespace plinth::acl
