// Transactions: a session's MULTI queue and watched keys, the core's index of who watches
// what, and the host's own commands MULTI EXEC DISCARD WATCH UNWATCH (they wrap commands of
// any plugin, so they live in the host). Redis 7.0's semantics: docs/commands.md,
// "Transactions". Main thread only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "host/core/registry.h"

namespace plinth::host {

class Core;
class Db;
class Watches;

struct WatchedKey {
  int32_t db;
  std::string key;
  bool expired;  // the key was logically expired when watched: its expiry deletion is no change
};

// One session's transaction state. Unwatches its keys when destroyed.
struct Transaction {
  Transaction() = default;
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  bool active = false;     // between MULTI and EXEC or DISCARD
  bool executing = false;  // EXEC is running the queue
  bool aborted = false;    // a command was refused while queueing: EXEC answers EXECABORT
  bool dirty = false;      // a watched key changed: EXEC answers a null array
  std::vector<std::vector<std::string>> queue;
  size_t queued_bytes = 0;    // argument bytes in queue (CLIENT LIST multi-mem)
  uint32_t queued_flags = 0;  // the PLINTH_CMD_* flags of the queued commands, or-ed
  std::vector<WatchedKey> watched;
  Watches* watches = nullptr;  // the index watched is registered in

  // Leaves MULTI, dropping the queue (watched keys stay).
  void EndMulti();
  // Forgets every watched key.
  void Unwatch();
};

// Which transactions watch which keys, per database. Every change to a key reaches Touched;
// its cost when nobody watches is one branch (empty()).
class Watches {
 public:
  bool empty() const { return count_ == 0; }
  // Registers t as watching key in db (once per key). expired: the key is logically expired.
  void Watch(Transaction* t, int32_t db, std::string_view key, bool expired);
  // Drops every key t watches.
  void UnwatchAll(Transaction* t);
  // key in db was changed (written, deleted, its TTL changed); d is the database after it.
  // expiry: the change is the key's expiry deletion.
  void Touched(int32_t db, std::string_view key, const Db& d, bool expiry = false);
  // Every key of db is about to go away or be replaced by other's (FLUSHDB, SWAPDB; other may
  // be null): watchers of keys that exist in either are marked dirty. now_ms decides expiry.
  void Replacing(int32_t db, const Db& d, const Db* other, int64_t now_ms);

 private:
  using Index =
      std::unordered_map<std::string, std::vector<Transaction*>, StringViewHash, std::equal_to<>>;
  std::vector<Index> by_db_;
  size_t count_ = 0;  // registrations in by_db_
};

// Registers MULTI, EXEC, DISCARD, WATCH and UNWATCH as the host's commands (owner "host").
void RegisterTransactionCommands(Core& core);

}  // namespace plinth::host
