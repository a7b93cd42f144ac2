// The hash command table: arity, flags, key positions and docs as Redis 7.0's COMMAND INFO and
// COMMAND DOCS give them.
#include <plinth/keys.hpp>

#include "hash/commands.h"

namespace plinth::hash {

bool RegisterHashCommands() {
  using sdk::CommandDef;
  constexpr uint32_t kW = PLINTH_CMD_WRITE, kR = PLINTH_CMD_READONLY, kF = PLINTH_CMD_FAST,
                     kM = PLINTH_CMD_DENYOOM;
  const char* g = "hash";
  const CommandDef defs[] = {
      {"hset", -4, kW | kM | kF, 1, 1, 1, HSetCommand, g, "key field value [field value ...]",
       "Set the string value of a hash field", "2.0.0", PLINTH_ACL_HASH, PLINTH_KEY_WRITE},
      {"hsetnx", 4, kW | kM | kF, 1, 1, 1, HSetNxCommand, g, "key field value",
       "Set the value of a hash field, only if the field does not exist", "2.0.0", PLINTH_ACL_HASH,
       PLINTH_KEY_WRITE},
      {"hmset", -4, kW | kM | kF, 1, 1, 1, HMSetCommand, g, "key field value [field value ...]",
       "Set multiple hash fields to multiple values", "2.0.0", PLINTH_ACL_HASH, PLINTH_KEY_WRITE},
      {"hget", 3, kR | kF, 1, 1, 1, HGetCommand, g, "key field", "Get the value of a hash field",
       "2.0.0", PLINTH_ACL_HASH},
      {"hmget", -3, kR | kF, 1, 1, 1, HMGetCommand, g, "key field [field ...]",
       "Get the values of all the given hash fields", "2.0.0", PLINTH_ACL_HASH},
      {"hdel", -3, kW | kF, 1, 1, 1, HDelCommand, g, "key field [field ...]",
       "Delete one or more hash fields", "2.0.0", PLINTH_ACL_HASH, PLINTH_KEY_WRITE},
      {"hexists", 3, kR | kF, 1, 1, 1, HExistsCommand, g, "key field",
       "Determine if a hash field exists", "2.0.0", PLINTH_ACL_HASH, 0, &sdk::OneKey<1, 0>},
      {"hlen", 2, kR | kF, 1, 1, 1, HLenCommand, g, "key", "Get the number of fields in a hash",
       "2.0.0", PLINTH_ACL_HASH, 0, &sdk::OneKey<1, 0>},
      {"hstrlen", 3, kR | kF, 1, 1, 1, HStrLenCommand, g, "key field",
       "Get the length of the value of a hash field", "3.2.0", PLINTH_ACL_HASH, 0,
       &sdk::OneKey<1, 0>},
      {"hkeys", 2, kR, 1, 1, 1, HKeysCommand, g, "key", "Get all the fields in a hash", "2.0.0",
       PLINTH_ACL_HASH},
      {"hvals", 2, kR, 1, 1, 1, HValsCommand, g, "key", "Get all the values in a hash", "2.0.0",
       PLINTH_ACL_HASH},
      {"hgetall", 2, kR, 1, 1, 1, HGetAllCommand, g, "key",
       "Get all the fields and values in a hash", "2.0.0", PLINTH_ACL_HASH},
      {"hincrby", 4, kW | kM | kF, 1, 1, 1, HIncrByCommand, g, "key field increment",
       "Increment the integer value of a hash field by the given number", "2.0.0", PLINTH_ACL_HASH},
      {"hincrbyfloat", 4, kW | kM | kF, 1, 1, 1, HIncrByFloatCommand, g, "key field increment",
       "Increment the float value of a hash field by the given amount", "2.6.0", PLINTH_ACL_HASH},
      {"hrandfield", -2, kR, 1, 1, 1, HRandFieldCommand, g, "key [count [WITHVALUES]]",
       "Get one or multiple random fields from a hash", "6.2.0", PLINTH_ACL_HASH},
      {"hscan", -3, kR, 1, 1, 1, HScanCommand, g, "key cursor [MATCH pattern] [COUNT count]",
       "Incrementally iterate hash fields and associated values", "2.8.0", PLINTH_ACL_HASH},
  };
  return sdk::RegisterCommands(defs);
}

}  // namespace plinth::hash
