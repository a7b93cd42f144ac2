// LMOVE and RPOPLPUSH, and MoveAndReply, which BLMOVE and BRPOPLPUSH share. Main thread.
#include <string>

#include "list/args.h"
#include "list/commands.h"
#include "list/errors.h"
#include "list/type.h"

namespace plinth::list {
namespace {

// LMOVE-like: replies a null bulk when src is absent, WRONGTYPE when src or dst holds another
// type (dst is checked only when src has data, as Redis).
void Move(Call& c, bool from_left, bool to_left) {
  const std::string_view src = c.arg(1), dst = c.arg(2);
  bool wrong = false;
  const QuickList* l = FindList(c, src, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Null();
  FindList(c, dst, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  MoveAndReply(c, src, dst, from_left, to_left);
}

}  // namespace

void MoveAndReply(const Call& c, std::string_view src, std::string_view dst, bool from_left,
                  bool to_left) {
  QuickList* s = MutableList(c, src);
  std::string v;
  if (from_left) {
    s->PopFront(&v);
  } else {
    s->PopBack(&v);
  }
  QuickList* d = s;
  if (dst != src) {
    bool wrong = false;
    d = FindList(c, dst, &wrong) ? MutableList(c, dst) : CreateList(c, dst);
  }
  const NodeLimit limit = CurrentLimit();
  if (to_left) {
    d->PushFront(v, limit);
  } else {
    d->PushBack(v, limit);
  }
  c.Bulk(v);
  ListEvent(c, to_left ? "lpush" : "rpush", dst);
  ListEvent(c, from_left ? "lpop" : "rpop", src);
  if (dst != src) DeleteIfEmpty(c, src, s);
}

void LMove(Call& c) {
  bool from_left = true, to_left = true;
  if (!ParseSide(c.arg(3), &from_left) || !ParseSide(c.arg(4), &to_left))
    return c.Error(errors::kSyntax);
  Move(c, from_left, to_left);
}

void RPopLPush(Call& c) { Move(c, false, true); }

}  // namespace plinth::list
