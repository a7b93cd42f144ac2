// Consumer group reads (see delivery.h).
#include "stream/delivery.h"

#include <vector>

namespace plinth::stream {

Consumer* LookupOrCreateConsumer(const Call& c, const GroupRef& ref, Group* g,
                                 std::string_view name) {
  Consumer* consumer = g->Find(name);
  if (!consumer) {
    consumer = g->Create(name, c.NowMs());
    Notify(c, "xgroup-createconsumer", ref.key);
    Propagate(c, "XGROUP",
              {"CREATECONSUMER", std::string(ref.key), std::string(ref.group), std::string(name)});
  }
  consumer->seen_time = c.NowMs();
  return consumer;
}

void PropagateClaim(const Call& c, const GroupRef& ref, const Group& g, const StreamId& id,
                    const Nack& n) {
  Propagate(c, "XCLAIM",
            {std::string(ref.key), std::string(ref.group), n.consumer ? n.consumer->name : "", "0",
             id.ToString(), "TIME", std::to_string(n.delivery_time), "RETRYCOUNT",
             std::to_string(n.delivery_count), "FORCE", "JUSTID", "LASTID", g.last_id.ToString()});
}

void PropagateGroupId(const Call& c, const GroupRef& ref, const Group& g) {
  Propagate(c, "XGROUP",
            {"SETID", std::string(ref.key), std::string(ref.group), g.last_id.ToString(),
             "ENTRIESREAD", std::to_string(g.entries_read)});
}

size_t DeliverNew(const Call& c, const GroupRef& ref, Stream* s, Group* g, Consumer* consumer,
                  const StreamId& start, size_t count, bool noack) {
  std::vector<NodeEntry> got;
  s->Range(start, StreamId::Max(), false, count, [&got](const NodeEntry& e) {
    got.push_back(e);
    return true;
  });
  c.Array(static_cast<int64_t>(got.size()));
  bool propagate_last_id = false;
  const int64_t now = c.NowMs();
  for (const NodeEntry& e : got) {
    if (e.id > g->last_id) {
      if (g->entries_read != kInvalidEntriesRead &&
          !RangeHasTombstones(*s, e.id, StreamId::Max())) {
        ++g->entries_read;
      } else if (s->entries_added) {
        g->entries_read = EstimateEntriesRead(*s, e.id);
      }
      g->last_id = e.id;
      if (noack) propagate_last_id = true;
    }
    ReplyEntry(c, e);
    if (!noack) {
      Nack* n = g->Deliver(e.id, consumer, now);
      PropagateClaim(c, ref, *g, e.id, *n);
    }
  }
  if (propagate_last_id) PropagateGroupId(c, ref, *g);
  return got.size();
}

size_t DeliverHistory(const Call& c, const Stream& s, Consumer* consumer, const StreamId& start,
                      size_t count) {
  std::vector<std::pair<StreamId, Nack*>> ids;
  for (auto it = consumer->pel.lower_bound(start); it != consumer->pel.end(); ++it) {
    if (count && ids.size() == count) break;
    ids.emplace_back(it->first, it->second);
  }
  c.Array(static_cast<int64_t>(ids.size()));
  for (auto& [id, nack] : ids) {
    if (ReplyOneEntry(c, s, id)) {
      nack->delivery_time = c.NowMs();
      ++nack->delivery_count;
    } else {
      c.Array(2);
      ReplyId(c, id);
      c.NullArray();
    }
  }
  return ids.size();
}

}  // namespace plinth::stream
