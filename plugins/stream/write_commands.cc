// XADD, XTRIM, XDEL and XSETID. A command takes the writable stream (key_payload_mut) only
// once it knows it will change it, so a failed or empty command neither copies a shared value
// nor propagates. XADD and an approximate XTRIM propagate their rewritten form (the generated
// id, the trim made exact) as Redis does.
#include <memory>
#include <plinth/text.hpp>
#include <vector>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/errors.h"
#include "stream/trim_args.h"

namespace plinth::stream {
namespace {

constexpr uint64_t kMaxNodeBytes = uint64_t{1} << 30;

// The id XADD would give an entry in s (nullptr: a new stream), or false for an id that is not
// above the last one.
bool NextId(const Call& c, const Stream* s, const AddTrimArgs& a, StreamId* id) {
  const StreamId last = s ? s->last_id : StreamId{};
  if (a.id_given) {
    if (a.seq_given) {
      *id = a.id;
    } else if (last.ms == a.id.ms) {
      if (last.seq == UINT64_MAX) return false;  // Redis 7.0 words it "too large"
      *id = StreamId{last.ms, last.seq + 1};
    } else {
      *id = StreamId{a.id.ms, 0};
    }
  } else {
    const uint64_t now = static_cast<uint64_t>(c.NowMs());
    if (now > last.ms) {
      *id = StreamId{now, 0};
    } else {
      *id = last;
      id->Incr();
    }
  }
  return *id > last;
}

}  // namespace

void XAdd(Call& c) {
  AddTrimArgs a;
  const int idpos = ParseAddTrimArgs(c, true, &a);
  if (idpos < 0) return;
  const int field_pos = idpos + 1;
  const int nargs = c.argc() - field_pos;
  if (nargs < 2 || nargs % 2 == 1)
    return c.Error("ERR wrong number of arguments for 'xadd' command");
  if (a.id_given && a.seq_given && a.id.IsZero()) return c.Error(kErrIdZero);
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro && a.no_mkstream) return c.Null();
  if (ro && ro->last_id.IsMax()) return c.Error(kErrExhausted);
  StreamId id;
  if (!NextId(c, ro, a, &id)) {
    const bool overflow = ro && a.id_given && !a.seq_given && ro->last_id.ms == a.id.ms &&
                          ro->last_id.seq == UINT64_MAX;
    return c.Error(overflow ? kErrTooLarge : kErrIdTooSmall);
  }
  std::vector<std::string_view> fv;
  uint64_t total = 0;
  for (int i = field_pos; i < c.argc(); ++i) {
    fv.push_back(c.arg(i));
    total += fv.back().size();
  }
  if (total > kMaxNodeBytes) return c.Error(kErrTooLarge);
  Stream* s = nullptr;
  if (ro) {
    s = MutableStream(c, key);
  } else {
    auto fresh = std::make_unique<Stream>();
    s = fresh.get();
    StoreStream(c, key, std::move(fresh));
  }
  s->Append(id, fv);
  ReplyId(c, id);
  Notify(c, "xadd", key);
  if (s->Trim(a.trim)) Notify(c, "xtrim", key);
  Propagate(c, "XADD", RewriteForPropagation(c, a, *s, idpos, &id));
  if (ro) SignalReady(c, key);
}

void XTrim(Call& c) {
  AddTrimArgs a;
  if (ParseAddTrimArgs(c, false, &a) < 0) return;
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro) return c.Integer(0);
  // Trim a copy first when the value is shared: a trim that removes nothing changes nothing.
  Stream probe(*ro);
  probe.groups.clear();
  if (probe.Trim(a.trim) == 0) return c.Integer(0);
  Stream* s = MutableStream(c, key);
  const int64_t deleted = s->Trim(a.trim);
  Notify(c, "xtrim", key);
  if (a.trim.approx) Propagate(c, "XTRIM", RewriteForPropagation(c, a, *s, 0, nullptr));
  c.Integer(deleted);
}

void XDel(Call& c) {
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro) return c.Integer(0);
  std::vector<StreamId> ids;
  if (!StrictIdArgs(c, 2, &ids)) return;
  bool any = false;
  for (const StreamId& id : ids) any = any || ro->Exists(id);
  if (!any) return c.Integer(0);
  Stream* s = MutableStream(c, key);
  int64_t deleted = 0;
  bool first_entry = false;
  for (const StreamId& id : ids) {
    if (!s->Delete(id)) continue;
    if (id == s->first_id) first_entry = true;
    if (id > s->max_deleted_id) s->max_deleted_id = id;
    ++deleted;
  }
  if (s->length == 0) {
    s->first_id = StreamId{};
  } else if (first_entry) {
    s->RefreshFirstId();
  }
  Notify(c, "xdel", key);
  c.Integer(deleted);
}

void XSetId(Call& c) {
  StreamId id, max_xdel;
  int64_t entries_added = -1;
  if (!StrictIdArg(c, 2, &id)) return;
  for (int i = 3; i < c.argc();) {
    const int moreargs = c.argc() - 1 - i;
    const std::string_view opt = c.arg(i);
    if (text::EqualsNoCase(opt, "ENTRIESADDED") && moreargs) {
      if (!IntArg(c, i + 1, &entries_added)) return;
      if (entries_added < 0) return c.Error("ERR entries_added must be positive");
      i += 2;
    } else if (text::EqualsNoCase(opt, "MAXDELETEDID") && moreargs) {
      if (!StrictIdArg(c, i + 1, &max_xdel)) return;
      if (id < max_xdel)
        return c.Error(
            "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
      i += 2;
    } else {
      return c.Error(errors::kSyntax);
    }
  }
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro) return c.Error(errors::kNoSuchKey);
  if (ro->length > 0) {
    StreamId maxid;
    ro->LastLive(&maxid);
    if (id < maxid)
      return c.Error("ERR The ID specified in XSETID is smaller than the target stream top item");
    if (entries_added != -1 && ro->length > static_cast<uint64_t>(entries_added))
      return c.Error(
          "ERR The entries_added specified in XSETID is smaller than the target stream length");
  }
  Stream* s = MutableStream(c, key);
  s->last_id = id;
  if (entries_added != -1) s->entries_added = static_cast<uint64_t>(entries_added);
  if (!max_xdel.IsZero()) s->max_deleted_id = max_xdel;
  c.Ok();
  Notify(c, "xsetid", key);
}

}  // namespace plinth::stream
