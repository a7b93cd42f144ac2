// One stream node: a listpack in Redis's stream-node layout. The master entry (count of live
// entries, count of deleted ones, the master fields, a 0 terminator) is followed by entries of
// flags, ms and seq deltas from the master id, then either the values alone (SAMEFIELDS: the
// master's fields) or a field count and field/value pairs, then the entry's element count.
// Pure C++; THREAD: whoever owns the node.
#ifndef PLINTH_STREAM_NODE_H
#define PLINTH_STREAM_NODE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stream/listpack.h"
#include "stream/stream_id.h"

namespace plinth::stream {

inline constexpr int64_t kFlagDeleted = 1;
inline constexpr int64_t kFlagSameFields = 2;

// One entry of a node as parsed: its id, where its flags element is, and (when asked for) its
// field/value pairs as views into the node.
struct NodeEntry {
  StreamId id;
  size_t off = 0;
  int64_t flags = 0;
  std::vector<std::pair<LpValue, LpValue>> fields;
  bool Deleted() const { return (flags & kFlagDeleted) != 0; }
};

namespace node {

// A new node whose master entry takes the fields of fv (field, value, field, value, ...) and
// holds the one entry id (its master id) with those values.
std::string Create(const StreamId& id, const std::vector<std::string_view>& fv);
// Appends entry id (after every entry of the node) to a node keyed by master.
void Append(std::string* lp, const StreamId& master, const StreamId& id,
            const std::vector<std::string_view>& fv);
// Live and deleted entry counts from the master entry.
int64_t LiveCount(const std::string& lp);
int64_t DeletedCount(const std::string& lp);
// Every entry of the node in order, deleted ones included; with_fields decodes the pairs.
std::vector<NodeEntry> Parse(const std::string& lp, const StreamId& master, bool with_fields);
// Marks the entry whose flags are at off deleted and updates the master counts by -live,
// +deleted. Returns the node's live count afterwards.
void MarkDeleted(std::string* lp, size_t off, int64_t flags);
void AdjustCounts(std::string* lp, int64_t live_delta);
// Checks a node read from a file: the layout above, entries in increasing order after
// master, every count consistent. Sets *live, *first and *last (ids of any entry).
bool Validate(const std::string& lp, const StreamId& master, int64_t* live, StreamId* last);

}  // namespace node
}  // namespace plinth::stream

#endif  // PLINTH_STREAM_NODE_H
