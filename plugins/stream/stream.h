// The stream value: nodes (listpacks in Redis's stream-node layout) keyed by their master id in
// an ordered map, the stream's metadata (length, last generated id, first id, largest deleted
// id, entries ever added) and its consumer groups. Appending, deleting, trimming and range
// visits follow Redis 7.0 exactly, node boundaries included, so XINFO and approximate trimming
// answer as Redis does. Pure C++; THREAD: whoever owns the stream.
#ifndef PLINTH_STREAM_STREAM_H
#define PLINTH_STREAM_STREAM_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "stream/cgroup.h"
#include "stream/node.h"
#include "stream/stream_id.h"

namespace plinth::stream {

// stream-node-max-bytes and stream-node-max-entries (0: no limit), set by the options.
struct NodeLimits {
  int64_t max_bytes = 4096;
  int64_t max_entries = 100;
};
NodeLimits& CurrentLimits();

enum class TrimStrategy { kNone, kMaxLen, kMinId };

struct TrimArgs {
  TrimStrategy strategy = TrimStrategy::kNone;
  bool approx = false;
  int64_t maxlen = 0;
  StreamId minid;
  int64_t limit = 0;  // 0: none
};

// Visits one live entry of a range; return false to stop.
using EntryFn = std::function<bool(const NodeEntry&)>;

class Stream {
 public:
  Stream() = default;
  Stream(const Stream& o);
  Stream& operator=(const Stream&) = delete;

  // Appends an entry with id (greater than last_id; the caller checked) and the field/value
  // list fv, starting a new node when the last one is full, and counts it in entries_added.
  void Append(const StreamId& id, const std::vector<std::string_view>& fv);
  // Deletes the live entry id (XDEL's low level part). True when it was there.
  bool Delete(const StreamId& id);
  // True when a live entry id exists.
  bool Exists(const StreamId& id) const;
  // The first / last live entry id; false when the stream is empty.
  bool FirstLive(StreamId* id) const;
  bool LastLive(StreamId* id) const;
  // Trims as XTRIM/XADD do; returns the entries removed.
  int64_t Trim(const TrimArgs& a);
  // Visits live entries with ids in [start, end], backwards when rev, at most count (0: no
  // limit), decoding the fields. Returns how many were visited.
  size_t Range(const StreamId& start, const StreamId& end, bool rev, size_t count,
               const EntryFn& fn) const;
  // Recomputes first_id after deletions (0-0 when empty).
  void RefreshFirstId();

  // Radix-tree figures of Redis's XINFO: keys (nodes) and the tree's node count.
  size_t RaxKeys() const { return nodes.size(); }
  size_t RaxNodes() const;
  // Approximate bytes held (MEMORY USAGE).
  size_t MemoryUsage() const;

  // The group called name, or nullptr.
  Group* FindGroup(std::string_view name) const;

  std::map<StreamId, std::string> nodes;
  uint64_t length = 0;
  StreamId last_id, first_id, max_deleted_id;
  uint64_t entries_added = 0;
  std::map<std::string, std::unique_ptr<Group>, std::less<>> groups;
};

// Redis's lag helpers: whether [start, end] may hold a deleted entry, and the read counter of
// id estimated from entries_added (kInvalidEntriesRead when unknown).
bool RangeHasTombstones(const Stream& s, const StreamId& start, const StreamId& end);
int64_t EstimateEntriesRead(const Stream& s, const StreamId& id);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_STREAM_H
