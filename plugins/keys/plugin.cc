// The keys plugin: Redis's generic keyspace commands (DEL, EXPIRE, SCAN, RENAME, ...) on the
// host's keyspace. This file only declares the command table and the plugin descriptor.
#include "common/acl_keys.h"
#include "keys/handlers.h"

namespace plinth::keys {
namespace {

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kDenyOom = PLINTH_CMD_DENYOOM;
// Looks at keys without refreshing their access stamps (Redis's LOOKUP_NOTOUCH ones).
constexpr uint32_t kNoTouch = PLINTH_CMD_NO_TOUCH;

const sdk::CommandDef kCommands[] = {
    {"del", -2, kW, 1, -1, 1, Del, "generic", "key [key ...]", "Delete a key", "1.0.0",
     PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"unlink", -2, kW | kF, 1, -1, 1, Unlink, "generic", "key [key ...]",
     "Delete a key asynchronously in another thread. Otherwise it is just as DEL, but non "
     "blocking.",
     "4.0.0", PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"exists", -2, kR | kF | kNoTouch, 1, -1, 1, Exists, "generic", "key [key ...]",
     "Determine if a key exists", "1.0.0", PLINTH_ACL_KEYSPACE, 0, &common::FirstAndRest<1, 0, 0>},
    {"type", 2, kR | kF | kNoTouch, 1, 1, 1, Type, "generic", "key",
     "Determine the type stored at key", "1.0.0", PLINTH_ACL_KEYSPACE, 0, &common::OneKey<1, 0>},
    {"touch", -2, kR | kF, 1, -1, 1, Touch, "generic", "key [key ...]",
     "Alters the last access time of a key(s). Returns the number of existing keys specified.",
     "3.2.1", PLINTH_ACL_KEYSPACE, 0, &common::FirstAndRest<1, 0, 0>},
    {"expire", -3, kW | kF, 1, 1, 1, Expire, "generic", "key seconds [NX|XX|GT|LT]",
     "Set a key's time to live in seconds", "1.0.0", PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"pexpire", -3, kW | kF, 1, 1, 1, PExpire, "generic", "key milliseconds [NX|XX|GT|LT]",
     "Set a key's time to live in milliseconds", "2.6.0", PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"expireat", -3, kW | kF, 1, 1, 1, ExpireAt, "generic", "key unix-time-seconds [NX|XX|GT|LT]",
     "Set the expiration for a key as a UNIX timestamp", "1.2.0", PLINTH_ACL_KEYSPACE,
     PLINTH_KEY_WRITE},
    {"pexpireat", -3, kW | kF, 1, 1, 1, PExpireAt, "generic",
     "key unix-time-milliseconds [NX|XX|GT|LT]",
     "Set the expiration for a key as a UNIX timestamp specified in milliseconds", "2.6.0",
     PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"expiretime", 2, kR | kF | kNoTouch, 1, 1, 1, ExpireTime, "generic", "key",
     "Get the expiration Unix timestamp for a key", "7.0.0", PLINTH_ACL_KEYSPACE},
    {"pexpiretime", 2, kR | kF | kNoTouch, 1, 1, 1, PExpireTime, "generic", "key",
     "Get the expiration Unix timestamp for a key in milliseconds", "7.0.0", PLINTH_ACL_KEYSPACE},
    {"ttl", 2, kR | kF | kNoTouch, 1, 1, 1, Ttl, "generic", "key",
     "Get the time to live for a key in seconds", "1.0.0", PLINTH_ACL_KEYSPACE},
    {"pttl", 2, kR | kF | kNoTouch, 1, 1, 1, PTtl, "generic", "key",
     "Get the time to live for a key in milliseconds", "2.6.0", PLINTH_ACL_KEYSPACE},
    {"persist", 2, kW | kF, 1, 1, 1, Persist, "generic", "key", "Remove the expiration from a key",
     "2.2.0", PLINTH_ACL_KEYSPACE, PLINTH_KEY_WRITE},
    {"rename", 3, kW, 1, 2, 1, Rename, "generic", "key newkey", "Rename a key", "1.0.0",
     PLINTH_ACL_KEYSPACE, 0,
     &common::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"renamenx", 3, kW | kF, 1, 2, 1, RenameNx, "generic", "key newkey",
     "Rename a key, only if the new key does not exist", "1.0.0", PLINTH_ACL_KEYSPACE, 0,
     &common::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"copy", -3, kW | kDenyOom, 1, 2, 1, Copy, "generic",
     "source destination [DB destination-db] [REPLACE]", "Copy a key", "6.2.0", PLINTH_ACL_KEYSPACE,
     0, &common::TwoKeys<PLINTH_KEY_READ, PLINTH_KEY_WRITE>},
    {"move", 3, kW | kF, 1, 1, 1, Move, "generic", "key db", "Move a key to another database",
     "1.0.0", PLINTH_ACL_KEYSPACE},
    {"swapdb", 3, kW | kF, 0, 0, 0, SwapDb, "server", "index1 index2", "Swaps two Redis databases",
     "4.0.0", PLINTH_ACL_KEYSPACE | PLINTH_ACL_DANGEROUS},
    {"keys", 2, kR, 0, 0, 0, Keys, "generic", "pattern", "Find all keys matching the given pattern",
     "1.0.0", PLINTH_ACL_KEYSPACE | PLINTH_ACL_DANGEROUS},
    {"scan", -2, kR, 0, 0, 0, Scan, "generic", "cursor [MATCH pattern] [COUNT count] [TYPE type]",
     "Incrementally iterate the keys space", "2.8.0", PLINTH_ACL_KEYSPACE},
    {"randomkey", 1, kR, 0, 0, 0, RandomKey, "generic", nullptr,
     "Return a random key from the keyspace", "1.0.0", PLINTH_ACL_KEYSPACE},
    {"dbsize", 1, kR | kF, 0, 0, 0, DbSize, "server", nullptr,
     "Return the number of keys in the selected database", "1.0.0", PLINTH_ACL_KEYSPACE},
    {"flushdb", -1, kW, 0, 0, 0, FlushDb, "server", "[ASYNC|SYNC]",
     "Remove all keys from the current database", "1.0.0",
     PLINTH_ACL_KEYSPACE | PLINTH_ACL_DANGEROUS},
    {"flushall", -1, kW, 0, 0, 0, FlushAll, "server", "[ASYNC|SYNC]",
     "Remove all keys from all databases", "1.0.0", PLINTH_ACL_KEYSPACE | PLINTH_ACL_DANGEROUS},
    {"object", -2, kR | kNoTouch, 0, 0, 0, Object, "generic",
     "<ENCODING key|FREQ key|IDLETIME key|REFCOUNT key|HELP>",
     "A container for object introspection commands", "2.2.3"},
    {"memory", -2, kR | kNoTouch, 0, 0, 0, Memory, "server",
     "<DOCTOR|MALLOC-STATS|PURGE|STATS|USAGE key [SAMPLES count]|HELP>",
     "A container for memory diagnostics commands", "4.0.0"},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"memory|doctor", 2, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"memory|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"memory|malloc-stats", 2, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"memory|purge", 2, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"memory|stats", 2, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"memory|usage", -3, PLINTH_CMD_READONLY, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     0, 0, &common::OneKey<2, 0>},
    {"object|encoding", 3, PLINTH_CMD_READONLY, 0, 0, 0, nullptr, nullptr, nullptr, nullptr,
     nullptr, PLINTH_ACL_KEYSPACE, 0, &common::OneKey<2, 0>},
    {"object|freq", 3, PLINTH_CMD_READONLY, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_KEYSPACE, 0, &common::OneKey<2, 0>},
    {"object|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_KEYSPACE},
    {"object|idletime", 3, PLINTH_CMD_READONLY, 0, 0, 0, nullptr, nullptr, nullptr, nullptr,
     nullptr, PLINTH_ACL_KEYSPACE, 0, &common::OneKey<2, 0>},
    {"object|refcount", 3, PLINTH_CMD_READONLY, 0, 0, 0, nullptr, nullptr, nullptr, nullptr,
     nullptr, PLINTH_ACL_KEYSPACE, 0, &common::OneKey<2, 0>},
};

bool Init() { return sdk::RegisterCommands(kCommands); }

}  // namespace
}  // namespace plinth::keys

PLINTH_PLUGIN("keys", "0.1.0", "Generic keyspace commands: DEL, EXPIRE, TTL, SCAN, RENAME, ...",
              plinth::keys::Init, nullptr)
