// The insides of Primary (primary.h), shared by its files: primary.cc (PSYNC, REPLCONF, the
// feed, cron), primary_info.cc (INFO, ROLE), full_sync.cc (the snapshot child and its payload) and
// primary_acks.cc (REPLCONF, WAIT, acks, timeouts, min-replicas-to-write). Not part of the plugin's
// interface. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <map>
#include <memory>
#include <plinth/plugin.hpp>
#include <string>
#include <unordered_map>

#include "common/child_error.h"
#include "replication/backlog.h"
#include "replication/primary.h"
#include "replication/state.h"

namespace plinth::replication {

// INFO's state= names: waiting for (or during) the snapshot child, receiving the payload,
// following the stream.
enum class LinkState { kWaitBgsave, kSendBulk, kOnline };

// One full sync's snapshot: the child that writes it and what carries it to the replicas that
// share it (a file for a disk sync, the child's pipe for a diskless one).
struct SyncJob {
  ~SyncJob();  // closes the fds, removes the file
  bool diskless = false;
  int32_t pid = 0;            // the child while it runs; 0 once reaped
  bool child_ok = false;      // the child exited 0 (valid once pid is 0)
  uint64_t offset = 0;        // the +FULLRESYNC offset: r.offset at the fork
  std::string path;           // disk: the snapshot file, removed when the job ends
  int fd = -1;                // disk: the file, open for reading once the child is done
  uint64_t size = 0;          // disk: its size
  int pipe_fd = -1;           // diskless: the read end of the child's pipe (non-blocking)
  bool pipe_eof = false;      // diskless: the child closed it
  std::string mark;           // diskless: the 40-byte EOF mark
  common::ChildError reason;  // the child's error text, for the parent
};

// A client that asked PSYNC or SYNC.
struct ReplicaLink {
  uint64_t id = 0;  // its client id
  std::string ip;   // REPLCONF ip-address, else its peer address
  int port = 0;     // REPLCONF listening-port
  bool capa_eof = false;
  bool psync = true;  // false after SYNC: no +FULLRESYNC line
  LinkState state = LinkState::kWaitBgsave;
  int64_t since_ms = 0;          // when it asked (the diskless delay counts from here)
  std::shared_ptr<SyncJob> job;  // set at the fork that serves it, dropped once online
  bool header_sent = false;      // disk: "$<size>\r\n" is out
  uint64_t sent = 0;             // disk: payload bytes queued so far
  std::string pending;           // stream bytes fed after the fork, written once online
  uint64_t ack_offset = 0;       // REPLCONF ACK
  int64_t ack_ms = 0;            // when it last acked (or went online)
  bool acked = false;
  // A diskless payload is out: the stream waits for the replica's first ACK (it acks once it
  // has loaded), as a Redis primary does, since a replica finds the end mark only when it ends
  // what it read.
  bool start_on_ack = false;
  bool closed = false;  // closed (or closing): write nothing more
  bool gone = false;    // its CLIENT_CLOSED came while links were being visited
};

// What REPLCONF told about a client before its PSYNC.
struct Handshake {
  std::string ip;
  int port = 0;
  bool capa_eof = false;
  bool capa_psync2 = false;
};

// A client blocked in WAIT.
struct Waiter {
  uint64_t target = 0;  // the offset its replicas must ack
  int64_t want = 0;     // how many
};

struct Primary::Impl {
  explicit Impl(Repl& repl) : r(repl), self(repl.self) {}

  Repl& r;
  plinth_plugin_t* self;

  std::map<uint64_t, std::unique_ptr<ReplicaLink>> links;  // by client id
  std::unordered_map<uint64_t, Handshake> handshakes;      // clients before their PSYNC
  std::unordered_map<uint64_t, Waiter> waiters;            // clients blocked in WAIT
  std::shared_ptr<SyncJob> child;  // the job whose child runs or whose pipe is read
  plinth_timer_t* fast = nullptr;  // 1 ms while a payload moves (pipe reads, file chunks)
  int iterating = 0;               // links may not be erased while > 0 (see Remove)
  bool sweep = false;
  uint64_t host_next = 0;  // the host stream offset OnBatch expects next
  bool consumer_on = false;
  bool consumer_synced = false;  // the cron has told the host consumer_on once
  bool getack_pending = false;   // a WAIT blocked: GETACK goes out before the loop sleeps
  bool start_sync = false;       // BeforeSleep should try to fork for waiting replicas
  bool refusing = false;         // min-replicas-to-write refusal in place
  int64_t no_replicas_since_ms = 0;
  int64_t last_ping_ms = 0;
  int64_t last_newline_ms = 0;
  uint64_t sync_full = 0, sync_partial_ok = 0, sync_partial_err = 0;
  // Snapshots that failed in a row (fork, file, child), the last reason, and no fork before
  // sync_retry_at_ms (1 s doubling to 60 s; waiting replicas keep hearing the keepalive).
  uint32_t sync_failures = 0;
  std::string sync_error;
  int64_t sync_retry_at_ms = 0;

  // primary.cc
  void Log(uint32_t level, const char* fmt, ...) const __attribute__((format(printf, 3, 4)));
  int64_t NowMs() const { return sdk::Api().time_us(self) / 1000; }
  int64_t Opt(const plinth_option_t* o, int64_t def) const {
    return o ? sdk::Api().option_int(o) : def;
  }
  // Writes raw bytes to a replica; false (and the link marked closed) when it failed.
  bool Write(ReplicaLink& l, const char* data, size_t len);
  bool Write(ReplicaLink& l, const std::string& s) { return Write(l, s.data(), s.size()); }
  void Close(ReplicaLink& l);  // closes the client (its CLIENT_CLOSED event removes it)
  void Remove(uint64_t id);    // forgets a closed client (later when links are being visited)
  void Erase(uint64_t id);
  void Sweep();               // erases the links Remove marked gone
  int32_t LiveCount() const;  // links not closed
  ReplicaLink& AddLink(plinth_call_t* call, uint64_t id);
  void CreateBacklog();          // a fresh, empty backlog after r.offset
  void UpdateConsumer();         // stream consumer on iff a backlog exists and not a replica
  uint64_t HostPending() const;  // host stream bytes appended but not yet in OnBatch
  void FullSync(plinth_call_t* call, uint64_t id, bool psync);
  bool PartialSync(plinth_call_t* call, uint64_t id, const std::string& replid, uint64_t from);
  void GoOnline(ReplicaLink& l);  // writes its pending stream bytes; it follows the stream now

  // full_sync.cc
  void MaybeStartSync(int64_t now_ms);  // fork for waiting replicas when due and possible
  bool StartSync(bool diskless);
  void ReapChild();
  void PumpPipe();   // diskless: child's bytes to its replicas
  void PumpFiles();  // disk: file chunks to replicas as their output drains
  // Ends a failed job: its replicas are told (disk, before the payload) and closed. counts:
  // the snapshot itself failed (not a child stopped because nobody listened any more).
  void FailJob(const std::shared_ptr<SyncJob>& job, bool counts = true);
  // A snapshot could not be made: INFO's reason, the log, and the wait before the next fork.
  void NoteSyncFailure(const std::string& why);
  void NoteSyncSuccess();
  void FinishPayload(ReplicaLink& l);
  void UpdateFastTimer();

  // primary_acks.cc
  int64_t CountAcked(uint64_t offset) const;
  void WakeWaiters();
  void CheckGoodReplicas(int64_t now_ms);
  void CheckTimeouts(int64_t now_ms);
};

// Held by every entry point that visits or writes to links: a client closed meanwhile (its
// CLIENT_CLOSED may come from inside client_write_raw or client_close) is only marked gone,
// and erased when the outermost guard ends, so no link vanishes under a caller.
class LinkGuard {
 public:
  explicit LinkGuard(Primary::Impl& m) : m_(m) { ++m_.iterating; }
  ~LinkGuard() {
    if (--m_.iterating == 0 && m_.sweep) m_.Sweep();
  }
  LinkGuard(const LinkGuard&) = delete;
  LinkGuard& operator=(const LinkGuard&) = delete;

 private:
  Primary::Impl& m_;
};

}  // namespace plinth::replication
