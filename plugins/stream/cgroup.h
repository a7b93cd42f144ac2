// Consumer groups of a stream: the group's last delivered id and read counter, its pending
// entries list (PEL: id -> delivery time, delivery count, owning consumer) and its consumers,
// each with its own view of the PEL entries it owns. Ordered maps give Redis's radix-tree
// orders (ids numerically, names bytewise). Pure C++; THREAD: whoever owns the stream.
#ifndef PLINTH_STREAM_CGROUP_H
#define PLINTH_STREAM_CGROUP_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "stream/stream_id.h"

namespace plinth::stream {

struct Consumer;

// A pending entry: delivered to consumer, not acknowledged yet.
struct Nack {
  int64_t delivery_time = 0;
  uint64_t delivery_count = 1;
  Consumer* consumer = nullptr;
};

struct Consumer {
  std::string name;
  int64_t seen_time = 0;
  int64_t active_time = -1;  // Redis 7.4's; kept only to round-trip RDB _3 files
  std::map<StreamId, Nack*> pel;
};

inline constexpr int64_t kInvalidEntriesRead = -1;

class Group {
 public:
  Group(const StreamId& last_id, int64_t entries_read)
      : last_id(last_id), entries_read(entries_read) {}
  // A deep copy (consumers and PEL, with the NACKs re-linked to the copied consumers).
  Group(const Group& o);
  Group& operator=(const Group&) = delete;

  // The consumer called name, or nullptr.
  Consumer* Find(std::string_view name) const;
  // Adds consumer name seen at now_ms; nullptr when it exists.
  Consumer* Create(std::string_view name, int64_t now_ms);
  // Removes consumer c and every PEL entry it owns. Returns how many it owned.
  size_t Delete(Consumer* c);
  // Gives the PEL entry id (which must exist) to consumer c.
  void Assign(const StreamId& id, Nack* n, Consumer* c);
  // Adds a PEL entry id owned by c (or re-delivers it to c if pending already), delivered at
  // now_ms with count 1. Returns the entry.
  Nack* Deliver(const StreamId& id, Consumer* c, int64_t now_ms);
  // Removes PEL entry id; true when it was pending.
  bool Ack(const StreamId& id);

  StreamId last_id;
  int64_t entries_read;
  std::map<StreamId, std::unique_ptr<Nack>> pel;
  std::map<std::string, std::unique_ptr<Consumer>, std::less<>> consumers;
};

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_CGROUP_H
