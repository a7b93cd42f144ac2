// The list command handlers and the key access they share. plugin.cc registers the handlers;
// they live in push_pop.cc (push and pop family), read_commands.cc (LLEN, LRANGE, LINDEX, LPOS),
// edit_commands.cc (LSET, LINSERT, LREM, LTRIM), move_commands.cc (LMOVE, RPOPLPUSH) and
// blocking_commands.cc (LMPOP and the blocking pops). Main thread only.
#ifndef PLINTH_LIST_COMMANDS_H
#define PLINTH_LIST_COMMANDS_H

#include <cstdint>
#include <plinth/plugin.hpp>
#include <string_view>

#include "list/quicklist.h"

namespace plinth::list {

using sdk::Call;

// -- key access (access.cc) --

// The list under key for reading, or nullptr when the key is absent or holds another type
// (then *wrong is set; nothing is replied). OWNERSHIP: borrowed until the key changes.
const QuickList* FindList(const Call& c, std::string_view key, bool* wrong);
// The list under key made writable (a shared value is copied first). The key must hold a list.
// Throws std::bad_alloc when the copy ran out of memory.
QuickList* MutableList(const Call& c, std::string_view key);
// The list under key made writable in one lookup, or nullptr when the key is absent or holds
// another type (then *wrong is set). Throws std::bad_alloc when a copy ran out of memory.
QuickList* FindMutableList(const Call& c, std::string_view key, bool* wrong);
// Stores a new empty list under key (the host signals blocked clients) and returns it; the
// caller fills it before returning. Throws std::bad_alloc.
QuickList* CreateList(const Call& c, std::string_view key);
// Raises a keyspace event of the list class on key.
void ListEvent(const Call& c, const char* event, std::string_view key);
// Deletes key and raises "del" when l (the list under key) is empty.
void DeleteIfEmpty(const Call& c, std::string_view key, const QuickList* l);
// Propagates command argv in place of the call's verbatim form.
void Propagate(const Call& c, const char* command, std::initializer_list<std::string_view> args);

// -- shared work (push_pop.cc, move_commands.cc) --

// How PopAndReply frames what it pops.
enum class PopReply {
  kBulk,        // one element as a bulk (LPOP key)
  kArray,       // an array of the elements (LPOP key count)
  kKeyAndBulk,  // [key, element] (BLPOP)
  kKeyAndArray  // [key, [elements]] (LMPOP, BLMPOP)
};
// Pops min(count, length) entries (one for kBulk and kKeyAndBulk) from the head (left) or the
// tail of the non-empty list under key, replies them framed as shape says, raises lpop/rpop
// and deletes an emptied key ("del"). Returns how many were popped.
uint64_t PopAndReply(const Call& c, std::string_view key, bool left, uint64_t count,
                     PopReply shape);
// PopAndReply on l, the list under key already made writable.
uint64_t PopFrom(const Call& c, std::string_view key, QuickList* l, bool left, uint64_t count,
                 PopReply shape);

// LMOVE's work once src is known to hold a non-empty list and dst to be absent or a list: moves
// one element, replies it as a bulk, raises lpush/rpush on dst then lpop/rpop on src, and
// deletes an emptied src.
void MoveAndReply(const Call& c, std::string_view src, std::string_view dst, bool from_left,
                  bool to_left);

// Handlers, one per command of the same name.
void LPush(Call& c);
void RPush(Call& c);
void LPushX(Call& c);
void RPushX(Call& c);
void LPop(Call& c);
void RPop(Call& c);
void LMPop(Call& c);
void LLen(Call& c);
void LRange(Call& c);
void LIndex(Call& c);
void LPos(Call& c);
void LSet(Call& c);
void LInsert(Call& c);
void LRem(Call& c);
void LTrim(Call& c);
void LMove(Call& c);
void RPopLPush(Call& c);
void BLPop(Call& c);
void BRPop(Call& c);
void BLMove(Call& c);
void BRPopLPush(Call& c);
void BLMPop(Call& c);

}  // namespace plinth::list

#endif  // PLINTH_LIST_COMMANDS_H
