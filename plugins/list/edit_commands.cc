// The list commands that edit in the middle: LSET, LINSERT, LREM and LTRIM. Each looks before
// it writes, so a command that changes nothing (no pivot, no match, nothing to trim) neither
// copies a shared value nor propagates. Main thread.
#include <plinth/text.hpp>

#include "list/args.h"
#include "list/commands.h"
#include "list/errors.h"
#include "list/type.h"

namespace plinth::list {

using sdk::Api;

void LSet(Call& c) {
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const QuickList* l = FindList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Error(errors::kNoSuchKey);
  int64_t index = 0;
  if (!text::ParseInt64(c.arg(2), &index)) return c.Error(errors::kNotInteger);
  const auto n = static_cast<int64_t>(l->size());
  if (index < 0) index += n;
  if (index < 0 || index >= n) return c.Error(kErrIndexRange);
  MutableList(c, key)->Set(static_cast<uint64_t>(index), c.arg(3), CurrentLimit());
  c.Ok();
  ListEvent(c, "lset", key);
}

void LInsert(Call& c) {
  bool after = false;
  if (IsToken(c.arg(2), "AFTER")) {
    after = true;
  } else if (!IsToken(c.arg(2), "BEFORE")) {
    return c.Error(errors::kSyntax);
  }
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const QuickList* l = FindList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Integer(0);
  const std::string_view pivot = c.arg(3);
  QuickList::Pos p = l->Locate(0);
  uint64_t index = 0;
  while (l->Get(p) != pivot) {
    if (!l->Next(&p)) return c.Integer(-1);
    ++index;
  }
  QuickList* m = MutableList(c, key);
  m->Insert(index, after, c.arg(4), CurrentLimit());
  c.Integer(static_cast<int64_t>(m->size()));
  ListEvent(c, "linsert", key);
}

void LRem(Call& c) {
  int64_t count = 0;
  if (!text::ParseInt64(c.arg(2), &count)) return c.Error(errors::kNotInteger);
  const std::string_view key = c.arg(1), value = c.arg(3);
  bool wrong = false;
  const QuickList* l = FindList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Integer(0);
  // Nothing to remove means nothing written: look for one match first.
  QuickList::Pos p = l->Locate(0);
  while (l->Get(p) != value)
    if (!l->Next(&p)) return c.Integer(0);
  const bool from_tail = count < 0;
  const uint64_t limit =
      from_tail ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
  QuickList* m = MutableList(c, key);
  const uint64_t removed = m->RemoveMatching(value, limit, from_tail);
  c.Integer(static_cast<int64_t>(removed));
  ListEvent(c, "lrem", key);
  DeleteIfEmpty(c, key, m);
}

void LTrim(Call& c) {
  int64_t start = 0, stop = 0;
  if (!text::ParseInt64(c.arg(2), &start) || !text::ParseInt64(c.arg(3), &stop))
    return c.Error(errors::kNotInteger);
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const QuickList* l = FindList(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Ok();
  uint64_t first = 0, keep = 0;
  if (!ClampRange(start, stop, l->size(), &first, &keep)) {
    c.Ok();
    ListEvent(c, "ltrim", key);
    c.Delete(key);
    Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", key.data(), key.size());
    return;
  }
  if (first == 0 && keep == l->size()) {
    // Redis signals the key modified but counts no change: WATCH fires, nothing propagates.
    Api().key_touched(c.raw(), key.data(), key.size());
  } else {
    MutableList(c, key)->Keep(first, keep);
  }
  c.Ok();
  ListEvent(c, "ltrim", key);
}

}  // namespace plinth::list
