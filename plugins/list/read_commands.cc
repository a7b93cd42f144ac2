// The read-only list commands: LLEN, LRANGE, LINDEX and LPOS. Main thread.
#include <algorithm>
#include <limits>
#include <plinth/text.hpp>
#include <vector>

#include "list/args.h"
#include "list/commands.h"
#include "list/errors.h"

namespace plinth::list {
namespace {

struct LPosArgs {
  int64_t rank = 1;    // 1-based match to start from; negative scans from the tail
  int64_t count = -1;  // -1: no COUNT (reply one index); 0: all matches
  int64_t maxlen = 0;  // entries to scan, 0: all
};

// Parses LPOS's options from argument 3 on. Returns the error to reply, or an empty view.
std::string_view ParseLPos(const Call& c, LPosArgs* a) {
  const int argc = c.argc();
  for (int j = 3; j < argc; ++j) {
    const std::string_view opt = c.arg(j);
    const bool more = j + 1 < argc;
    if (IsToken(opt, "RANK") && more) {
      // Redis 7.0 takes LLONG_MIN too; negated it stays "from the tail, first match".
      if (!text::ParseInt64(c.arg(++j), &a->rank)) return errors::kNotInteger;
      if (a->rank == 0) return kErrRankZero;
      if (a->rank == std::numeric_limits<int64_t>::min()) a->rank = -1;
    } else if (IsToken(opt, "COUNT") && more) {
      if (!text::ParseInt64(c.arg(++j), &a->count) || a->count < 0) return kErrCountNegative;
    } else if (IsToken(opt, "MAXLEN") && more) {
      if (!text::ParseInt64(c.arg(++j), &a->maxlen) || a->maxlen < 0) return kErrMaxlenNegative;
    } else {
      return errors::kSyntax;
    }
  }
  return {};
}

}  // namespace

void LLen(Call& c) {
  bool wrong = false;
  const QuickList* l = FindList(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  c.Integer(l ? static_cast<int64_t>(l->size()) : 0);
}

void LRange(Call& c) {
  int64_t start = 0, stop = 0;
  if (!text::ParseInt64(c.arg(2), &start) || !text::ParseInt64(c.arg(3), &stop))
    return c.Error(errors::kNotInteger);
  bool wrong = false;
  const QuickList* l = FindList(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  uint64_t first = 0, count = 0;
  if (!l || !ClampRange(start, stop, l->size(), &first, &count)) return c.Array(0);
  c.Array(static_cast<int64_t>(count));
  QuickList::Pos p = l->Locate(first);
  for (uint64_t i = 0;;) {
    c.Bulk(l->Get(p));
    if (++i == count) break;
    l->Next(&p);
  }
}

// As Redis: the key is looked up (a missing one answers null) and type-checked before the
// index is parsed.
void LIndex(Call& c) {
  bool wrong = false;
  const QuickList* l = FindList(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return c.Null();
  int64_t index = 0;
  if (!text::ParseInt64(c.arg(2), &index)) return c.Error(errors::kNotInteger);
  const auto n = static_cast<int64_t>(l->size());
  if (index < 0) index += n;
  if (index < 0 || index >= n) return c.Null();
  c.Bulk(l->At(static_cast<uint64_t>(index)));
}

void LPos(Call& c) {
  LPosArgs a;
  const std::string_view err = ParseLPos(c, &a);
  if (!err.empty()) return c.Error(err);
  bool wrong = false;
  const QuickList* l = FindList(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!l) return a.count != -1 ? c.Array(0) : c.Null();
  const bool from_tail = a.rank < 0;
  const uint64_t skip = static_cast<uint64_t>(from_tail ? -a.rank : a.rank) - 1;
  const std::string_view value = c.arg(2);
  const uint64_t len = l->size();
  const uint64_t scan = a.maxlen == 0 ? len : std::min<uint64_t>(len, a.maxlen);
  std::vector<int64_t> hits;
  uint64_t matches = 0;
  QuickList::Pos p = l->Locate(from_tail ? len - 1 : 0);
  for (uint64_t i = 0; i < scan; ++i) {
    if (l->Get(p) == value && matches++ >= skip) {
      hits.push_back(static_cast<int64_t>(from_tail ? len - 1 - i : i));
      if (a.count == -1 || (a.count > 0 && static_cast<int64_t>(hits.size()) >= a.count)) break;
    }
    if (i + 1 < scan) from_tail ? l->Prev(&p) : l->Next(&p);
  }
  if (a.count == -1) return hits.empty() ? c.Null() : c.Integer(hits[0]);
  c.Array(static_cast<int64_t>(hits.size()));
  for (int64_t h : hits) c.Integer(h);
}

}  // namespace plinth::list
