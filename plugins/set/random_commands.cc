// SPOP and SRANDMEMBER: random members picked by dense position, so each pick is O(1) and
// uniform. SPOP propagates as one SREM per popped member, or as DEL when it pops the whole
// set, as Redis 7.0 does.
#include <numeric>
#include <plinth/errors.hpp>
#include <plinth/number.hpp>
#include <plinth/text.hpp>
#include <unordered_set>
#include <vector>

#include "set/access.h"
#include "set/commands.h"

namespace plinth::set {
namespace {

void PopOne(Call& c, std::string_view key) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, key, &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  if (!set) return c.Null();
  SetValue* w = WriteSet(c, key);
  size_t i = RandomBelow(w->Size());
  MemberBuf buf;
  std::string_view m = w->At(i, &buf);
  c.Bulk(m);
  Replicate(c, "SREM", {key, m});
  w->RemoveAt(i);
  SetEvent(c, "spop", key);
  if (w->Size() == 0) DeleteEmptied(c, key);
}

void PopMany(Call& c, std::string_view key, uint64_t count) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, key, &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  if (!set || count == 0) return c.Set(0);
  size_t size = set->Size();
  if (count >= size) {
    c.Set(static_cast<int64_t>(size));
    set->ForEach([&](std::string_view m) { c.Bulk(m); });
    SetEvent(c, "spop", key);
    DeleteEmptied(c, key);
    Replicate(c, "DEL", {key});
    return;
  }
  SetValue* w = WriteSet(c, key);
  c.Set(static_cast<int64_t>(count));
  MemberBuf buf;
  for (uint64_t k = 0; k < count; ++k) {
    size_t i = RandomBelow(w->Size());
    std::string_view m = w->At(i, &buf);
    c.Bulk(m);
    Replicate(c, "SREM", {key, m});
    w->RemoveAt(i);
  }
  SetEvent(c, "spop", key);
}

// count distinct members in random order, count < set.Size().
void ReplyDistinct(const Call& c, const SetValue& set, uint64_t count) {
  size_t size = set.Size();
  MemberBuf buf;
  c.Array(static_cast<int64_t>(count));
  if (count * 3 > size) {
    // A large share of the set: a partial Fisher-Yates shuffle of all positions.
    std::vector<uint32_t> pos(size);
    std::iota(pos.begin(), pos.end(), 0u);
    for (uint64_t k = 0; k < count; ++k) {
      size_t j = k + RandomBelow(size - k);
      std::swap(pos[k], pos[j]);
      c.Bulk(set.At(pos[k], &buf));
    }
    return;
  }
  std::unordered_set<size_t> taken;
  taken.reserve(count);
  while (taken.size() < count) {
    size_t i = RandomBelow(size);
    if (taken.insert(i).second) c.Bulk(set.At(i, &buf));
  }
}

}  // namespace

void SPop(Call& c) {
  std::string_view key = c.arg(1);
  if (c.argc() == 2) return PopOne(c, key);
  if (c.argc() > 3) return c.Error(errors::kSyntax);
  int64_t count = 0;
  if (!text::ParseInt64(c.arg(2), &count) || count < 0) return c.Error(errors::kNotPositive);
  PopMany(c, key, static_cast<uint64_t>(count));
}

void SRandMember(Call& c) {
  bool wrongtype = false;
  if (c.argc() == 2) {
    const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
    if (wrongtype) return c.Error(errors::kWrongType);
    if (!set) return c.Null();
    MemberBuf buf;
    return c.Bulk(set->At(RandomBelow(set->Size()), &buf));
  }
  if (c.argc() > 3) return c.Error(errors::kSyntax);
  int64_t count = 0;
  if (!text::ParseInt64(c.arg(2), &count)) return c.Error(errors::kNotInteger);
  if (count == INT64_MIN) return c.Error(errors::kRandomCountRange);
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  if (!set || count == 0) return c.Array(0);
  MemberBuf buf;
  if (count < 0) {
    // Repeats allowed, so the set's size does not bound the work: number::kMaxRepeatedPicks does.
    const uint64_t picks = number::Magnitude(count);
    if (picks > number::kMaxRepeatedPicks) return c.Error(number::kErrTooManyPicks);
    c.Array(static_cast<int64_t>(picks));
    for (uint64_t k = 0; k < picks; ++k) c.Bulk(set->At(RandomBelow(set->Size()), &buf));
    return;
  }
  if (static_cast<uint64_t>(count) >= set->Size()) {
    c.Array(static_cast<int64_t>(set->Size()));
    return set->ForEach([&](std::string_view m) { c.Bulk(m); });
  }
  ReplyDistinct(c, *set, static_cast<uint64_t>(count));
}

}  // namespace plinth::set
