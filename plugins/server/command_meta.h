// What COMMAND INFO / COMMAND LIST report about a registered command beyond its spec: Redis's
// flag names and the ACL categories Redis would derive. Pure logic, no ABI types beyond the
// PLINTH_CMD_* flag values; main thread.
#ifndef PLINTH_SERVER_COMMAND_META_H
#define PLINTH_SERVER_COMMAND_META_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::server {

// Redis's names for the PLINTH_CMD_* bits in flags ("write", "readonly", "denyoom", "admin",
// "pubsub", "noscript", "loading", "stale", "fast", "no_auth"), in Redis's reply order.
std::vector<std::string_view> FlagNames(uint32_t flags);

// ACL categories ("@keyspace", "@read", ...) in Redis's order: from the flags (write, read,
// admin and dangerous, pubsub, fast or slow), from the group ("generic" is @keyspace, "string"
// @string, ...) and the few categories Redis adds by name (KEYS and FLUSHALL are @dangerous).
std::vector<std::string_view> AclCategories(std::string_view name, uint32_t flags,
                                            std::string_view group);

// True when the command is in ACL category cat (with or without '@', any case).
bool InAclCategory(std::string_view name, uint32_t flags, std::string_view group,
                   std::string_view cat);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_COMMAND_META_H
