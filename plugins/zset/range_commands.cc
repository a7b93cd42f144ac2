// ZRANGE (BYSCORE, BYLEX, REV, LIMIT, WITHSCORES), ZRANGESTORE, ZRANGEBYSCORE,
// ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX and ZREVRANGE: one parser and one emitter, as
// Redis 7.0's zrangeGenericCommand, with its option rules and error texts.
#include <memory>
#include <plinth/keys.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <utility>
#include <vector>

#include "zset/access.h"
#include "zset/commands.h"
#include "zset/ranges.h"

namespace plinth::zset {
namespace {

using sdk::Call;
using text::EqualsNoCase;

enum class By { kAuto, kRank, kScore, kLex };
enum class Dir { kAuto, kForward, kReverse };

struct RangeRequest {
  By by = By::kAuto;
  Dir dir = Dir::kAuto;
  bool withscores = false;
  int64_t offset = 0, limit = -1;
  int64_t start = 0, stop = 0;
  ScoreRange scores;
  LexRange lex;
};

// Parses the options after "<src> <min> <max>" (src at argv[src]) and then the range itself.
// Replies the error and returns false on bad input.
bool ParseRange(const Call& c, int src, bool store, RangeRequest* q) {
  for (int j = src + 3; j < c.argc(); ++j) {
    const std::string_view w = c.arg(j);
    const int left = c.argc() - j - 1;
    if (!store && EqualsNoCase(w, "withscores")) {
      q->withscores = true;
    } else if (EqualsNoCase(w, "limit") && left >= 2) {
      if (!text::ParseInt64(c.arg(j + 1), &q->offset) ||
          !text::ParseInt64(c.arg(j + 2), &q->limit)) {
        c.Error(errors::kNotInteger);
        return false;
      }
      j += 2;
    } else if (q->dir == Dir::kAuto && EqualsNoCase(w, "rev")) {
      q->dir = Dir::kReverse;
    } else if (q->by == By::kAuto && EqualsNoCase(w, "bylex")) {
      q->by = By::kLex;
    } else if (q->by == By::kAuto && EqualsNoCase(w, "byscore")) {
      q->by = By::kScore;
    } else {
      c.Error(errors::kSyntax);
      return false;
    }
  }
  if (q->dir == Dir::kAuto) q->dir = Dir::kForward;
  if (q->by == By::kAuto) q->by = By::kRank;
  if (q->limit != -1 && q->by == By::kRank) {
    c.Error(
        "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    return false;
  }
  if (q->withscores && q->by == By::kLex) {
    c.Error("ERR syntax error, WITHSCORES not supported in combination with BYLEX");
    return false;
  }
  int min = src + 1, max = src + 2;
  // BYSCORE/BYLEX ranges are given as max then min when reversed.
  if (q->dir == Dir::kReverse && q->by != By::kRank) std::swap(min, max);
  bool ok = true;
  if (q->by == By::kRank) {
    ok = text::ParseInt64(c.arg(min), &q->start) && text::ParseInt64(c.arg(max), &q->stop);
    if (!ok) c.Error(errors::kNotInteger);
  } else if (q->by == By::kScore) {
    ok = ParseScoreRange(c.arg(min), c.arg(max), &q->scores);
    if (!ok) c.Error(kErrScoreRange);
  } else {
    ok = ParseLexRange(c.arg(min), c.arg(max), &q->lex);
    if (!ok) c.Error(kErrLexRange);
  }
  return ok;
}

// The ascending ranks [first, last) the request selects from z.
RankSpan Select(const ZSet& z, const RangeRequest& q) {
  const size_t n = z.Size();
  if (q.by == By::kRank) {
    const RankSpan s = SpanOfRanks(q.start, q.stop, n);
    if (q.dir == Dir::kForward) return s;
    return RankSpan{n - s.last, n - s.first};
  }
  const RankSpan s = q.by == By::kScore ? SpanOfScores(z, q.scores) : SpanOfLex(z, q.lex);
  const size_t count = s.last - s.first;
  // A negative offset selects nothing, a negative limit means no limit (Redis 7.0).
  if (q.offset < 0 || static_cast<uint64_t>(q.offset) >= count) return RankSpan{};
  size_t take = count - static_cast<size_t>(q.offset);
  if (q.limit >= 0 && static_cast<uint64_t>(q.limit) < take) take = static_cast<size_t>(q.limit);
  if (q.dir == Dir::kForward) {
    const size_t first = s.first + static_cast<size_t>(q.offset);
    return RankSpan{first, first + take};
  }
  const size_t last = s.last - static_cast<size_t>(q.offset);
  return RankSpan{last - take, last};
}

void Emit(const Call& c, const ZSet& z, const RankSpan& s, const RangeRequest& q) {
  const EntryReply out(c, q.withscores);
  out.Begin(s.last - s.first);
  if (s.first >= s.last) return;
  if (q.dir == Dir::kForward) {
    Cursor cur = z.At(s.first);
    for (size_t i = s.first; i < s.last; ++i, cur.Next()) out.Add(cur.Member(), cur.Score());
  } else {
    Cursor cur = z.At(s.last - 1);
    for (size_t i = s.first; i < s.last; ++i, cur.Prev()) out.Add(cur.Member(), cur.Score());
  }
}

// Stores the selected entries under dst (or deletes dst when none) and replies their count.
void Store(const Call& c, std::string_view dst, const ZSet* z, const RankSpan& s) {
  const size_t n = s.last - s.first;
  if (!z || n == 0) {
    if (c.Delete(dst))
      sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", dst.data(), dst.size());
    return c.Integer(0);
  }
  std::vector<std::pair<std::string_view, double>> entries;
  entries.reserve(n);
  Cursor cur = z->At(s.first);
  for (size_t i = s.first; i < s.last; ++i, cur.Next())
    entries.emplace_back(cur.Member(), cur.Score());
  StoreZset(c, dst, ZSet::FromSorted(entries));
  Notify(c, "zrangestore", dst);
  c.Integer(static_cast<int64_t>(n));
}

void RangeGeneric(Call& c, int src, By by, Dir dir, bool store) {
  RangeRequest q;
  q.by = by;
  q.dir = dir;
  if (!ParseRange(c, src, store, &q)) return;
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(src), &z)) return;
  if (store) return Store(c, c.arg(1), z, z ? Select(*z, q) : RankSpan{});
  if (!z) return c.Array(0);
  Emit(c, *z, Select(*z, q), q);
}

void ZRange(Call& c) { RangeGeneric(c, 1, By::kAuto, Dir::kAuto, false); }
void ZRangeStore(Call& c) { RangeGeneric(c, 2, By::kAuto, Dir::kAuto, true); }
void ZRevRange(Call& c) { RangeGeneric(c, 1, By::kRank, Dir::kReverse, false); }
void ZRangeByScore(Call& c) { RangeGeneric(c, 1, By::kScore, Dir::kForward, false); }
void ZRevRangeByScore(Call& c) { RangeGeneric(c, 1, By::kScore, Dir::kReverse, false); }
void ZRangeByLex(Call& c) { RangeGeneric(c, 1, By::kLex, Dir::kForward, false); }
void ZRevRangeByLex(Call& c) { RangeGeneric(c, 1, By::kLex, Dir::kReverse, false); }

constexpr uint32_t kR = PLINTH_CMD_READONLY;

const sdk::CommandDef kCommands[] = {
    {"zrange", -4, kR, 1, 1, 1, &ZRange, "sorted-set",
     "key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]",
     "Return a range of members in a sorted set", "1.2.0", PLINTH_ACL_SORTEDSET},
    {"zrangestore", -5, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM, 1, 2, 1, &ZRangeStore, "sorted-set",
     "dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]",
     "Store a range of members from sorted set into another key", "6.2.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::TwoKeys<PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"zrevrange", -4, kR, 1, 1, 1, &ZRevRange, "sorted-set", "key start stop [WITHSCORES]",
     "Return a range of members in a sorted set, by index, with scores ordered from high to low",
     "1.2.0", PLINTH_ACL_SORTEDSET},
    {"zrangebyscore", -4, kR, 1, 1, 1, &ZRangeByScore, "sorted-set",
     "key min max [WITHSCORES] [LIMIT offset count]",
     "Return a range of members in a sorted set, by score", "1.0.5", PLINTH_ACL_SORTEDSET},
    {"zrevrangebyscore", -4, kR, 1, 1, 1, &ZRevRangeByScore, "sorted-set",
     "key max min [WITHSCORES] [LIMIT offset count]",
     "Return a range of members in a sorted set, by score, with scores ordered from high to low",
     "2.2.0", PLINTH_ACL_SORTEDSET},
    {"zrangebylex", -4, kR, 1, 1, 1, &ZRangeByLex, "sorted-set", "key min max [LIMIT offset count]",
     "Return a range of members in a sorted set, by lexicographical range", "2.8.9",
     PLINTH_ACL_SORTEDSET},
    {"zrevrangebylex", -4, kR, 1, 1, 1, &ZRevRangeByLex, "sorted-set",
     "key max min [LIMIT offset count]",
     "Return a range of members in a sorted set, by lexicographical range, ordered from higher "
     "to lower strings",
     "2.8.9", PLINTH_ACL_SORTEDSET},
};

}  // namespace

bool RegisterRangeCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
