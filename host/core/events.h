// What plugins hear of the server's work: keyspace events (keyspace_event and the host's own
// "new", "expired", ...), client events, key changes (the way WATCH sees them, with the client
// that made them) and the commands that ran (observers with a duration threshold). Each kind
// is off until a plugin listens: a command pays one comparison per kind. Main thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "host/core/hooks.h"

struct plinth_call;

namespace plinth::host {

class Core;
struct Session;

class Events {
 public:
  explicit Events(Core& core) : core_(core) {}

  // Raises a keyspace event (keyspace_event) for every keyspace listener.
  void Notify(int32_t db, uint32_t type, const char* event, std::string_view key);
  // Tells the client listeners PLINTH_CLIENT_* event of s.
  void ClientEvent(const Session& s, uint32_t event);
  // Tells the key change listeners that are on that key in db changed (key nullptr: db was
  // emptied, -1 every db), during the running client's command. One comparison when none is.
  void KeyChanged(int32_t db, const char* key, size_t klen) {
    if (key_listeners_on_ != 0) TellKeyChange(db, key, klen);
  }
  // Tells the observers whose threshold duration_us reaches that call ran. One comparison when
  // none does.
  void Observe(const Session& s, const plinth_call& call, int64_t duration_us) {
    if (duration_us >= observe_min_us_) TellObservers(s, call, duration_us);
  }
  // Recounts the key change listeners that are on and the lowest threshold of the observers
  // that are on, after one was added, set or dropped.
  void Recount();
  // Drops what owner registered, and recounts.
  void RemoveOwner(const std::string& owner);

  std::vector<KeyspaceListener> keyspace_listeners;
  std::vector<ClientListener> client_listeners;
  std::vector<KeyChangeListener> key_change_listeners;
  std::vector<CommandObserver> observers;
  int64_t next_id = 0;  // the id the next key change listener or observer gets

 private:
  void TellKeyChange(int32_t db, const char* key, size_t klen);
  void TellObservers(const Session& s, const plinth_call& call, int64_t duration_us);
  Core& core_;
  int32_t key_listeners_on_ = 0;
  // Commands that ran at least this long are observed (INT64_MAX: no observer is on).
  int64_t observe_min_us_ = std::numeric_limits<int64_t>::max();
};

}  // namespace plinth::host
