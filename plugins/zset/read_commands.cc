// ZSCORE, ZMSCORE, ZCARD, ZCOUNT, ZLEXCOUNT, ZRANK, ZREVRANK and ZRANDMEMBER: read-only
// commands that answer from one set.
#include <plinth/errors.hpp>
#include <plinth/keys.hpp>
#include <plinth/number.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <vector>

#include "zset/access.h"
#include "zset/commands.h"
#include "zset/random_pick.h"
#include "zset/ranges.h"

namespace plinth::zset {
namespace {

using sdk::Call;

void ZScore(Call& c) {
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  double s = 0;
  if (z && z->Score(c.arg(2), &s)) return c.Double(s);
  c.Null();
}

void ZMScore(Call& c) {
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  c.Array(c.argc() - 2);
  for (int i = 2; i < c.argc(); ++i) {
    double s = 0;
    if (z && z->Score(c.arg(i), &s))
      c.Double(s);
    else
      c.Null();
  }
}

void ZCard(Call& c) {
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  c.Integer(z ? static_cast<int64_t>(z->Size()) : 0);
}

void ZCount(Call& c) {
  ScoreRange r;
  if (!ParseScoreRange(c.arg(2), c.arg(3), &r)) return c.Error(kErrScoreRange);
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  if (!z) return c.Integer(0);
  const RankSpan s = SpanOfScores(*z, r);
  c.Integer(static_cast<int64_t>(s.last - s.first));
}

void ZLexCount(Call& c) {
  LexRange r;
  if (!ParseLexRange(c.arg(2), c.arg(3), &r)) return c.Error(kErrLexRange);
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  if (!z) return c.Integer(0);
  const RankSpan s = SpanOfLex(*z, r);
  c.Integer(static_cast<int64_t>(s.last - s.first));
}

void RankGeneric(Call& c, bool reverse) {
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  size_t rank = 0;
  if (!z || !z->Rank(c.arg(2), &rank)) return c.Null();
  c.Integer(static_cast<int64_t>(reverse ? z->Size() - 1 - rank : rank));
}

void ZRank(Call& c) { RankGeneric(c, false); }
void ZRevRank(Call& c) { RankGeneric(c, true); }

// Random access by rank: a listpack's positions are collected once (it is small), a skiplist
// answers each rank in O(log n).
class RankAccess {
 public:
  explicit RankAccess(const ZSet& z) : z_(z) {
    if (!z.IsListpack()) return;
    for (Cursor c = z.At(0); c.Valid(); c.Next()) all_.push_back(c);
  }
  Cursor At(size_t r) const { return z_.IsListpack() ? all_[r] : z_.At(r); }

 private:
  const ZSet& z_;
  std::vector<Cursor> all_;
};

void RandMemberWithCount(const Call& c, const ZSet* z, int64_t count, bool withscores) {
  const EntryReply out(c, withscores);
  if (!z || count == 0) return c.Array(0);
  const size_t n = z->Size();
  if (count < 0) {
    // Repeats allowed: exactly -count picks, so the set's size does not bound the work.
    const uint64_t k = number::Magnitude(count);
    if (k > number::kMaxRepeatedPicks) return c.Error(number::kErrTooManyPicks);
    const RankAccess access(*z);
    out.Begin(k);
    for (uint64_t i = 0; i < k; ++i) {
      const Cursor e = access.At(RandomBelow(n));
      out.Add(e.Member(), e.Score());
    }
    return;
  }
  if (static_cast<uint64_t>(count) >= n) {
    // The whole set, highest first, as Redis 7.0 replies it.
    out.Begin(n);
    for (Cursor cur = z->At(n - 1); cur.Valid(); cur.Prev()) out.Add(cur.Member(), cur.Score());
    return;
  }
  const std::vector<size_t> ranks = DistinctRanks(static_cast<size_t>(count), n);
  out.Begin(ranks.size());
  Cursor cur = z->At(ranks.empty() ? 0 : ranks[0]);
  size_t pos = ranks.empty() ? 0 : ranks[0];
  for (size_t r : ranks) {
    if (z->IsListpack() || r - pos < 16) {
      for (; pos < r; ++pos) cur.Next();
    } else {
      cur = z->At(r);
      pos = r;
    }
    out.Add(cur.Member(), cur.Score());
  }
}

void ZRandMember(Call& c) {
  if (c.argc() == 2) {
    const ZSet* z = nullptr;
    if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
    if (!z) return c.Null();
    return c.Bulk(z->At(RandomBelow(z->Size())).Member());
  }
  int64_t count = 0;
  if (!text::ParseInt64(c.arg(2), &count)) return c.Error(errors::kNotInteger);
  if (count == INT64_MIN) return c.Error(errors::kRandomCountRange);
  bool withscores = false;
  if (c.argc() > 4 || (c.argc() == 4 && !text::EqualsNoCase(c.arg(3), "withscores")))
    return c.Error(errors::kSyntax);
  if (c.argc() == 4) {
    withscores = true;
    if (count < -INT64_MAX / 2 || count > INT64_MAX / 2) return c.Error(errors::kOutOfRange);
  }
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  RandMemberWithCount(c, z, count, withscores);
}

constexpr uint32_t kRF = PLINTH_CMD_READONLY | PLINTH_CMD_FAST;
constexpr uint32_t kR = PLINTH_CMD_READONLY;

const sdk::CommandDef kCommands[] = {
    {"zscore", 3, kRF, 1, 1, 1, &ZScore, "sorted-set", "key member",
     "Get the score associated with the given member in a sorted set", "1.2.0",
     PLINTH_ACL_SORTEDSET},
    {"zmscore", -3, kRF, 1, 1, 1, &ZMScore, "sorted-set", "key member [member ...]",
     "Get the score associated with the given members in a sorted set", "6.2.0",
     PLINTH_ACL_SORTEDSET},
    {"zcard", 2, kRF, 1, 1, 1, &ZCard, "sorted-set", "key",
     "Get the number of members in a sorted set", "1.2.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::OneKey<1, 0>},
    {"zcount", 4, kRF, 1, 1, 1, &ZCount, "sorted-set", "key min max",
     "Count the members in a sorted set with scores within the given values", "2.0.0",
     PLINTH_ACL_SORTEDSET},
    {"zlexcount", 4, kRF, 1, 1, 1, &ZLexCount, "sorted-set", "key min max",
     "Count the number of members in a sorted set between a given lexicographical range", "2.8.9",
     PLINTH_ACL_SORTEDSET},
    {"zrank", 3, kRF, 1, 1, 1, &ZRank, "sorted-set", "key member",
     "Determine the index of a member in a sorted set", "2.0.0", PLINTH_ACL_SORTEDSET},
    {"zrevrank", 3, kRF, 1, 1, 1, &ZRevRank, "sorted-set", "key member",
     "Determine the index of a member in a sorted set, with scores ordered from high to low",
     "2.0.0", PLINTH_ACL_SORTEDSET},
    {"zrandmember", -2, kR, 1, 1, 1, &ZRandMember, "sorted-set", "key [count [WITHSCORES]]",
     "Get one or multiple random elements from a sorted set", "6.2.0", PLINTH_ACL_SORTEDSET},
};

}  // namespace

bool RegisterReadCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
