// XINFO STREAM [FULL [COUNT n]], XINFO GROUPS, XINFO CONSUMERS and XINFO HELP, with Redis
// 7.0's fields (and its map replies: arrays of name/value pairs in RESP2).
#include <plinth/text.hpp>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/container.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

enum Sub { kConsumers, kGroups, kStream, kHelp };

void ReplyEntriesRead(const Call& c, int64_t entries_read) {
  if (entries_read != kInvalidEntriesRead) return c.Integer(entries_read);
  c.Null();
}

void ReplyLag(const Call& c, const Stream& s, const Group& g) {
  if (s.entries_added == 0) return c.Integer(0);
  if (g.entries_read != kInvalidEntriesRead && !RangeHasTombstones(s, g.last_id, StreamId::Max()))
    return c.Integer(static_cast<int64_t>(s.entries_added) - g.entries_read);
  const int64_t read = EstimateEntriesRead(s, g.last_id);
  if (read != kInvalidEntriesRead) return c.Integer(static_cast<int64_t>(s.entries_added) - read);
  c.Null();
}

void ReplyHeader(const Call& c, const Stream& s, bool full) {
  c.Map(full ? 9 : 10);
  c.Bulk("length");
  c.Integer(static_cast<int64_t>(s.length));
  c.Bulk("radix-tree-keys");
  c.Integer(static_cast<int64_t>(s.RaxKeys()));
  c.Bulk("radix-tree-nodes");
  c.Integer(static_cast<int64_t>(s.RaxNodes()));
  c.Bulk("last-generated-id");
  ReplyId(c, s.last_id);
  c.Bulk("max-deleted-entry-id");
  ReplyId(c, s.max_deleted_id);
  c.Bulk("entries-added");
  c.Integer(static_cast<int64_t>(s.entries_added));
  c.Bulk("recorded-first-entry-id");
  ReplyId(c, s.first_id);
}

void ReplyFullGroup(const Call& c, const Stream& s, const std::string& name, const Group& g,
                    size_t count) {
  c.Map(7);
  c.Bulk("name");
  c.Bulk(name);
  c.Bulk("last-delivered-id");
  ReplyId(c, g.last_id);
  c.Bulk("entries-read");
  ReplyEntriesRead(c, g.entries_read);
  c.Bulk("lag");
  ReplyLag(c, s, g);
  c.Bulk("pel-count");
  c.Integer(static_cast<int64_t>(g.pel.size()));
  c.Bulk("pending");
  const size_t npel = count ? std::min(count, g.pel.size()) : g.pel.size();
  c.Array(static_cast<int64_t>(npel));
  size_t i = 0;
  for (auto it = g.pel.begin(); i < npel; ++it, ++i) {
    c.Array(4);
    ReplyId(c, it->first);
    c.Bulk(it->second->consumer ? it->second->consumer->name : "");
    c.Integer(it->second->delivery_time);
    c.Integer(static_cast<int64_t>(it->second->delivery_count));
  }
  c.Bulk("consumers");
  c.Array(static_cast<int64_t>(g.consumers.size()));
  for (const auto& [cname, cons] : g.consumers) {
    c.Map(4);
    c.Bulk("name");
    c.Bulk(cname);
    c.Bulk("seen-time");
    c.Integer(cons->seen_time);
    c.Bulk("pel-count");
    c.Integer(static_cast<int64_t>(cons->pel.size()));
    c.Bulk("pending");
    const size_t n = count ? std::min(count, cons->pel.size()) : cons->pel.size();
    c.Array(static_cast<int64_t>(n));
    size_t k = 0;
    for (auto it = cons->pel.begin(); k < n; ++it, ++k) {
      c.Array(3);
      ReplyId(c, it->first);
      c.Integer(it->second->delivery_time);
      c.Integer(static_cast<int64_t>(it->second->delivery_count));
    }
  }
}

// Replies the first (or last) live entry; false when the stream is empty.
bool ReplyOneFirst(const Call& c, const Stream& s, bool last) {
  bool found = false;
  s.Range(StreamId{}, StreamId::Max(), last, 1, [&](const NodeEntry& e) {
    ReplyEntry(c, e);
    found = true;
    return false;
  });
  return found;
}

void StreamInfo(const Call& c, const Stream& s) {
  const int optc = c.argc() - 3;
  bool full = optc > 0;
  int64_t count = 10;
  if (full) {
    if ((optc != 1 && optc != 3) || !text::EqualsNoCase(c.arg(3), "full"))
      return SubcommandSyntaxError(c, "XINFO");
    if (optc == 3) {
      if (!text::EqualsNoCase(c.arg(4), "count")) return SubcommandSyntaxError(c, "XINFO");
      if (!IntArg(c, 5, &count)) return;
      if (count < 0) count = 10;
    }
  }
  ReplyHeader(c, s, full);
  if (!full) {
    c.Bulk("groups");
    c.Integer(static_cast<int64_t>(s.groups.size()));
    c.Bulk("first-entry");
    if (!ReplyOneFirst(c, s, false)) c.Null();
    c.Bulk("last-entry");
    if (!ReplyOneFirst(c, s, true)) c.Null();
    return;
  }
  c.Bulk("entries");
  ReplyRange(c, s, StreamId{}, StreamId::Max(), false, static_cast<size_t>(count));
  c.Bulk("groups");
  c.Array(static_cast<int64_t>(s.groups.size()));
  for (const auto& [name, g] : s.groups) ReplyFullGroup(c, s, name, *g, count);
}

}  // namespace

void XInfo(Call& c) {
  const int sub =
      FindSubcommand(c, "xinfo", {{"consumers", 4}, {"groups", 3}, {"stream", -3}, {"help", 2}});
  if (sub < 0) return;
  if (sub == kHelp)
    return ReplyHelp(
        c, "XINFO",
        {"CONSUMERS <key> <groupname>", "    Show consumers of <groupname>.", "GROUPS <key>",
         "    Show the stream consumer groups.", "STREAM <key> [FULL [COUNT <count>]",
         "    Show information about the stream."});
  const std::string_view key = c.arg(2);
  bool wrong = false;
  const Stream* s = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!s) return c.Error(errors::kNoSuchKey);
  if (sub == kStream) return StreamInfo(c, *s);
  if (sub == kGroups) {
    c.Array(static_cast<int64_t>(s->groups.size()));
    for (const auto& [name, g] : s->groups) {
      c.Map(6);
      c.Bulk("name");
      c.Bulk(name);
      c.Bulk("consumers");
      c.Integer(static_cast<int64_t>(g->consumers.size()));
      c.Bulk("pending");
      c.Integer(static_cast<int64_t>(g->pel.size()));
      c.Bulk("last-delivered-id");
      ReplyId(c, g->last_id);
      c.Bulk("entries-read");
      ReplyEntriesRead(c, g->entries_read);
      c.Bulk("lag");
      ReplyLag(c, *s, *g);
    }
    return;
  }
  const Group* g = s->FindGroup(c.arg(3));
  if (!g)
    return c.Error("NOGROUP No such consumer group '" + std::string(c.arg(3)) + "' for key name '" +
                   std::string(key) + "'");
  const int64_t now = c.NowMs();
  c.Array(static_cast<int64_t>(g->consumers.size()));
  for (const auto& [name, cons] : g->consumers) {
    c.Map(3);
    c.Bulk("name");
    c.Bulk(name);
    c.Bulk("pending");
    c.Integer(static_cast<int64_t>(cons->pel.size()));
    c.Bulk("idle");
    const int64_t idle = now - cons->seen_time;
    c.Integer(idle < 0 ? 0 : idle);
  }
}

}  // namespace plinth::stream
