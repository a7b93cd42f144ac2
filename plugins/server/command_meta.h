// What COMMAND INFO / COMMAND LIST report about a registered command beyond its spec: Redis's
// flag names, category names and key spec flags. Pure logic, no ABI types beyond the PLINTH_*
// bit values; main thread.
#ifndef PLINTH_SERVER_COMMAND_META_H
#define PLINTH_SERVER_COMMAND_META_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::server {

// Redis's names for the PLINTH_CMD_* bits in flags ("write", "readonly", "denyoom", "admin",
// "pubsub", "noscript", "loading", "stale", "fast", "no_auth"), in Redis's reply order.
std::vector<std::string_view> FlagNames(uint32_t flags);

// "@keyspace", "@read", ... for the PLINTH_ACL_* bits in categories, in Redis's order.
std::vector<std::string> AclCategories(uint64_t categories);

// Redis 7 key spec flags equivalent to PLINTH_KEY_READ / PLINTH_KEY_WRITE access: "RW",
// "access", "update" for both, "RO", "access" for a read, "OW", "update" for a write, "RO"
// for neither (a key whose value is not looked at: EXISTS, TYPE).
std::vector<std::string_view> KeySpecFlags(uint32_t key_flags);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_COMMAND_META_H
