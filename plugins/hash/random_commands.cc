// HRANDFIELD: one random field, or count of them (distinct when count > 0, with repeats when
// count < 0), optionally WITHVALUES (pairs as two-element arrays in RESP3, flat in RESP2).
#include <algorithm>
#include <plinth/errors.hpp>
#include <plinth/number.hpp>
#include <plinth/text.hpp>
#include <unordered_set>
#include <utility>
#include <vector>

#include "hash/access.h"
#include "hash/commands.h"

namespace plinth::hash {
namespace {

uint64_t rng_state = 0x853c49e6748fea9bull;

// splitmix64: fast, and good enough for sampling.
uint64_t NextRandom() {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

using Pair = std::pair<std::string_view, std::string_view>;

// Every pair of h, in iteration order.
std::vector<Pair> AllPairs(const Hash& h) {
  std::vector<Pair> out;
  out.reserve(h.Size());
  h.ForEach([&](std::string_view k, std::string_view v) { out.emplace_back(k, v); });
  return out;
}

// One random pair of a non-empty hash.
Pair RandomPair(const Hash& h) {
  if (const Table* t = h.table()) {
    const Table::Entry* e = t->Random(NextRandom);
    return {e->field(), e->value()};
  }
  const Listpack& lp = h.listpack();
  size_t skip = NextRandom() % lp.Size();
  Pair p;
  Listpack::Pos pos = lp.Begin();
  do pos = lp.Read(pos, &p.first, &p.second);
  while (skip-- > 0);
  return p;
}

// Replies the pairs as HRANDFIELD does: fields only, or with values.
class PairReply {
 public:
  PairReply(const Call& c, bool withvalues, size_t n)
      : c_(c), withvalues_(withvalues), resp3_(Protocol(c) >= 3) {
    c.Array(static_cast<int64_t>(withvalues && !resp3_ ? n * 2 : n));
  }
  void Add(const Pair& p) const {
    if (withvalues_ && resp3_) c_.Array(2);
    c_.Bulk(p.first);
    if (withvalues_) c_.Bulk(p.second);
  }

 private:
  const Call& c_;
  bool withvalues_, resp3_;
};

// count distinct random pairs, 0 < count < h.Size().
void ReplyDistinct(const Call& c, const Hash& h, size_t count, bool withvalues) {
  PairReply reply(c, withvalues, count);
  const Table* t = h.table();
  if (t && count * 3 <= h.Size()) {
    // Few of many: draw until count distinct ones came up.
    std::unordered_set<const Table::Entry*> seen;
    seen.reserve(count);
    while (seen.size() < count) {
      const Table::Entry* e = t->Random(NextRandom);
      if (seen.insert(e).second) reply.Add({e->field(), e->value()});
    }
    return;
  }
  // A large share: a partial Fisher-Yates shuffle of every pair.
  std::vector<Pair> all = AllPairs(h);
  for (size_t i = 0; i < count; ++i) {
    std::swap(all[i], all[i + NextRandom() % (all.size() - i)]);
    reply.Add(all[i]);
  }
}

void ReplyWithCount(const Call& c, int64_t l, bool withvalues) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  if (!h || l == 0) {
    c.Array(0);
    return;
  }
  const uint64_t count = number::Magnitude(l);
  if (l < 0) {
    // Repeats allowed, so the hash's size does not bound the work: number::kMaxRepeatedPicks
    // does. A listpack is walked once, not once per pick.
    if (count > number::kMaxRepeatedPicks) {
      c.Error(number::kErrTooManyPicks);
      return;
    }
    PairReply reply(c, withvalues, count);
    if (h->table()) {
      for (uint64_t i = 0; i < count; ++i) reply.Add(RandomPair(*h));
      return;
    }
    const std::vector<Pair> all = AllPairs(*h);
    for (uint64_t i = 0; i < count; ++i) reply.Add(all[NextRandom() % all.size()]);
    return;
  }
  if (count >= h->Size()) {
    PairReply reply(c, withvalues, h->Size());
    h->ForEach([&](std::string_view k, std::string_view v) { reply.Add({k, v}); });
    return;
  }
  ReplyDistinct(c, *h, static_cast<size_t>(count), withvalues);
}

}  // namespace

void SeedRandom(uint64_t seed) { rng_state = seed; }

void HRandFieldCommand(Call& c) {
  if (c.argc() >= 3) {
    int64_t l = 0;
    if (!text::ParseInt64(c.arg(2), &l)) {
      c.Error(errors::kNotInteger);
      return;
    }
    if (l == INT64_MIN) {
      c.Error(errors::kRandomCountRange);
      return;
    }
    bool withvalues = false;
    if (c.argc() > 4 || (c.argc() == 4 && !text::EqualsNoCase(c.arg(3), "withvalues"))) {
      c.Error(errors::kSyntax);
      return;
    }
    if (c.argc() == 4) {
      withvalues = true;
      if (l < -(INT64_MAX / 2) || l > INT64_MAX / 2) {
        c.Error(errors::kOutOfRange);
        return;
      }
    }
    ReplyWithCount(c, l, withvalues);
    return;
  }
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  if (!h) {
    c.Null();
    return;
  }
  c.Bulk(RandomPair(*h).first);
}

}  // namespace plinth::hash
