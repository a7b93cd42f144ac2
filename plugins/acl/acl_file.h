// The ACL file (aclfile): one "user <name> <rules ...>" line per user, as ACL SAVE writes and
// ACL LOAD and startup read it. Main thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "acl/command_table.h"
#include "acl/users.h"

namespace plinth::acl {

// Parses an ACL file's text into users. Returns false with *err "<path>:<line>: <reason>" at
// the first bad line; nothing is applied then.
bool ParseAclFile(std::string_view text, const std::string& path, const CommandTable& table,
                  bool all_channels, std::vector<User>* out, std::string* err);
// The file's text for users, sorted by name.
std::string AclFileText(const Users& users);
}  // namespace plinth::acl
