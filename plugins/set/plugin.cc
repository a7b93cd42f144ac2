// The set plugin's descriptor: registers the set-max-intset-entries option, the "set" value
// type and Redis 7.0's set commands. The only file that touches the descriptor; the commands
// live in basic_commands.cc, random_commands.cc, algebra_commands.cc and scan_commands.cc.
#include <plinth/keys.hpp>
#include <plinth/plugin.hpp>

#include "set/commands.h"
#include "set/set_value.h"
#include "set/type.h"

namespace plinth::set {
namespace {

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kDenyOom = PLINTH_CMD_DENYOOM;

const sdk::CommandDef kCommands[] = {
    {"sadd", -3, kW | kDenyOom | kF, 1, 1, 1, SAdd, "set", "key member [member ...]",
     "Add one or more members to a set", "1.0.0", PLINTH_ACL_SET, PLINTH_KEY_WRITE},
    {"srem", -3, kW | kF, 1, 1, 1, SRem, "set", "key member [member ...]",
     "Remove one or more members from a set", "1.0.0", PLINTH_ACL_SET, PLINTH_KEY_WRITE},
    {"smembers", 2, kR, 1, 1, 1, SMembers, "set", "key", "Get all the members in a set", "1.0.0",
     PLINTH_ACL_SET},
    {"sismember", 3, kR | kF, 1, 1, 1, SIsMember, "set", "key member",
     "Determine if a given value is a member of a set", "1.0.0", PLINTH_ACL_SET, 0,
     &sdk::OneKey<1, 0>},
    {"smismember", -3, kR | kF, 1, 1, 1, SMIsMember, "set", "key member [member ...]",
     "Returns the membership associated with the given elements for a set", "6.2.0",
     PLINTH_ACL_SET},
    {"scard", 2, kR | kF, 1, 1, 1, SCard, "set", "key", "Get the number of members in a set",
     "1.0.0", PLINTH_ACL_SET, 0, &sdk::OneKey<1, 0>},
    {"spop", -2, kW | kF, 1, 1, 1, SPop, "set", "key [count]",
     "Remove and return one or multiple random members from a set", "1.0.0", PLINTH_ACL_SET},
    {"srandmember", -2, kR, 1, 1, 1, SRandMember, "set", "key [count]",
     "Get one or multiple random members from a set", "1.0.0", PLINTH_ACL_SET},
    {"smove", 4, kW | kF, 1, 2, 1, SMove, "set", "source destination member",
     "Move a member from one set to another", "1.0.0", PLINTH_ACL_SET, 0,
     &sdk::TwoKeys<PLINTH_KEY_READ | PLINTH_KEY_WRITE, PLINTH_KEY_WRITE>},
    {"sinter", -2, kR, 1, -1, 1, SInter, "set", "key [key ...]", "Intersect multiple sets", "1.0.0",
     PLINTH_ACL_SET},
    {"sintercard", -3, kR, 0, 0, 0, SInterCard, "set", "numkeys key [key ...] [LIMIT limit]",
     "Intersect multiple sets and return the cardinality of the result", "7.0.0", PLINTH_ACL_SET, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ>},
    {"sunion", -2, kR, 1, -1, 1, SUnion, "set", "key [key ...]", "Add multiple sets", "1.0.0",
     PLINTH_ACL_SET},
    {"sdiff", -2, kR, 1, -1, 1, SDiff, "set", "key [key ...]", "Subtract multiple sets", "1.0.0",
     PLINTH_ACL_SET},
    {"sinterstore", -3, kW | kDenyOom, 1, -1, 1, SInterStore, "set", "destination key [key ...]",
     "Intersect multiple sets and store the resulting set in a key", "1.0.0", PLINTH_ACL_SET, 0,
     &sdk::FirstAndRest<1, PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"sunionstore", -3, kW | kDenyOom, 1, -1, 1, SUnionStore, "set", "destination key [key ...]",
     "Add multiple sets and store the resulting set in a key", "1.0.0", PLINTH_ACL_SET, 0,
     &sdk::FirstAndRest<1, PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"sdiffstore", -3, kW | kDenyOom, 1, -1, 1, SDiffStore, "set", "destination key [key ...]",
     "Subtract multiple sets and store the resulting set in a key", "1.0.0", PLINTH_ACL_SET, 0,
     &sdk::FirstAndRest<1, PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"sscan", -3, kR, 1, 1, 1, SScan, "set", "key cursor [MATCH pattern] [COUNT count]",
     "Incrementally iterate Set elements", "2.8.0", PLINTH_ACL_SET},
};

const plinth_option_t* max_intset_option = nullptr;

int32_t ApplyMaxIntset(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  SetMaxIntsetEntries(number);
  return PLINTH_OK;
}

bool RegisterOption() {
  max_intset_option = sdk::RegisterOption(
      "set-max-intset-entries", PLINTH_OPT_INT, PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE, "512",
      0, INT64_MAX, "Most members a set of integers keeps in the compact intset encoding",
      &ApplyMaxIntset);
  return max_intset_option != nullptr;
}

bool Init() {
  if (!RegisterOption()) return false;
  SetMaxIntsetEntries(sdk::OptionInt(max_intset_option, 512));
  return RegisterSetType() && sdk::RegisterCommands(kCommands);
}

}  // namespace
}  // namespace plinth::set

PLINTH_PLUGIN("set", "0.1.0", "Redis set commands (SADD, SREM, SINTER, SSCAN, ...)",
              &plinth::set::Init, nullptr)
