// SINTER, SINTERCARD, SUNION, SDIFF and SINTERSTORE, SUNIONSTORE, SDIFFSTORE. A missing key is
// an empty set; every key is type-checked first (Redis 7.0). A STORE of an empty result
// deletes the destination.
#include <algorithm>
#include <memory>
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <vector>

#include "set/access.h"
#include "set/commands.h"

namespace plinth::set {
namespace {

enum class Op { kInter, kUnion, kDiff };

// The sets under keys c.arg(from)..c.arg(to - 1), nullptr for missing ones. false (after
// replying WRONGTYPE) when a key holds another type.
bool ReadSets(const Call& c, int from, int to, std::vector<const SetValue*>* sets) {
  sets->clear();
  for (int i = from; i < to; ++i) {
    bool wrongtype = false;
    sets->push_back(ReadSet(c, c.arg(i), &wrongtype));
    if (wrongtype) {
      c.Error(errors::kWrongType);
      return false;
    }
  }
  return true;
}

// Positions in the smallest set of the members every set holds, at most limit of them
// (0: no limit). *base gets that smallest set (nullptr when some set is missing).
std::vector<size_t> Intersect(std::vector<const SetValue*> sets, uint64_t limit,
                              const SetValue** base) {
  std::vector<size_t> out;
  *base = nullptr;
  for (const SetValue* s : sets)
    if (!s) return out;
  std::sort(sets.begin(), sets.end(),
            [](const SetValue* a, const SetValue* b) { return a->Size() < b->Size(); });
  *base = sets[0];
  MemberBuf buf;
  for (size_t i = 0; i < sets[0]->Size(); ++i) {
    std::string_view m = sets[0]->At(i, &buf);
    bool all = true;
    for (size_t j = 1; j < sets.size() && all; ++j)
      all = sets[j] == sets[0] || sets[j]->Contains(m);
    if (!all) continue;
    out.push_back(i);
    if (limit != 0 && out.size() >= limit) break;
  }
  return out;
}

// Positions in sets[0] of the members no later set holds.
std::vector<size_t> Difference(const std::vector<const SetValue*>& sets) {
  std::vector<size_t> out;
  if (!sets[0]) return out;
  MemberBuf buf;
  for (size_t i = 0; i < sets[0]->Size(); ++i) {
    std::string_view m = sets[0]->At(i, &buf);
    bool found = false;
    for (size_t j = 1; j < sets.size() && !found; ++j) found = sets[j] && sets[j]->Contains(m);
    if (!found) out.push_back(i);
  }
  return out;
}

// The result of op over sets as a new set (the encoding its members call for).
std::unique_ptr<SetValue> Compute(Op op, const std::vector<const SetValue*>& sets) {
  auto out = std::make_unique<SetValue>();
  MemberBuf buf;
  if (op == Op::kUnion) {
    for (const SetValue* s : sets)
      if (s) s->ForEach([&](std::string_view m) { out->Add(m); });
    return out;
  }
  const SetValue* base = sets[0];
  std::vector<size_t> pos = op == Op::kInter ? Intersect(sets, 0, &base) : Difference(sets);
  for (size_t i : pos) out->Add(base->At(i, &buf));
  return out;
}

void ReplyPositions(const Call& c, const SetValue* base, const std::vector<size_t>& pos) {
  c.Set(static_cast<int64_t>(pos.size()));
  MemberBuf buf;
  for (size_t i : pos) c.Bulk(base->At(i, &buf));
}

void ReplyOp(Call& c, Op op) {
  std::vector<const SetValue*> sets;
  if (!ReadSets(c, 1, c.argc(), &sets)) return;
  if (op == Op::kInter) {
    const SetValue* base = nullptr;
    std::vector<size_t> pos = Intersect(sets, 0, &base);
    return ReplyPositions(c, base, pos);
  }
  if (op == Op::kDiff) return ReplyPositions(c, sets[0], Difference(sets));
  std::unique_ptr<SetValue> result = Compute(op, sets);
  c.Set(static_cast<int64_t>(result->Size()));
  result->ForEach([&](std::string_view m) { c.Bulk(m); });
}

void StoreOp(Call& c, Op op, const char* event) {
  std::vector<const SetValue*> sets;
  if (!ReadSets(c, 2, c.argc(), &sets)) return;
  std::unique_ptr<SetValue> result = Compute(op, sets);
  std::string_view dst = c.arg(1);
  int64_t size = static_cast<int64_t>(result->Size());
  if (size > 0) {
    StoreSet(c, dst, std::move(result));
    SetEvent(c, event, dst);
  } else if (c.Get(dst) != nullptr) {
    DeleteEmptied(c, dst);
  }
  c.Integer(size);
}

}  // namespace

void SInter(Call& c) { ReplyOp(c, Op::kInter); }
void SUnion(Call& c) { ReplyOp(c, Op::kUnion); }
void SDiff(Call& c) { ReplyOp(c, Op::kDiff); }
void SInterStore(Call& c) { StoreOp(c, Op::kInter, "sinterstore"); }
void SUnionStore(Call& c) { StoreOp(c, Op::kUnion, "sunionstore"); }
void SDiffStore(Call& c) { StoreOp(c, Op::kDiff, "sdiffstore"); }

void SInterCard(Call& c) {
  int64_t numkeys = 0;
  if (!text::ParseInt64(c.arg(1), &numkeys) || numkeys < 1) {
    return c.Error(errors::kNumkeysNotPositive);
  }
  if (numkeys > c.argc() - 2) {
    return c.Error(errors::kNumkeysOverArgs);
  }
  int keys_end = 2 + static_cast<int>(numkeys);
  int64_t limit = 0;
  for (int i = keys_end; i < c.argc(); ++i) {
    if (text::EqualsNoCase(c.arg(i), "limit") && i + 1 < c.argc()) {
      if (!text::ParseInt64(c.arg(++i), &limit) || limit < 0) {
        return c.Error(errors::kLimitNegative);
      }
    } else {
      return c.Error(errors::kSyntax);
    }
  }
  std::vector<const SetValue*> sets;
  if (!ReadSets(c, 2, keys_end, &sets)) return;
  const SetValue* base = nullptr;
  c.Integer(static_cast<int64_t>(Intersect(sets, static_cast<uint64_t>(limit), &base).size()));
}

}  // namespace plinth::set
