// The stream-node layout over a listpack (see node.h).
#include "stream/node.h"

namespace plinth::stream::node {
namespace {

// Offset of the first entry after the master entry; *nfields gets the master field count and
// *fields their offsets.
size_t SkipMaster(const std::string& lp, int64_t* nfields, std::vector<size_t>* fields) {
  size_t p = lp::First();
  p = lp::Next(lp, p);  // count
  p = lp::Next(lp, p);  // deleted
  *nfields = lp::GetInt(lp, p);
  p = lp::Next(lp, p);
  for (int64_t i = 0; i < *nfields; ++i) {
    if (fields) fields->push_back(p);
    p = lp::Next(lp, p);
  }
  return lp::Next(lp, p);  // the 0 terminator
}

}  // namespace

std::string Create(const StreamId&, const std::vector<std::string_view>& fv) {
  std::string lp = lp::Create();
  const size_t n = fv.size() / 2;
  lp::AppendInt(&lp, 1);
  lp::AppendInt(&lp, 0);
  lp::AppendInt(&lp, static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i) lp::AppendString(&lp, fv[2 * i]);
  lp::AppendInt(&lp, 0);
  lp::AppendInt(&lp, kFlagSameFields);
  lp::AppendInt(&lp, 0);
  lp::AppendInt(&lp, 0);
  for (size_t i = 0; i < n; ++i) lp::AppendString(&lp, fv[2 * i + 1]);
  lp::AppendInt(&lp, static_cast<int64_t>(n + 3));
  return lp;
}

void Append(std::string* lp, const StreamId& master, const StreamId& id,
            const std::vector<std::string_view>& fv) {
  const int64_t n = static_cast<int64_t>(fv.size() / 2);
  lp::ReplaceInt(lp, lp::First(), LiveCount(*lp) + 1);
  int64_t nfields = 0;
  std::vector<size_t> fields;
  SkipMaster(*lp, &nfields, &fields);
  int64_t flags = 0;
  if (nfields == n) {
    int64_t i = 0;
    for (; i < n; ++i)
      if (lp::Get(*lp, fields[i]).Text() != fv[2 * i]) break;
    if (i == n) flags |= kFlagSameFields;
  }
  lp::AppendInt(lp, flags);
  lp::AppendInt(lp, static_cast<int64_t>(id.ms - master.ms));
  lp::AppendInt(lp, static_cast<int64_t>(id.seq - master.seq));
  const bool same = flags & kFlagSameFields;
  if (!same) lp::AppendInt(lp, n);
  for (int64_t i = 0; i < n; ++i) {
    if (!same) lp::AppendString(lp, fv[2 * i]);
    lp::AppendString(lp, fv[2 * i + 1]);
  }
  lp::AppendInt(lp, n + 3 + (same ? 0 : n + 1));
}

int64_t LiveCount(const std::string& lp) { return lp::GetInt(lp, lp::First()); }

int64_t DeletedCount(const std::string& lp) { return lp::GetInt(lp, lp::Next(lp, lp::First())); }

std::vector<NodeEntry> Parse(const std::string& lp, const StreamId& master, bool with_fields) {
  std::vector<NodeEntry> out;
  int64_t nfields = 0;
  std::vector<size_t> fields;
  size_t p = SkipMaster(lp, &nfields, &fields);
  while (!lp::AtEnd(lp, p)) {
    NodeEntry e;
    e.off = p;
    e.flags = lp::GetInt(lp, p);
    p = lp::Next(lp, p);
    e.id.ms = master.ms + static_cast<uint64_t>(lp::GetInt(lp, p));
    p = lp::Next(lp, p);
    e.id.seq = master.seq + static_cast<uint64_t>(lp::GetInt(lp, p));
    p = lp::Next(lp, p);
    if (e.flags & kFlagSameFields) {
      for (int64_t i = 0; i < nfields; ++i) {
        if (with_fields) e.fields.emplace_back(lp::Get(lp, fields[i]), lp::Get(lp, p));
        p = lp::Next(lp, p);
      }
    } else {
      const int64_t n = lp::GetInt(lp, p);
      p = lp::Next(lp, p);
      for (int64_t i = 0; i < n; ++i) {
        const size_t f = p;
        p = lp::Next(lp, p);
        if (with_fields) e.fields.emplace_back(lp::Get(lp, f), lp::Get(lp, p));
        p = lp::Next(lp, p);
      }
    }
    p = lp::Next(lp, p);  // lp-count
    out.push_back(std::move(e));
  }
  return out;
}

void MarkDeleted(std::string* lp, size_t off, int64_t flags) {
  lp::ReplaceInt(lp, off, flags | kFlagDeleted);
}

void AdjustCounts(std::string* lp, int64_t live_delta) {
  if (live_delta == 0) return;
  const int64_t live = LiveCount(*lp), deleted = DeletedCount(*lp);
  lp::ReplaceInt(lp, lp::First(), live + live_delta);
  lp::ReplaceInt(lp, lp::Next(*lp, lp::First()), deleted - live_delta);
}

bool Validate(const std::string& lp, const StreamId& master, int64_t* live, StreamId* last) {
  size_t count = 0;
  if (!lp::Validate(lp, &count) || count < 4) return false;
  // Walk with bounds: every element read below exists because count says so.
  size_t left = count;
  auto take = [&](size_t* p, int64_t* v, bool want_int) {
    if (left == 0 || lp::AtEnd(lp, *p)) return false;
    LpValue x = lp::Get(lp, *p);
    if (want_int && !x.is_int) return false;
    if (v) *v = x.is_int ? x.num : 0;
    *p = lp::Next(lp, *p);
    --left;
    return true;
  };
  size_t p = lp::First();
  int64_t lcount = 0, dcount = 0, nfields = 0, zero = 0;
  if (!take(&p, &lcount, true) || !take(&p, &dcount, true) || !take(&p, &nfields, true))
    return false;
  if (lcount < 0 || dcount < 0 || nfields < 0 || static_cast<size_t>(nfields) > left) return false;
  for (int64_t i = 0; i < nfields; ++i)
    if (!take(&p, nullptr, false)) return false;
  if (!take(&p, &zero, true) || zero != 0) return false;
  int64_t seen_live = 0, seen_deleted = 0;
  bool any = false;
  StreamId prev;
  while (left > 0) {
    int64_t flags = 0, dms = 0, dseq = 0, n = nfields;
    if (!take(&p, &flags, true) || !take(&p, &dms, true) || !take(&p, &dseq, true)) return false;
    const StreamId id{master.ms + static_cast<uint64_t>(dms),
                      master.seq + static_cast<uint64_t>(dseq)};
    if (id < master || (any && id <= prev)) return false;
    if (!(flags & kFlagSameFields) && (!take(&p, &n, true) || n < 0)) return false;
    const int64_t elems = (flags & kFlagSameFields) ? n : 2 * n;
    if (static_cast<uint64_t>(elems) > left) return false;
    for (int64_t i = 0; i < elems; ++i)
      if (!take(&p, nullptr, false)) return false;
    int64_t lpcount = 0;
    if (!take(&p, &lpcount, true)) return false;
    const int64_t want = n + 3 + ((flags & kFlagSameFields) ? 0 : n + 1);
    if (lpcount != want) return false;
    (flags & kFlagDeleted) ? ++seen_deleted : ++seen_live;
    prev = id;
    any = true;
  }
  if (!any || seen_live != lcount || seen_deleted != dcount || lcount == 0) return false;
  *live = lcount;
  *last = prev;
  return true;
}

}  // namespace plinth::stream::node
