// The events' delivery to keyspace and client listeners, and their bookkeeping; key changes are
// told in key_changes.cc, commands in observe.cc. Their host API is api/events.cc.
#include "host/core/events.h"

#include "host/core/core.h"

namespace plinth::host {

void Events::Notify(int32_t db, uint32_t type, const char* event, std::string_view key) {
  for (const KeyspaceListener& l : keyspace_listeners)
    l.fn(l.ctx, db, type, event, key.data(), key.size());
}

void Events::ClientEvent(const Session& s, uint32_t event) {
  for (const ClientListener& l : client_listeners) l.fn(l.ctx, s.id, event);
}

void Events::Recount() {
  key_listeners_on_ = 0;
  for (const KeyChangeListener& l : key_change_listeners) key_listeners_on_ += l.on;
  observe_min_us_ = std::numeric_limits<int64_t>::max();
  for (const CommandObserver& o : observers)
    if (o.min_us >= 0 && o.min_us < observe_min_us_) observe_min_us_ = o.min_us;
}

void Events::RemoveOwner(const std::string& owner) {
  EraseOwned(keyspace_listeners, owner);
  EraseOwned(client_listeners, owner);
  EraseOwned(observers, owner);
  EraseOwned(key_change_listeners, owner);
  Recount();
}

}  // namespace plinth::host
