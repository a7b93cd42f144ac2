// This server as a replica: REPLICAOF host port starts a link (link/link.h) to the primary,
// a full sync's snapshot is loaded (the server answers -LOADING meanwhile), then the primary's
// stream is applied through a trusted internal client, with expiry driven by the primary and
// clients' writes refused (replica-read-only). The link is retried every second while it is
// down. REPLICAOF NO ONE promotes: a new replid, the old history kept as replid2. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>

namespace plinth::replication {

struct Repl;

class Replica {
 public:
  explicit Replica(Repl& r);
  // Stops the link and a load in progress (shutdown).
  ~Replica();
  Replica(const Replica&) = delete;
  Replica& operator=(const Replica&) = delete;

  // REPLICAOF / SLAVEOF host port | NO ONE, and ROLE (registered by plugin.cc).
  void ReplicaOf(plinth_call_t* call);
  void Role(plinth_call_t* call);
  // The replicaof option's apply (startup config and CONFIG SET): host "" promotes. Before
  // Start it only records the primary. Returns false with *err when it cannot act.
  bool Configure(const std::string& host, int port, std::string* err);
  // After init, once the loop runs: follows the primary the startup config named. Returns
  // false when the host refused the task (shutting down).
  bool Start();
  // Every 100 ms: reconnects a link that is down, sends REPLCONF ACK each second.
  void Cron();
  // FAILOVER's old primary: follows its target as REPLICAOF does (the replicaof option keeps
  // its text), asking PSYNC <replid> <offset> FAILOVER so the target takes over. The failover
  // (r.failover) hears how that PSYNC ends: LinkSynced, or LinkFailed.
  void FailoverTo(const std::string& host, int port);
  // REPLICAOF NO ONE without the option (FAILOVER's abort once it follows its target).
  void Promote();
  bool active() const;     // REPLICAOF host port is in effect
  bool connected() const;  // active, and the link is up with its full sync loaded
  // replica-read-only and replica-serve-stale-data (or their slave-* names) changed: updates
  // the refusals of a replica in effect.
  void SetReadOnly(bool on);
  void SetServeStale(bool on);
  // INFO replication's replica fields (master_host ... slave_read_only, replica_announced).
  void InfoFields(plinth_info_t* info);

 private:
  struct Impl;  // replica_impl.h, shared by replica.cc and replica_sync.cc
  std::unique_ptr<Impl> impl_;
};

}  // namespace plinth::replication
