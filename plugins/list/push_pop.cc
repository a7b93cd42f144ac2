// The push and pop family: LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP (with COUNT) and LMPOP,
// plus PopAndReply, which the blocking pops share. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "list/args.h"
#include "list/commands.h"
#include "list/errors.h"
#include "list/type.h"

namespace plinth::list {
namespace {

// LPUSH/RPUSH (only_existing: the X forms). Replies the new length, or 0 when an X form finds
// no key.
void Push(Call& c, bool left, bool only_existing) {
  const std::string_view key = c.arg(1);
  bool wrong = false;
  QuickList* l = FindMutableList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l && only_existing) return c.Integer(0);
  if (!l) l = CreateList(c, key);
  const NodeLimit limit = CurrentLimit();
  const int argc = c.argc();
  for (int i = 2; i < argc; ++i) {
    if (left) {
      l->PushFront(c.arg(i), limit);
    } else {
      l->PushBack(c.arg(i), limit);
    }
  }
  c.Integer(static_cast<int64_t>(l->size()));
  ListEvent(c, left ? "lpush" : "rpush", key);
}

// LPOP/RPOP key [count].
void Pop(Call& c, bool left) {
  if (c.argc() > 3) {
    return c.Error(left ? "ERR wrong number of arguments for 'lpop' command"
                        : "ERR wrong number of arguments for 'rpop' command");
  }
  const bool has_count = c.argc() == 3;
  int64_t count = 1;
  if (has_count && (!text::ParseInt64(c.arg(2), &count) || count < 0))
    return c.Error(errors::kNotPositive);
  bool wrong = false;
  const std::string_view key = c.arg(1);
  if (count == 0) {  // nothing popped: look without writing
    if (FindList(c, key, &wrong)) return c.Array(0);
    return wrong ? c.Error(errors::kWrongType) : c.NullArray();
  }
  QuickList* l = FindMutableList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return has_count ? c.NullArray() : c.Null();
  PopFrom(c, key, l, left, static_cast<uint64_t>(count),
          has_count ? PopReply::kArray : PopReply::kBulk);
}

}  // namespace

uint64_t PopAndReply(const Call& c, std::string_view key, bool left, uint64_t count,
                     PopReply shape) {
  return PopFrom(c, key, MutableList(c, key), left, count, shape);
}

uint64_t PopFrom(const Call& c, std::string_view key, QuickList* l, bool left, uint64_t count,
                 PopReply shape) {
  const bool one = shape == PopReply::kBulk || shape == PopReply::kKeyAndBulk;
  const uint64_t n = one ? 1 : (count < l->size() ? count : l->size());
  if (shape == PopReply::kKeyAndBulk || shape == PopReply::kKeyAndArray) {
    c.Array(2);
    c.Bulk(key);
  }
  if (!one) c.Array(static_cast<int64_t>(n));
  std::string v;
  for (uint64_t i = 0; i < n; ++i) {
    if (left) {
      l->PopFront(&v);
    } else {
      l->PopBack(&v);
    }
    c.Bulk(v);
  }
  ListEvent(c, left ? "lpop" : "rpop", key);
  DeleteIfEmpty(c, key, l);
  return n;
}

void LPush(Call& c) { Push(c, true, false); }
void RPush(Call& c) { Push(c, false, false); }
void LPushX(Call& c) { Push(c, true, true); }
void RPushX(Call& c) { Push(c, false, true); }
void LPop(Call& c) { Pop(c, true); }
void RPop(Call& c) { Pop(c, false); }

}  // namespace plinth::list
