// The replication plugin's shared state: this server's replication identity (replid, replid2,
// the offset), its backlog, its role, and the two halves that act on them: Primary (the
// replicas connected to this server) and Replica (this server's link to its own primary).
// One Repl per plugin instance, created at init. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>

#include "replication/options.h"

namespace plinth::replication {

class Backlog;   // backlog.h: the last repl-backlog-size bytes of the stream, by offset
class Primary;   // primary.h: replicas of this server (PSYNC, full syncs, feeding, WAIT)
class Replica;   // replica.h: this server as a replica (REPLICAOF, the link, applying)
class Failover;  // failover.h: the FAILOVER command's state (owned by plugin.cc)

struct Repl {
  plinth_plugin_t* self = nullptr;
  Options opts;

  // Identity (INFO replication): the current history's id and offset (master_repl_offset: the
  // bytes of the stream this server holds), and the previous history's id with the first
  // offset that is not part of it (second_repl_offset, -1 when none), for PSYNC after a
  // failover.
  std::string replid, replid2;
  uint64_t offset = 0;
  int64_t second_offset = -1;

  std::unique_ptr<Backlog> backlog;  // null until the first replica (or after repl-backlog-ttl)
  std::unique_ptr<Primary> primary;
  std::unique_ptr<Replica> replica;  // its link is up only while this server replicates
  Failover* failover = nullptr;      // plugin.cc's; null in unit tests
  // FAILOVER waits for its target to ack master_repl_offset: no PING nor GETACK joins the
  // stream meanwhile, so the offset it must reach stays put (as Redis, while paused).
  bool failover_hold = false;

  bool is_replica() const;  // replica.cc: REPLICAOF host port is in effect
};

// Appends stream bytes this server's history gains (its own effects on a primary, its
// primary's bytes on a replica): to the backlog, to master_repl_offset and to every replica of
// this server past its full sync. state.cc.
void Feed(Repl& r, const char* data, size_t len);

// A new random 40-hex replication id. state.cc.
std::string NewReplId();

// REPLICAOF NO ONE and failover: the current history becomes the previous one (replid2,
// second_repl_offset = offset + 1) under a new replid; the backlog and offset carry on.
// state.cc.
void ShiftReplId(Repl& r);

// DEBUG CHANGE-REPL-ID, as Redis's changeReplicationId and clearReplicationId2: a new replid,
// and no previous history (replid2 all zeros, second_repl_offset -1). state.cc.
void ChangeReplId(Repl& r);

}  // namespace plinth::replication
