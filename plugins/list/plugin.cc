// The list plugin's descriptor: registers the "list" value type, its options and Redis's list
// commands with Redis 7.0's arity, flags, key positions and docs. The only file that touches the
// descriptor; the handlers live in the *_cmds.cc files (see commands.h).
#include <plinth/keys.hpp>
#include <plinth/plugin.hpp>

#include "list/commands.h"
#include "list/type.h"

namespace plinth::list {
namespace {

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kOom = PLINTH_CMD_DENYOOM;
constexpr uint32_t kBlock = PLINTH_CMD_BLOCKING;
constexpr uint32_t kNoScript = PLINTH_CMD_NOSCRIPT;

const sdk::CommandDef kCommands[] = {
    {"lpush", -3, kW | kOom | kF, 1, 1, 1, LPush, "list", "key element [element ...]",
     "Prepend one or multiple elements to a list", "1.0.0", PLINTH_ACL_LIST, PLINTH_KEY_WRITE},
    {"rpush", -3, kW | kOom | kF, 1, 1, 1, RPush, "list", "key element [element ...]",
     "Append one or multiple elements to a list", "1.0.0", PLINTH_ACL_LIST, PLINTH_KEY_WRITE},
    {"lpushx", -3, kW | kOom | kF, 1, 1, 1, LPushX, "list", "key element [element ...]",
     "Prepend an element to a list, only if the list exists", "2.2.0", PLINTH_ACL_LIST,
     PLINTH_KEY_WRITE},
    {"rpushx", -3, kW | kOom | kF, 1, 1, 1, RPushX, "list", "key element [element ...]",
     "Append an element to a list, only if the list exists", "2.2.0", PLINTH_ACL_LIST,
     PLINTH_KEY_WRITE},
    {"lpop", -2, kW | kF, 1, 1, 1, LPop, "list", "key [count]",
     "Remove and get the first elements in a list", "1.0.0", PLINTH_ACL_LIST},
    {"rpop", -2, kW | kF, 1, 1, 1, RPop, "list", "key [count]",
     "Remove and get the last elements in a list", "1.0.0", PLINTH_ACL_LIST},
    {"llen", 2, kR | kF, 1, 1, 1, LLen, "list", "key", "Get the length of a list", "1.0.0",
     PLINTH_ACL_LIST, 0, &sdk::OneKey<1, 0>},
    {"lrange", 4, kR, 1, 1, 1, LRange, "list", "key start stop",
     "Get a range of elements from a list", "1.0.0", PLINTH_ACL_LIST},
    {"lindex", 3, kR, 1, 1, 1, LIndex, "list", "key index",
     "Get an element from a list by its index", "1.0.0", PLINTH_ACL_LIST},
    {"lset", 4, kW | kOom, 1, 1, 1, LSet, "list", "key index element",
     "Set the value of an element in a list by its index", "1.0.0", PLINTH_ACL_LIST,
     PLINTH_KEY_WRITE},
    {"linsert", 5, kW | kOom, 1, 1, 1, LInsert, "list", "key BEFORE|AFTER pivot element",
     "Insert an element before or after another element in a list", "2.2.0", PLINTH_ACL_LIST,
     PLINTH_KEY_WRITE},
    {"lrem", 4, kW, 1, 1, 1, LRem, "list", "key count element", "Remove elements from a list",
     "1.0.0", PLINTH_ACL_LIST, PLINTH_KEY_WRITE},
    {"ltrim", 4, kW, 1, 1, 1, LTrim, "list", "key start stop", "Trim a list to the specified range",
     "1.0.0", PLINTH_ACL_LIST, PLINTH_KEY_WRITE},
    {"lpos", -3, kR, 1, 1, 1, LPos, "list",
     "key element [RANK rank] [COUNT num-matches] [MAXLEN len]",
     "Return the index of matching elements on a list", "6.0.6", PLINTH_ACL_LIST},
    {"lmove", 5, kW | kOom, 1, 2, 1, LMove, "list", "source destination LEFT|RIGHT LEFT|RIGHT",
     "Pop an element from a list, push it to another list and return it", "6.2.0", PLINTH_ACL_LIST,
     0, &sdk::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"rpoplpush", 3, kW | kOom, 1, 2, 1, RPopLPush, "list", "source destination",
     "Remove the last element in a list, prepend it to another list and return it", "1.2.0",
     PLINTH_ACL_LIST, 0, &sdk::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"lmpop", -4, kW, 0, 0, 0, LMPop, "list", "numkeys key [key ...] LEFT|RIGHT [COUNT count]",
     "Pop elements from a list", "7.0.0", PLINTH_ACL_LIST, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
    {"blpop", -3, kW | kNoScript | kBlock, 1, -2, 1, BLPop, "list", "key [key ...] timeout",
     "Remove and get the first element in a list, or block until one is available", "2.0.0",
     PLINTH_ACL_LIST},
    {"brpop", -3, kW | kNoScript | kBlock, 1, -2, 1, BRPop, "list", "key [key ...] timeout",
     "Remove and get the last element in a list, or block until one is available", "2.0.0",
     PLINTH_ACL_LIST},
    {"blmove", 6, kW | kOom | kNoScript | kBlock, 1, 2, 1, BLMove, "list",
     "source destination LEFT|RIGHT LEFT|RIGHT timeout",
     "Pop an element from a list, push it to another list and return it; or block until one is "
     "available",
     "6.2.0", PLINTH_ACL_LIST, 0,
     &sdk::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"brpoplpush", 4, kW | kOom | kNoScript | kBlock, 1, 2, 1, BRPopLPush, "list",
     "source destination timeout",
     "Pop an element from a list, push it to another list and return it; or block until one is "
     "available",
     "2.2.0", PLINTH_ACL_LIST, 0,
     &sdk::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"blmpop", -5, kW | kBlock, 0, 0, 0, BLMPop, "list",
     "timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]",
     "Pop elements from a list, or block until one is available", "7.0.0", PLINTH_ACL_LIST, 0,
     &sdk::KeysAfterNumkeys<2, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
};

bool Init() {
  return RegisterListType() && RegisterListOptions() && sdk::RegisterCommands(kCommands);
}

}  // namespace
}  // namespace plinth::list

PLINTH_PLUGIN("list", "0.1.0", "Redis list type and commands (LPUSH, LRANGE, BLPOP, ...)",
              plinth::list::Init, nullptr)
