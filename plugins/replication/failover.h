// The coordinated FAILOVER (Redis 7.0): a primary pauses its clients' writes, waits until a
// replica acked its whole stream (waiting-for-sync), then follows that replica with
// PSYNC <replid> <offset> FAILOVER (failover-in-progress); the replica takes over on that PSYNC
// (TakeOver) and continues the old primary from its backlog. A timeout aborts (or, with FORCE,
// fails over anyway); a failed PSYNC aborts. The pause ends with the failover: held writes then
// run, or get -READONLY where the failover succeeded. Owned by plugin.cc. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>

namespace plinth::replication {

struct Repl;

class Failover {
 public:
  explicit Failover(Repl& r);
  // Ends a pause still in force.
  ~Failover();
  Failover(const Failover&) = delete;
  Failover& operator=(const Failover&) = delete;

  // FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT ms]: +OK once the failover started (or
  // was aborted), else Redis's error.
  void Command(plinth_call_t* call);
  // PSYNC ... FAILOVER from our primary: promotes this replica (REPLICAOF NO ONE, its history
  // kept as replid2) when replid is its own. Returns false after replying an error; true when
  // the PSYNC goes on (a partial resync of the old primary).
  bool TakeOver(plinth_call_t* call, const std::string& replid);
  // Every cron tick: waiting-for-sync moves on when the target acked the whole stream, or at
  // the timeout.
  void Tick();
  // The old primary's PSYNC ... FAILOVER was accepted (+CONTINUE or +FULLRESYNC): done.
  void LinkSynced();
  // That PSYNC failed (refused, or the link went down first): the failover aborts.
  void LinkFailed(const std::string& reason);
  // A failover is waiting for its replica or in progress.
  bool active() const { return state_ != State::kNone; }
  // INFO's master_failover_state: no-failover, waiting-for-sync, failover-in-progress.
  const char* state_name() const;

 private:
  enum class State { kNone, kWaitForSync, kInProgress };

  void Start(const std::string& host, int port);
  void Abort(const std::string& why);
  void Clear();
  void Log(const std::string& text) const;
  std::string Target() const;

  Repl& r_;
  State state_ = State::kNone;
  std::string host_;  // the target, "" until chosen (FAILOVER without TO)
  int port_ = 0;
  bool force_ = false;
  int64_t end_ms_ = 0;  // the timeout's end, 0 when none
  bool paused_ = false;
};

}  // namespace plinth::replication
