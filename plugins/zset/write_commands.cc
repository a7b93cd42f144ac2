// ZADD, ZINCRBY, ZREM and ZREMRANGEBYSCORE/RANK/LEX. A command takes the writable payload
// (key_payload_mut) only once it knows it will change the set, so a no-op neither copies a
// shared value nor propagates.
#include <cmath>
#include <memory>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <vector>

#include "zset/access.h"
#include "zset/commands.h"
#include "zset/ranges.h"

namespace plinth::zset {
namespace {

using sdk::Call;
using text::EqualsNoCase;

struct AddFlags {
  bool nx = false, xx = false, gt = false, lt = false, ch = false, incr = false;
};

// Reads the option words of ZADD from argv[2]; returns the index of the first score.
int ParseAddFlags(const Call& c, AddFlags* f) {
  int i = 2;
  for (; i < c.argc(); ++i) {
    const std::string_view w = c.arg(i);
    if (EqualsNoCase(w, "nx"))
      f->nx = true;
    else if (EqualsNoCase(w, "xx"))
      f->xx = true;
    else if (EqualsNoCase(w, "ch"))
      f->ch = true;
    else if (EqualsNoCase(w, "incr"))
      f->incr = true;
    else if (EqualsNoCase(w, "gt"))
      f->gt = true;
    else if (EqualsNoCase(w, "lt"))
      f->lt = true;
    else
      break;
  }
  return i;
}

struct AddResult {
  int64_t added = 0, updated = 0, processed = 0;
  double last = 0;
  bool nan = false;
};

// Applies one score/member pair to the set (*rw, taken from key when first needed; ro is the
// read-only set before that, nullptr for a new key).
void AddOne(const Call& c, std::string_view key, const AddFlags& f, const ZSet* ro, ZSet** rw,
            std::string_view member, double score, AddResult* r) {
  const ZSet* cur = *rw ? *rw : ro;
  double old = 0;
  if (cur && cur->Score(member, &old)) {
    if (f.nx) return;
    double ns = f.incr ? old + score : score;
    if (std::isnan(ns)) {
      r->nan = true;
      return;
    }
    if ((f.lt && ns >= old) || (f.gt && ns <= old)) return;
    ++r->processed;
    r->last = ns;
    if (ns == old) return;
    if (!*rw) *rw = MutableZset(c, key);
    (*rw)->Update(member, ns);
    ++r->updated;
    return;
  }
  if (f.xx) return;
  if (!*rw) *rw = MutableZset(c, key);
  (*rw)->Insert(member, score);
  ++r->added;
  ++r->processed;
  r->last = score;
}

void AddGeneric(Call& c, bool zincrby) {
  AddFlags f;
  int first = 2;
  if (zincrby)
    f.incr = true;
  else
    first = ParseAddFlags(c, &f);
  const int rest = c.argc() - first;
  if (rest == 0 || rest % 2 != 0) return c.Error(errors::kSyntax);
  const int pairs = rest / 2;
  if (f.nx && f.xx) return c.Error("ERR XX and NX options at the same time are not compatible");
  if ((f.gt && f.nx) || (f.lt && f.nx) || (f.gt && f.lt))
    return c.Error("ERR GT, LT, and/or NX options at the same time are not compatible");
  if (f.incr && pairs > 1)
    return c.Error("ERR INCR option supports a single increment-element pair");
  // Most calls carry one pair (the benchmark's ZADD): no allocation for a few.
  double inline_scores[8];
  std::vector<double> heap_scores;
  double* scores = inline_scores;
  if (pairs > 8) {
    heap_scores.resize(static_cast<size_t>(pairs));
    scores = heap_scores.data();
  }
  size_t max_len = 0;
  for (int i = 0; i < pairs; ++i) {
    if (!ParseScore(c.arg(first + 2 * i), &scores[static_cast<size_t>(i)]))
      return c.Error(errors::kNotFloat);
    max_len = std::max(max_len, c.arg(first + 2 * i + 1).size());
  }
  const std::string_view key = c.arg(1);
  const ZSet* ro = nullptr;
  if (!ReadZsetOrReply(c, key, &ro)) return;
  AddResult r;
  if (!ro && !f.xx) {
    auto z = std::make_unique<ZSet>(static_cast<size_t>(pairs), max_len);
    ZSet* rw = z.get();
    for (int i = 0; i < pairs; ++i)
      AddOne(c, key, f, nullptr, &rw, c.arg(first + 2 * i + 1), scores[static_cast<size_t>(i)], &r);
    StoreZset(c, key, std::move(z));
  } else if (ro) {
    ZSet* rw = nullptr;
    for (int i = 0; i < pairs && !r.nan; ++i)
      AddOne(c, key, f, ro, &rw, c.arg(first + 2 * i + 1), scores[static_cast<size_t>(i)], &r);
  }
  if (r.added || r.updated) Notify(c, f.incr ? "zincr" : "zadd", key);
  if (r.nan) return c.Error(kErrNan);
  if (f.incr) {
    if (r.processed)
      c.Double(r.last);
    else
      c.Null();
    return;
  }
  c.Integer(f.ch ? r.added + r.updated : r.added);
}

void ZAdd(Call& c) { AddGeneric(c, false); }
void ZIncrBy(Call& c) { AddGeneric(c, true); }

void ZRem(Call& c) {
  const std::string_view key = c.arg(1);
  const ZSet* ro = nullptr;
  if (!ReadZsetOrReply(c, key, &ro)) return;
  if (!ro) return c.Integer(0);
  ZSet* rw = nullptr;
  int64_t deleted = 0;
  double ignored = 0;
  for (int i = 2; i < c.argc(); ++i) {
    const std::string_view m = c.arg(i);
    if (!rw) {
      if (!ro->Score(m, &ignored)) continue;
      rw = MutableZset(c, key);
    }
    if (rw->Erase(m)) ++deleted;
    if (rw->Size() == 0) break;
  }
  if (deleted) {
    Notify(c, "zrem", key);
    DeleteIfEmpty(c, key, *rw);
  }
  c.Integer(deleted);
}

enum class RemBy { kRank, kScore, kLex };

void RemRangeGeneric(Call& c, RemBy by) {
  int64_t start = 0, stop = 0;
  ScoreRange sr;
  LexRange lr;
  if (by == RemBy::kRank) {
    if (!text::ParseInt64(c.arg(2), &start) || !text::ParseInt64(c.arg(3), &stop))
      return c.Error(errors::kNotInteger);
  } else if (by == RemBy::kScore) {
    if (!ParseScoreRange(c.arg(2), c.arg(3), &sr)) return c.Error(kErrScoreRange);
  } else if (!ParseLexRange(c.arg(2), c.arg(3), &lr)) {
    return c.Error(kErrLexRange);
  }
  const std::string_view key = c.arg(1);
  const ZSet* ro = nullptr;
  if (!ReadZsetOrReply(c, key, &ro)) return;
  if (!ro) return c.Integer(0);
  const RankSpan span = by == RemBy::kRank    ? SpanOfRanks(start, stop, ro->Size())
                        : by == RemBy::kScore ? SpanOfScores(*ro, sr)
                                              : SpanOfLex(*ro, lr);
  if (span.first >= span.last) return c.Integer(0);
  ZSet* rw = MutableZset(c, key);
  rw->EraseRanks(span.first, span.last);
  Notify(c,
         by == RemBy::kRank    ? "zremrangebyrank"
         : by == RemBy::kScore ? "zremrangebyscore"
                               : "zremrangebylex",
         key);
  DeleteIfEmpty(c, key, *rw);
  c.Integer(static_cast<int64_t>(span.last - span.first));
}

void ZRemRangeByRank(Call& c) { RemRangeGeneric(c, RemBy::kRank); }
void ZRemRangeByScore(Call& c) { RemRangeGeneric(c, RemBy::kScore); }
void ZRemRangeByLex(Call& c) { RemRangeGeneric(c, RemBy::kLex); }

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kWD = PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM;
constexpr uint32_t kWDF = kWD | PLINTH_CMD_FAST;

const sdk::CommandDef kCommands[] = {
    {"zadd", -4, kWDF, 1, 1, 1, &ZAdd, "sorted-set",
     "key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]",
     "Add one or more members to a sorted set, or update its score if it already exists", "1.2.0",
     PLINTH_ACL_SORTEDSET, PLINTH_KEY_WRITE},
    {"zincrby", 4, kWDF, 1, 1, 1, &ZIncrBy, "sorted-set", "key increment member",
     "Increment the score of a member in a sorted set", "1.2.0", PLINTH_ACL_SORTEDSET},
    {"zrem", -3, kW | PLINTH_CMD_FAST, 1, 1, 1, &ZRem, "sorted-set", "key member [member ...]",
     "Remove one or more members from a sorted set", "1.2.0", PLINTH_ACL_SORTEDSET,
     PLINTH_KEY_WRITE},
    {"zremrangebyrank", 4, kW, 1, 1, 1, &ZRemRangeByRank, "sorted-set", "key start stop",
     "Remove all members in a sorted set within the given indexes", "2.0.0", PLINTH_ACL_SORTEDSET,
     PLINTH_KEY_WRITE},
    {"zremrangebyscore", 4, kW, 1, 1, 1, &ZRemRangeByScore, "sorted-set", "key min max",
     "Remove all members in a sorted set within the given scores", "1.2.0", PLINTH_ACL_SORTEDSET,
     PLINTH_KEY_WRITE},
    {"zremrangebylex", 4, kW, 1, 1, 1, &ZRemRangeByLex, "sorted-set", "key min max",
     "Remove all members in a sorted set between the given lexicographical range", "2.8.9",
     PLINTH_ACL_SORTEDSET, PLINTH_KEY_WRITE},
};

}  // namespace

bool RegisterWriteCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
