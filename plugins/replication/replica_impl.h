// The insides of Replica (replica.h), shared by its files: replica.cc (REPLICAOF, ROLE, the
// link's lifetime, promotion, cron, INFO) and replica_sync.cc (the link's events: loading a
// full sync, applying the primary's stream). Not part of the plugin's interface. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/rdb/snapshot.h"
#include "replication/link/link.h"
#include "replication/replica.h"
#include "replication/state.h"

namespace plinth::replication {

// Redis's ROLE states of a replica's link.
enum class ReplState {
  kNone,        // not a replica
  kConnect,     // waiting to (re)connect
  kConnecting,  // a link is connecting and running the handshake
  kSync,        // PSYNC sent: receiving or loading a full sync
  kConnected,   // following the stream
};

struct Replica::Impl {
  explicit Impl(Repl& repl) : r(repl), self(repl.self) {}

  // -- replica.cc --
  void Follow(const std::string& new_host, int new_port);
  void Promote();
  void Connect();
  void UpdateRefusals();
  void Log(uint32_t level, const std::string& text) const;
  int64_t NowMs() const;
  std::string DataDir();

  // -- replica_sync.cc: the link's events --
  void OnSyncing();
  void OnFullSync(const std::string& replid, uint64_t offset);
  void OnPartialSync(const std::string& replid);
  void OnCommands(std::vector<StreamCommand> commands);
  void OnProgress(uint64_t read, int64_t total);
  void OnDown(const std::string& reason);
  // The wait before the next connection: 1 s, or after a full sync that failed (the primary
  // could not produce it, the payload broke off, it did not load) 1 s doubling to 60 s, with
  // the reason kept for INFO and logged.
  int64_t RetryDelayMs(bool sync_failed, const std::string& why);
  LinkEvents Events();
  // Loads the next slice of the full sync's file (a loop task until done).
  void LoadSlice();
  void FinishLoad();
  // Ends a load in progress without its result: the keyspace is emptied, the history is lost.
  void AbortLoad(const std::string& why);
  // Runs commands (in order) through the internal client and feeds their bytes.
  void Apply(const StreamCommand* commands, size_t n);
  plinth_client_t* Client();

  // The one live Impl (null once the Replica is gone): loop tasks reach it through this, so a
  // task still queued at shutdown does nothing.
  static inline Impl* live = nullptr;

  Repl& r;
  plinth_plugin_t* self;

  bool running = false;  // Start ran: Configure acts at once
  std::string host;      // the primary, "" when not a replica
  int port = 0;
  ReplState state = ReplState::kNone;
  bool failover_psync = false;  // FailoverTo: the next PSYNC says FAILOVER, once
  std::unique_ptr<Link> link;
  int64_t next_connect_ms = 0;
  // Our offset and replid name the history the keyspace holds: false from the start of a full
  // sync until its load is done (PSYNC then asks "? -1").
  bool history_valid = true;
  bool synced = false;  // a full sync from a primary was loaded (offset 0 is then a history)

  // The primary's stream runs as this client; it keeps its database between links (a partial
  // resync goes on in the database the stream had selected).
  plinth_client_t* client = nullptr;
  std::string encoded;  // the commands of one Apply, re-encoded
  std::vector<const char*> argv;
  std::vector<size_t> lens;

  // A full sync being loaded.
  bool loading = false;
  int load_fd = -1;
  std::string load_path;
  std::unique_ptr<rdb::KeyspaceLoader> loader;
  std::string sync_replid;
  uint64_t sync_offset = 0;
  int64_t sync_start_ms = 0;
  std::vector<StreamCommand> queued;  // the stream that arrived meanwhile
  uint64_t sync_read = 0;             // snapshot bytes received
  int64_t sync_total = -1;            // and expected (-1: an EOF-marked payload)

  // INFO and ROLE.
  int64_t last_io_ms = 0;     // the link last told something
  int64_t down_since_ms = 0;  // the link went down (0: not since REPLICAOF)
  uint64_t read_offset = 0;   // the end offset of the last stream command received
  int64_t last_ack_ms = 0;
  uint64_t pings = 0;
  uint64_t apply_errors = 0;
  uint32_t sync_failures = 0;  // full syncs failed in a row (reset by a sync that worked)
  std::string sync_error;      // the last one's reason (INFO master_sync_last_error)
  bool offset_warned = false;

  // The refusals this replica set (server_refuse), to set and lift each once.
  bool read_only = true;
  bool serve_stale = true;
  bool refusing_writes = false;
  bool refusing_stale = false;
};

}  // namespace plinth::replication
