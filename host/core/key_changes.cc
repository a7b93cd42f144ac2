// Key change listeners: plugins that hear every change of the keyspace the way WATCH does
// (Keyspace::KeyTouched) and every flush, with the client whose command made it (client-side
// caching's invalidations). Off until a plugin turns its listener on, so with none on a change
// pays one comparison. Their host API is in api/events.cc. Main thread.
#include "host/core/core.h"

namespace plinth::host {

void Events::TellKeyChange(int32_t db, const char* key, size_t klen) {
  // A listener registered by a plugin loading now may be added meanwhile: index, not iterate.
  for (size_t i = 0; i < key_change_listeners.size(); ++i) {
    const KeyChangeListener& l = key_change_listeners[i];
    if (l.on) l.fn(l.ctx, db, key, key ? klen : 0, core_.dispatch.running_client());
  }
}

}  // namespace plinth::host
