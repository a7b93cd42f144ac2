// The keyspace: the databases and the value types their entries hold, the write counter, the
// watched keys, maxmemory's evictor and the expiry of keys, with the signals a change of a key
// sends (WATCH, key change listeners, blocked clients, keyspace events). Main thread only.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "host/core/db.h"
#include "host/core/evict.h"
#include "host/core/transaction.h"
#include "host/core/value.h"

namespace plinth::host {

class Core;

// Keys whose time came: deleted when a command finds them (passive) and sampled by the cron
// (active), each deletion counted and propagated as DEL.
class Expiry {
 public:
  explicit Expiry(Core& core) : core_(core) {}
  // Deletes key in db because it expired, counting and propagating it as DEL.
  void ExpireKey(int32_t db, std::string_view key);
  // One active-expiry pass over every database within budget_us. Returns keys expired.
  uint64_t ActiveCycle(int64_t budget_us);

  bool passive = false;  // server_expiry_passive: keys expire by the stream's DEL only
  bool active = true;    // server_active_expire (DEBUG SET-ACTIVE-EXPIRE)

 private:
  Core& core_;
};

class Keyspace {
 public:
  explicit Keyspace(Core& core) : evictor(core), expiry(core), core_(core) {}

  // Creates the databases the "databases" option asks for (empty ones replace any present).
  void Create();
  // Sets the access stamp new keys get (access.h) to now's; each command does it too.
  void RefreshAccessClock();
  // Signals that key in db changed (WATCH and the key change listeners hear it); expiry: it
  // was deleted for its expiry.
  // (Inline, in core.h, as is KeyCreated.)
  void KeyTouched(int32_t db, std::string_view key, bool expiry = false);
  // A key was created in db (by any key_* write): wakes the clients blocked on it and raises
  // the "new" keyspace event.
  void KeyCreated(int32_t db, std::string_view key);
  // Database db (-1: all) is being emptied: the key change listeners hear it (WATCH hears it
  // through Watches::Replacing).
  void Flushing(int32_t db);
  // Moves resizes in progress along for up to budget_us (like Redis's activerehashing), so an
  // idle server finishes them too.
  void ActiveRehash(int64_t budget_us);

  std::vector<Db> dbs;
  Types types;
  uint64_t dirty = 0;  // changes to the keyspace since start
  Watches watches;
  Evictor evictor;  // maxmemory
  Expiry expiry;

 private:
  Core& core_;
};

}  // namespace plinth::host
