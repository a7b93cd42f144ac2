// XPENDING: the summary form (count, smallest and largest pending ids, pending per consumer)
// and the extended form (IDLE, start, end, count, consumer).
#include <plinth/text.hpp>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/errors.h"

namespace plinth::stream {

void XPending(Call& c) {
  const int argc = c.argc();
  const bool justinfo = argc == 3;
  if (argc != 3 && (argc < 6 || argc > 9)) return c.Error(errors::kSyntax);
  StreamId start, end;
  int64_t count = 0, minidle = 0;
  std::string_view consumer_name;
  bool has_consumer = false;
  if (argc >= 6) {
    int idx = 3;
    if (text::EqualsNoCase(c.arg(3), "IDLE")) {
      if (!IntArg(c, 4, &minidle)) return;
      if (argc < 8) return c.Error(errors::kSyntax);
      idx += 2;
    }
    if (!IntArg(c, idx + 2, &count)) return;
    if (count < 0) count = 0;
    bool startex = false, endex = false;
    if (!ParseRangeId(c.arg(idx), &start, &startex, 0)) return c.Error(kErrInvalidId);
    if (startex && !start.Incr()) return c.Error(kErrInvalidStart);
    if (!ParseRangeId(c.arg(idx + 1), &end, &endex, UINT64_MAX)) return c.Error(kErrInvalidId);
    if (endex && !end.Decr()) return c.Error(kErrInvalidEnd);
    if (idx + 3 < argc) {
      consumer_name = c.arg(idx + 3);
      has_consumer = true;
    }
  }
  bool wrong = false;
  const Stream* s = FindStream(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  const Group* g = s ? s->FindGroup(c.arg(2)) : nullptr;
  if (!g)
    return c.Error("NOGROUP No such key '" + std::string(c.arg(1)) + "' or consumer group '" +
                   std::string(c.arg(2)) + "'");
  if (justinfo) {
    c.Array(4);
    c.Integer(static_cast<int64_t>(g->pel.size()));
    if (g->pel.empty()) {
      c.Null();
      c.Null();
      return c.NullArray();
    }
    ReplyId(c, g->pel.begin()->first);
    ReplyId(c, g->pel.rbegin()->first);
    int64_t n = 0;
    for (const auto& [name, cons] : g->consumers) n += cons->pel.empty() ? 0 : 1;
    c.Array(n);
    for (const auto& [name, cons] : g->consumers) {
      if (cons->pel.empty()) continue;
      c.Array(2);
      c.Bulk(name);
      c.Bulk(std::to_string(cons->pel.size()));
    }
    return;
  }
  const Consumer* consumer = nullptr;
  if (has_consumer) {
    consumer = g->Find(consumer_name);
    if (!consumer) return c.Array(0);
  }
  const int64_t now = c.NowMs();
  std::vector<std::pair<StreamId, const Nack*>> out;
  auto visit = [&](const StreamId& id, const Nack* n) {
    if (minidle && now - n->delivery_time < minidle) return;
    out.emplace_back(id, n);
    --count;
  };
  if (consumer) {
    for (auto it = consumer->pel.lower_bound(start); count && it != consumer->pel.end(); ++it) {
      if (it->first > end) break;
      visit(it->first, it->second);
    }
  } else {
    for (auto it = g->pel.lower_bound(start); count && it != g->pel.end(); ++it) {
      if (it->first > end) break;
      visit(it->first, it->second.get());
    }
  }
  c.Array(static_cast<int64_t>(out.size()));
  for (const auto& [id, n] : out) {
    c.Array(4);
    ReplyId(c, id);
    c.Bulk(n->consumer ? n->consumer->name : "");
    const int64_t elapsed = now - n->delivery_time;
    c.Integer(elapsed < 0 ? 0 : elapsed);
    c.Integer(static_cast<int64_t>(n->delivery_count));
  }
}

}  // namespace plinth::stream
