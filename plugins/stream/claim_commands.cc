// XCLAIM and XAUTOCLAIM: moving pending entries to another consumer. Each claim propagates as
// an idempotent XCLAIM ... FORCE JUSTID LASTID, an entry no longer in the stream leaves the
// PEL (XAUTOCLAIM reports those ids), as Redis 7.0 does.
#include <plinth/text.hpp>
#include <vector>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/delivery.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

using text::EqualsNoCase;

std::string NoGroup(const Call& c) {
  return "NOGROUP No such key '" + std::string(c.arg(1)) + "' or consumer group '" +
         std::string(c.arg(2)) + "'";
}

struct ClaimOpts {
  int64_t minidle = 0, retrycount = -1, deliverytime = -1;
  bool force = false, justid = false;
  StreamId last_id;
};

// Parses XCLAIM's ids (from argument 5) and options. Returns false after replying.
bool ParseClaim(const Call& c, int64_t now, std::vector<StreamId>* ids, ClaimOpts* o) {
  int j = 5;
  for (; j < c.argc(); ++j) {
    StreamId id;
    if (!ParseId(c.arg(j), &id, true, 0)) break;
    ids->push_back(id);
  }
  for (; j < c.argc(); ++j) {
    const int moreargs = c.argc() - 1 - j;
    const std::string_view opt = c.arg(j);
    if (EqualsNoCase(opt, "FORCE")) {
      o->force = true;
    } else if (EqualsNoCase(opt, "JUSTID")) {
      o->justid = true;
    } else if (EqualsNoCase(opt, "IDLE") && moreargs) {
      if (!IntArg(c, ++j, &o->deliverytime, "Invalid IDLE option argument for XCLAIM"))
        return false;
      // The idle time is the client's number: past the range, the claim counts as delivered
      // now (as any out-of-range delivery time is below).
      if (__builtin_sub_overflow(now, o->deliverytime, &o->deliverytime)) o->deliverytime = now;
    } else if (EqualsNoCase(opt, "TIME") && moreargs) {
      if (!IntArg(c, ++j, &o->deliverytime, "Invalid TIME option argument for XCLAIM"))
        return false;
    } else if (EqualsNoCase(opt, "RETRYCOUNT") && moreargs) {
      if (!IntArg(c, ++j, &o->retrycount, "Invalid RETRYCOUNT option argument for XCLAIM"))
        return false;
    } else if (EqualsNoCase(opt, "LASTID") && moreargs) {
      if (!StrictIdArg(c, ++j, &o->last_id)) return false;
    } else {
      c.Error("ERR Unrecognized XCLAIM option '" + std::string(opt) + "'");
      return false;
    }
  }
  return true;
}

}  // namespace

void XClaim(Call& c) {
  sdk::Api().call_no_propagate(c.raw());
  const std::string_view key = c.arg(1), gname = c.arg(2);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro || !ro->FindGroup(gname)) return c.Error(NoGroup(c));
  ClaimOpts o;
  if (!IntArg(c, 4, &o.minidle, "Invalid min-idle-time argument for XCLAIM")) return;
  if (o.minidle < 0) o.minidle = 0;
  const int64_t now = c.NowMs();
  std::vector<StreamId> ids;
  if (!ParseClaim(c, now, &ids, &o)) return;
  Stream* s = MutableStream(c, key);
  Group* g = s->FindGroup(gname);
  const GroupRef ref{key, gname};
  bool propagate_last_id = false;
  if (o.last_id > g->last_id) {
    g->last_id = o.last_id;
    propagate_last_id = true;
  }
  if (o.deliverytime != -1) {
    if (o.deliverytime < 0 || o.deliverytime > now) o.deliverytime = now;
  } else {
    o.deliverytime = now;
  }
  // Replies are gathered first: the array's length is known only at the end.
  std::vector<StreamId> claimed;
  Consumer* consumer = nullptr;
  for (const StreamId& id : ids) {
    auto it = g->pel.find(id);
    Nack* nack = it == g->pel.end() ? nullptr : it->second.get();
    if (!s->Exists(id)) {
      if (nack) {
        PropagateClaim(c, ref, *g, id, *nack);
        propagate_last_id = false;
        g->Ack(id);
      }
      continue;
    }
    if (o.force && !nack) nack = g->pel.emplace(id, std::make_unique<Nack>()).first->second.get();
    if (!nack) continue;
    if (nack->consumer && o.minidle && now - nack->delivery_time < o.minidle) continue;
    if (!consumer) consumer = LookupOrCreateConsumer(c, ref, g, c.arg(3));
    if (nack->consumer != consumer && nack->consumer) nack->consumer->pel.erase(id);
    nack->delivery_time = o.deliverytime;
    if (o.retrycount >= 0) {
      nack->delivery_count = static_cast<uint64_t>(o.retrycount);
    } else if (!o.justid) {
      ++nack->delivery_count;
    }
    if (nack->consumer != consumer) {
      consumer->pel[id] = nack;
      nack->consumer = consumer;
    }
    claimed.push_back(id);
    PropagateClaim(c, ref, *g, id, *nack);
    propagate_last_id = false;
  }
  if (propagate_last_id) PropagateGroupId(c, ref, *g);
  c.Array(static_cast<int64_t>(claimed.size()));
  for (const StreamId& id : claimed) {
    if (o.justid) {
      ReplyId(c, id);
    } else if (!ReplyOneEntry(c, *s, id)) {
      c.Null();
    }
  }
}

void XAutoClaim(Call& c) {
  sdk::Api().call_no_propagate(c.raw());
  const std::string_view key = c.arg(1), gname = c.arg(2);
  int64_t minidle = 0, count = 100;
  bool justid = false;
  if (!IntArg(c, 4, &minidle, "Invalid min-idle-time argument for XAUTOCLAIM")) return;
  if (minidle < 0) minidle = 0;
  StreamId start;
  bool startex = false;
  if (!ParseRangeId(c.arg(5), &start, &startex, 0)) return c.Error(kErrInvalidId);
  if (startex && !start.Incr()) return c.Error(kErrInvalidStart);
  for (int j = 6; j < c.argc(); ++j) {
    const int moreargs = c.argc() - 1 - j;
    if (EqualsNoCase(c.arg(j), "COUNT") && moreargs) {
      constexpr int64_t kMaxCount = INT64_MAX / 16;
      if (!text::ParseInt64(c.arg(j + 1), &count) || count < 1 || count > kMaxCount)
        return c.Error("ERR COUNT must be > 0");
      ++j;
    } else if (EqualsNoCase(c.arg(j), "JUSTID")) {
      justid = true;
    } else {
      return c.Error(errors::kSyntax);
    }
  }
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!ro || !ro->FindGroup(gname)) return c.Error(NoGroup(c));
  Stream* s = MutableStream(c, key);
  Group* g = s->FindGroup(gname);
  const GroupRef ref{key, gname};
  Consumer* consumer = LookupOrCreateConsumer(c, ref, g, c.arg(3));
  int64_t attempts = count * 10;
  const int64_t now = c.NowMs();
  std::vector<StreamId> claimed, deleted;
  auto it = g->pel.lower_bound(start);
  while (attempts-- && count && it != g->pel.end()) {
    const StreamId id = it->first;
    Nack* nack = it->second.get();
    ++it;
    if (!s->Exists(id)) {
      PropagateClaim(c, ref, *g, id, *nack);
      g->Ack(id);
      deleted.push_back(id);
      --count;
      continue;
    }
    if (minidle && now - nack->delivery_time < minidle) continue;
    g->Assign(id, nack, consumer);
    nack->delivery_time = now;
    if (!justid) ++nack->delivery_count;
    claimed.push_back(id);
    --count;
    PropagateClaim(c, ref, *g, id, *nack);
  }
  const StreamId next = it == g->pel.end() ? StreamId{} : it->first;
  c.Array(3);
  ReplyId(c, next);
  c.Array(static_cast<int64_t>(claimed.size()));
  for (const StreamId& id : claimed) {
    if (justid) {
      ReplyId(c, id);
    } else {
      ReplyOneEntry(c, *s, id);
    }
  }
  c.Array(static_cast<int64_t>(deleted.size()));
  for (const StreamId& id : deleted) ReplyId(c, id);
}

}  // namespace plinth::stream
