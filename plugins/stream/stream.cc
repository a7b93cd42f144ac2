// The stream value (see stream.h).
#include "stream/stream.h"

#include <array>

namespace plinth::stream {
namespace {

constexpr int64_t kMaxNodeBytes = int64_t{1} << 30;

using Key = std::array<unsigned char, 16>;

// Nodes of a compressed radix tree (Redis's rax) holding keys[lo, hi), which all share their
// first d bytes and sit under one rax node at depth d.
size_t CountRax(const std::vector<Key>& keys, size_t lo, size_t hi, size_t d) {
  if (d == 16) return 1;
  if (hi - lo == 1) return 2;  // a compressed node with the rest of the key, then the leaf
  // Common prefix of the group past d: the first and last keys bound it (sorted input).
  size_t l = 0;
  while (d + l < 16 && keys[lo][d + l] == keys[hi - 1][d + l]) ++l;
  if (l > 0) return 1 + CountRax(keys, lo, hi, d + l);
  size_t total = 1;
  for (size_t i = lo; i < hi;) {
    size_t j = i;
    while (j < hi && keys[j][d] == keys[i][d]) ++j;
    total += CountRax(keys, i, j, d + 1);
    i = j;
  }
  return total;
}

}  // namespace

NodeLimits& CurrentLimits() {
  static NodeLimits limits;
  return limits;
}

Stream::Stream(const Stream& o)
    : nodes(o.nodes),
      length(o.length),
      last_id(o.last_id),
      first_id(o.first_id),
      max_deleted_id(o.max_deleted_id),
      entries_added(o.entries_added) {
  for (const auto& [name, g] : o.groups) groups.emplace(name, std::make_unique<Group>(*g));
}

void Stream::Append(const StreamId& id, const std::vector<std::string_view>& fv) {
  size_t total = 0;
  for (std::string_view s : fv) total += s.size();
  std::string* lp = nodes.empty() ? nullptr : &nodes.rbegin()->second;
  if (lp) {
    int64_t max_bytes = CurrentLimits().max_bytes;
    if (max_bytes == 0 || max_bytes > kMaxNodeBytes) max_bytes = kMaxNodeBytes;
    const int64_t max_entries = CurrentLimits().max_entries;
    if (static_cast<int64_t>(lp->size() + total) >= max_bytes) {
      lp = nullptr;
    } else if (max_entries && node::LiveCount(*lp) + node::DeletedCount(*lp) >= max_entries) {
      lp = nullptr;
    }
  }
  if (lp) {
    node::Append(lp, nodes.rbegin()->first, id, fv);
  } else {
    nodes.emplace(id, node::Create(id, fv));
  }
  ++length;
  ++entries_added;
  last_id = id;
  if (length == 1) first_id = id;
}

bool Stream::Delete(const StreamId& id) {
  auto it = nodes.upper_bound(id);
  if (it == nodes.begin()) return false;
  --it;
  for (const NodeEntry& e : node::Parse(it->second, it->first, false)) {
    if (e.id != id) continue;
    if (e.Deleted()) return false;
    if (node::LiveCount(it->second) == 1) {
      nodes.erase(it);
    } else {
      node::MarkDeleted(&it->second, e.off, e.flags);
      node::AdjustCounts(&it->second, -1);
    }
    --length;
    return true;
  }
  return false;
}

bool Stream::Exists(const StreamId& id) const {
  return Range(id, id, false, 1, [](const NodeEntry&) { return true; }) == 1;
}

bool Stream::FirstLive(StreamId* id) const {
  return Range(StreamId{}, StreamId::Max(), false, 1, [id](const NodeEntry& e) {
           *id = e.id;
           return true;
         }) == 1;
}

bool Stream::LastLive(StreamId* id) const {
  return Range(StreamId{}, StreamId::Max(), true, 1, [id](const NodeEntry& e) {
           *id = e.id;
           return true;
         }) == 1;
}

void Stream::RefreshFirstId() {
  if (length == 0 || !FirstLive(&first_id)) first_id = StreamId{};
}

size_t Stream::Range(const StreamId& start, const StreamId& end, bool rev, size_t count,
                     const EntryFn& fn) const {
  size_t n = 0;
  if (start > end || nodes.empty()) return 0;
  if (!rev) {
    auto it = nodes.upper_bound(start);
    if (it != nodes.begin()) --it;
    for (; it != nodes.end() && it->first <= end; ++it) {
      for (const NodeEntry& e : node::Parse(it->second, it->first, true)) {
        if (e.id < start || e.Deleted()) continue;
        if (e.id > end) return n;
        ++n;
        if (!fn(e) || (count && n == count)) return n;
      }
    }
    return n;
  }
  auto it = nodes.upper_bound(end);
  while (it != nodes.begin()) {
    --it;
    std::vector<NodeEntry> entries = node::Parse(it->second, it->first, true);
    for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
      if (e->id > end || e->Deleted()) continue;
      if (e->id < start) return n;
      ++n;
      if (!fn(*e) || (count && n == count)) return n;
    }
  }
  return n;
}

int64_t Stream::Trim(const TrimArgs& a) {
  if (a.strategy == TrimStrategy::kNone) return 0;
  int64_t deleted = 0;
  const bool maxlen = a.strategy == TrimStrategy::kMaxLen;
  for (auto it = nodes.begin(); it != nodes.end();) {
    if (maxlen && static_cast<int64_t>(length) <= a.maxlen) break;
    std::string& lp = it->second;
    const int64_t entries = node::LiveCount(lp);
    if (a.limit && deleted + entries > a.limit) break;
    std::vector<NodeEntry> parsed = node::Parse(lp, it->first, false);
    bool remove_node =
        maxlen ? static_cast<int64_t>(length) - entries >= a.maxlen : parsed.back().id < a.minid;
    if (remove_node) {
      length -= entries;
      deleted += entries;
      it = nodes.erase(it);
      continue;
    }
    if (a.approx) break;
    int64_t from_node = 0;
    for (const NodeEntry& e : parsed) {
      const bool stop = maxlen ? static_cast<int64_t>(length) <= a.maxlen : e.id >= a.minid;
      if (stop) break;
      if (!e.Deleted()) {
        node::MarkDeleted(&lp, e.off, e.flags);  // a 1-byte flag: offsets do not move
        ++from_node;
        --length;
      }
    }
    deleted += from_node;
    node::AdjustCounts(&lp, -from_node);
    break;
  }
  RefreshFirstId();
  return deleted;
}

size_t Stream::RaxNodes() const {
  if (nodes.empty()) return 1;
  std::vector<Key> keys;
  keys.reserve(nodes.size());
  for (const auto& [id, lp] : nodes) {
    Key k;
    id.Encode(k.data());
    keys.push_back(k);
  }
  return CountRax(keys, 0, keys.size(), 0);
}

size_t Stream::MemoryUsage() const {
  size_t total = sizeof(Stream);
  for (const auto& [id, lp] : nodes) total += lp.capacity() + 64;
  for (const auto& [name, g] : groups) {
    total += sizeof(Group) + name.size() + g->pel.size() * (sizeof(Nack) + 64);
    for (const auto& [cname, c] : g->consumers) total += sizeof(Consumer) + cname.size() * 2;
  }
  return total;
}

Group* Stream::FindGroup(std::string_view name) const {
  auto it = groups.find(name);
  return it == groups.end() ? nullptr : it->second.get();
}

bool RangeHasTombstones(const Stream& s, const StreamId& start, const StreamId& end) {
  if (s.length == 0 || s.max_deleted_id.IsZero()) return false;
  if (s.first_id > s.max_deleted_id) return false;
  return start <= s.max_deleted_id && s.max_deleted_id <= end;
}

int64_t EstimateEntriesRead(const Stream& s, const StreamId& id) {
  if (s.entries_added == 0) return 0;
  if (s.length == 0 && id <= s.last_id) return static_cast<int64_t>(s.entries_added);
  if (id == s.last_id) return static_cast<int64_t>(s.entries_added);
  if (id > s.last_id) return kInvalidEntriesRead;
  if (s.max_deleted_id.IsZero() || s.max_deleted_id < s.first_id) {
    if (id < s.first_id) return static_cast<int64_t>(s.entries_added - s.length);
    if (id == s.first_id) return static_cast<int64_t>(s.entries_added - s.length + 1);
  }
  return kInvalidEntriesRead;
}

}  // namespace plinth::stream
