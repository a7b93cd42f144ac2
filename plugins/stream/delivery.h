// Serving a consumer group read (XREADGROUP): new entries past the group's last id go into the
// PEL of the group and the consumer, and the read propagates as XCLAIM ... per entry (or an
// XGROUP SETID with NOACK) as Redis does; a history read replays the consumer's own PEL.
// Main thread (command handlers).
#ifndef PLINTH_STREAM_DELIVERY_H
#define PLINTH_STREAM_DELIVERY_H

#include <string_view>

#include "stream/access.h"

namespace plinth::stream {

// Names the key and group a delivery propagates under.
struct GroupRef {
  std::string_view key;
  std::string_view group;
};

// Replies the entries of s from start on (at most count, 0: all) as an array, delivering them
// to consumer of g. Propagates the effects. Returns how many were replied.
size_t DeliverNew(const Call& c, const GroupRef& ref, Stream* s, Group* g, Consumer* consumer,
                  const StreamId& start, size_t count, bool noack);
// Replies the consumer's pending entries from start on (at most count), bumping each one's
// delivery count; an entry no longer in the stream is replied as [id, nil].
size_t DeliverHistory(const Call& c, const Stream& s, Consumer* consumer, const StreamId& start,
                      size_t count);
// The consumer called name in g, created (with its event and propagation) when missing; its
// seen time is set to now.
Consumer* LookupOrCreateConsumer(const Call& c, const GroupRef& ref, Group* g,
                                 std::string_view name);
// Propagates the claim of PEL entry id (XCLAIM ... FORCE JUSTID LASTID ...).
void PropagateClaim(const Call& c, const GroupRef& ref, const Group& g, const StreamId& id,
                    const Nack& n);
// Propagates the group's last id and read counter (XGROUP SETID ... ENTRIESREAD ...).
void PropagateGroupId(const Call& c, const GroupRef& ref, const Group& g);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_DELIVERY_H
