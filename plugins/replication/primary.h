// This server as a primary: the replicas connected to it. A client becomes a replica with
// PSYNC (or SYNC): it is answered +CONTINUE and the backlog from its offset when its history is
// ours and the backlog still holds it, else +FULLRESYNC and a snapshot (to a file, or streamed
// from the child with an EOF mark when repl-diskless-sync), then the stream. Replicas ack their
// offset (REPLCONF ACK) every second; WAIT and min-replicas-to-write count those acks.
// THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "replication/failover_args.h"

namespace plinth::replication {

struct Repl;

class Primary {
 public:
  explicit Primary(Repl& r);
  ~Primary();
  Primary(const Primary&) = delete;
  Primary& operator=(const Primary&) = delete;

  // Command handlers (registered by plugin.cc).
  void Psync(plinth_call_t* call);     // PSYNC <replid> <offset>
  void Sync(plinth_call_t* call);      // SYNC: a full sync without the +FULLRESYNC line
  void Replconf(plinth_call_t* call);  // REPLCONF listening-port|ip-address|capa|ack|getack
  void Wait(plinth_call_t* call);      // WAIT numreplicas timeout

  // The host's stream batch (the plugin's stream consumer): this server's own effects. Feeds
  // them unless this server is a replica (then its primary's bytes are fed instead).
  void OnBatch(const plinth_stream_batch_t* batch);
  // Every 100 ms: pings (repl-ping-replica-period), acks too old (repl-timeout), the backlog's
  // ttl, delayed diskless syncs, min-replicas-to-write.
  void Cron();
  // Before the loop sleeps: moves snapshot payloads to replicas as their output drains.
  void BeforeSleep();
  // A client went away (client listener): forget it if it was a replica.
  void ClientClosed(uint64_t client_id);
  // Closes every replica (this server becomes a replica of another).
  void DisconnectAll();
  // Sends bytes to every replica past its full sync (Feed calls it).
  void SendToReplicas(const char* data, size_t len);
  // A fresh, empty backlog whose next byte is r.offset + 1, replacing any: the replica side
  // calls it once a full sync from its primary set replid and offset (Feed also creates one on
  // a replica that has none).
  void ResetBacklog();
  // r.is_replica() changed (REPLICAOF host port, or NO ONE): a primary feeds the host's
  // batches, a replica its primary's bytes; min-replicas-to-write applies only to a primary.
  // Call it right after the change, before the loop runs another command.
  void RoleChanged();
  // INFO replication's primary fields: connected_slaves, slave<N>:ip=,port=,state=,offset=,lag=
  void InfoFields(plinth_info_t* info);
  // INFO replication's backlog fields: repl_backlog_active, repl_backlog_size,
  // repl_backlog_first_byte_offset, repl_backlog_histlen (they end the section).
  void BacklogFields(plinth_info_t* info);
  // INFO stats fields: sync_full, sync_partial_ok, sync_partial_err.
  void StatsFields(plinth_info_t* info);
  // ROLE's replica list: emit(arg, ip, port, acked offset) per replica past its full sync.
  void ForEachOnline(void (*emit)(void* arg, const std::string& ip, int port, uint64_t offset),
                     void* arg) const;
  // Replicas past their full sync (for ROLE and connected_slaves).
  int32_t online_count() const;
  // Every replica not closed, online or still syncing (for FAILOVER). OWNERSHIP: copies.
  std::vector<FailoverReplica> Replicas() const;
  // The offset this server's history reaches once the host's pending stream bytes are fed:
  // master_repl_offset plus what the host appended that OnBatch has not seen yet.
  uint64_t StreamEnd() const;

  struct Impl;  // primary_impl.h: shared by the primary's files only

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace plinth::replication
