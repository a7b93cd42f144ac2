// ZUNION, ZINTER, ZDIFF, ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE and ZINTERCARD (WEIGHTS,
// AGGREGATE SUM|MIN|MAX, WITHSCORES, LIMIT), following Redis 7.0's
// zunionInterDiffGenericCommand: argument order, error texts, NaN products and sums as 0, and
// results in ascending (score, member) order. A plain set ("set" key) is an input whose members
// score 1, read through value_visit.
#include <algorithm>
#include <cmath>
#include <memory>
#include <plinth/errors.hpp>
#include <plinth/keys.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "zset/access.h"
#include "zset/commands.h"
#include "zset/ranges.h"

namespace plinth::zset {
namespace {

using sdk::Call;
using text::EqualsNoCase;

enum class Op { kUnion, kInter, kDiff };
enum class Agg { kSum, kMin, kMax };

struct Source {
  const ZSet* z = nullptr;      // nullptr: a missing key (an empty set)
  std::shared_ptr<ZSet> plain;  // a plain set's members, each with score 1 (z points here)
  double weight = 1;
};

using Entries = std::vector<std::pair<std::string_view, double>>;

// The plain set under key as a sorted set of its members with score 1, or nullptr when key
// holds another type.
std::shared_ptr<ZSet> PlainSet(const Call& c, std::string_view key) {
  const plinth_value_t* v = c.Get(key);
  const char* type = sdk::Api().type_name(sdk::Host::self, sdk::Api().value_type(v));
  if (std::string_view(type) != "set") return nullptr;
  std::vector<std::string> members;
  auto add = [](void* arg, const char* m, size_t n, double) {
    static_cast<std::vector<std::string>*>(arg)->emplace_back(m, n);
  };
  if (sdk::Api().value_visit(v, add, &members) != PLINTH_OK) return nullptr;
  std::sort(members.begin(), members.end());
  Entries entries;
  entries.reserve(members.size());
  for (const std::string& m : members) entries.emplace_back(m, 1.0);
  return ZSet::FromSorted(entries);
}

void Aggregate(Agg agg, double* target, double v) {
  if (agg == Agg::kSum) {
    *target += v;
    if (std::isnan(*target)) *target = 0;
  } else if (agg == Agg::kMin) {
    *target = std::min(*target, v);
  } else {
    *target = std::max(*target, v);
  }
}

double Weighted(double score, double weight) {
  const double v = score * weight;
  return std::isnan(v) ? 0 : v;
}

size_t SizeOf(const Source& s) { return s.z ? s.z->Size() : 0; }

void SortEntries(Entries* out) {
  std::sort(out->begin(), out->end(), [](const auto& a, const auto& b) {
    return EntryLess(a.second, a.first, b.second, b.first);
  });
}

Entries Union(std::vector<Source> src, Agg agg) {
  std::stable_sort(src.begin(), src.end(),
                   [](const Source& a, const Source& b) { return SizeOf(a) < SizeOf(b); });
  std::unordered_map<std::string_view, double> acc;
  for (const Source& s : src) {
    if (!s.z) continue;
    for (Cursor c = s.z->At(0); c.Valid(); c.Next()) {
      const double v = Weighted(c.Score(), s.weight);
      auto [it, fresh] = acc.emplace(c.Member(), v);
      if (!fresh) Aggregate(agg, &it->second, v);
    }
  }
  Entries out(acc.begin(), acc.end());
  SortEntries(&out);
  return out;
}

// The intersection; with limit > 0 it stops after that many members (ZINTERCARD).
Entries Inter(std::vector<Source> src, Agg agg, size_t limit) {
  Entries out;
  for (const Source& s : src)
    if (!s.z) return out;
  std::stable_sort(src.begin(), src.end(),
                   [](const Source& a, const Source& b) { return SizeOf(a) < SizeOf(b); });
  for (Cursor c = src[0].z->At(0); c.Valid(); c.Next()) {
    double score = Weighted(c.Score(), src[0].weight);
    bool all = true;
    for (size_t j = 1; j < src.size() && all; ++j) {
      double other = 0;
      if (!src[j].z->Score(c.Member(), &other)) {
        all = false;
        break;
      }
      Aggregate(agg, &score, Weighted(other, src[j].weight));
    }
    if (!all) continue;
    out.emplace_back(c.Member(), score);
    if (limit && out.size() >= limit) break;
  }
  SortEntries(&out);
  return out;
}

Entries Diff(const std::vector<Source>& src) {
  Entries out;
  if (!src[0].z) return out;
  for (Cursor c = src[0].z->At(0); c.Valid(); c.Next()) {
    bool elsewhere = false;
    double ignored = 0;
    for (size_t j = 1; j < src.size() && !elsewhere; ++j)
      elsewhere = src[j].z && src[j].z->Score(c.Member(), &ignored);
    if (!elsewhere) out.emplace_back(c.Member(), c.Score());
  }
  return out;  // already in the first set's order
}

struct Options {
  Agg agg = Agg::kSum;
  bool withscores = false;
  int64_t limit = 0;
};

// Parses WEIGHTS / AGGREGATE / WITHSCORES / LIMIT from argv[j]; replies on error.
bool ParseOptions(const Call& c, int j, Op op, bool store, bool card, std::vector<Source>* src,
                  Options* o) {
  const auto setnum = static_cast<int>(src->size());
  while (j < c.argc()) {
    const int remaining = c.argc() - j;
    const std::string_view w = c.arg(j);
    if (op != Op::kDiff && !card && remaining >= setnum + 1 && EqualsNoCase(w, "weights")) {
      ++j;
      for (int i = 0; i < setnum; ++i, ++j) {
        if (!ParseScore(c.arg(j), &(*src)[static_cast<size_t>(i)].weight)) {
          c.Error("ERR weight value is not a float");
          return false;
        }
      }
    } else if (op != Op::kDiff && !card && remaining >= 2 && EqualsNoCase(w, "aggregate")) {
      const std::string_view a = c.arg(j + 1);
      if (EqualsNoCase(a, "sum")) {
        o->agg = Agg::kSum;
      } else if (EqualsNoCase(a, "min")) {
        o->agg = Agg::kMin;
      } else if (EqualsNoCase(a, "max")) {
        o->agg = Agg::kMax;
      } else {
        c.Error(errors::kSyntax);
        return false;
      }
      j += 2;
    } else if (!store && !card && EqualsNoCase(w, "withscores")) {
      o->withscores = true;
      ++j;
    } else if (card && remaining >= 2 && EqualsNoCase(w, "limit")) {
      if (!text::ParseInt64(c.arg(j + 1), &o->limit) || o->limit < 0) {
        c.Error(errors::kLimitNegative);
        return false;
      }
      j += 2;
    } else {
      c.Error(errors::kSyntax);
      return false;
    }
  }
  return true;
}

void Reply(const Call& c, const Entries& result, bool withscores) {
  const EntryReply out(c, withscores);
  out.Begin(result.size());
  for (const auto& e : result) out.Add(e.first, e.second);
}

void StoreResult(const Call& c, std::string_view dst, const Entries& result, Op op) {
  if (result.empty()) {
    if (c.Delete(dst))
      sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", dst.data(), dst.size());
    return c.Integer(0);
  }
  StoreZset(c, dst, ZSet::FromSorted(result));
  Notify(c,
         op == Op::kUnion   ? "zunionstore"
         : op == Op::kInter ? "zinterstore"
                            : "zdiffstore",
         dst);
  c.Integer(static_cast<int64_t>(result.size()));
}

// numkeys is argv[idx]; store: argv[1] is the destination; card: ZINTERCARD.
void SetOpGeneric(Call& c, int idx, Op op, bool store, bool card) {
  int64_t setnum = 0;
  if (!text::ParseInt64(c.arg(idx), &setnum)) return c.Error(errors::kNotInteger);
  if (setnum < 1) {
    return c.Error("ERR at least 1 input key is needed for '" + text::ToLower(c.arg(0)) +
                   "' command");
  }
  if (setnum > c.argc() - (idx + 1)) return c.Error(errors::kSyntax);
  std::vector<Source> src(static_cast<size_t>(setnum));
  int j = idx + 1;
  for (auto& s : src) {
    const std::string_view key = c.arg(j++);
    if (ReadZset(c, key, &s.z) != Found::kWrongType) continue;
    s.plain = PlainSet(c, key);
    if (!s.plain) return c.Error(errors::kWrongType);
    s.z = s.plain.get();
  }
  Options o;
  if (!ParseOptions(c, j, op, store, card, &src, &o)) return;
  if (card)
    return c.Integer(
        static_cast<int64_t>(Inter(src, Agg::kSum, static_cast<size_t>(o.limit)).size()));
  const Entries result = op == Op::kUnion   ? Union(src, o.agg)
                         : op == Op::kInter ? Inter(src, o.agg, 0)
                                            : Diff(src);
  if (store) return StoreResult(c, c.arg(1), result, op);
  Reply(c, result, o.withscores);
}

void ZUnion(Call& c) { SetOpGeneric(c, 1, Op::kUnion, false, false); }
void ZInter(Call& c) { SetOpGeneric(c, 1, Op::kInter, false, false); }
void ZDiff(Call& c) { SetOpGeneric(c, 1, Op::kDiff, false, false); }
void ZUnionStore(Call& c) { SetOpGeneric(c, 2, Op::kUnion, true, false); }
void ZInterStore(Call& c) { SetOpGeneric(c, 2, Op::kInter, true, false); }
void ZDiffStore(Call& c) { SetOpGeneric(c, 2, Op::kDiff, true, false); }
void ZInterCard(Call& c) { SetOpGeneric(c, 1, Op::kInter, false, true); }

constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kWD = PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM;

const sdk::CommandDef kCommands[] = {
    {"zunion", -3, kR, 0, 0, 0, &ZUnion, "sorted-set",
     "numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]",
     "Add multiple sorted sets", "6.2.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ>},
    {"zinter", -3, kR, 0, 0, 0, &ZInter, "sorted-set",
     "numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]",
     "Intersect multiple sorted sets", "6.2.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ>},
    {"zdiff", -3, kR, 0, 0, 0, &ZDiff, "sorted-set", "numkeys key [key ...] [WITHSCORES]",
     "Subtract multiple sorted sets", "6.2.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ>},
    {"zunionstore", -4, kWD, 1, 1, 1, &ZUnionStore, "sorted-set",
     "destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM|MIN|MAX]",
     "Add multiple sorted sets and store the resulting sorted set in a new key", "2.0.0",
     PLINTH_ACL_SORTEDSET, 0, &sdk::DestAndNumkeys<PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"zinterstore", -4, kWD, 1, 1, 1, &ZInterStore, "sorted-set",
     "destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM|MIN|MAX]",
     "Intersect multiple sorted sets and store the resulting sorted set in a new key", "2.0.0",
     PLINTH_ACL_SORTEDSET, 0, &sdk::DestAndNumkeys<PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"zdiffstore", -4, kWD, 1, 1, 1, &ZDiffStore, "sorted-set", "destination numkeys key [key ...]",
     "Subtract multiple sorted sets and store the resulting sorted set in a new key", "6.2.0",
     PLINTH_ACL_SORTEDSET, 0, &sdk::DestAndNumkeys<PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
    {"zintercard", -3, kR, 0, 0, 0, &ZInterCard, "sorted-set",
     "numkeys key [key ...] [LIMIT limit]",
     "Intersect multiple sorted sets and return the cardinality of the result", "7.0.0",
     PLINTH_ACL_SORTEDSET, 0, &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ>},
};

}  // namespace

bool RegisterSetOpCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
