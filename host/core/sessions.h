// The sessions' waits: blocked commands (run again when a key they wait on is ready, when a
// plugin wakes them or when their timeout passes) and the client pauses that hold commands
// (CLIENT PAUSE, FAILOVER: each plugin keeps one pause; a held command waits as a blocked
// command with no key whose deadline is the pause's end). Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <map>
#include <string>

#include "host/core/blocking.h"

namespace plinth::host {

class Core;
struct Command;
struct ParsedRequest;
struct ReplySink;
struct Session;

class Sessions {
 public:
  explicit Sessions(Core& core) : core_(core) {}

  // Runs the commands of sessions blocked on the keys signalled ready, in blocking order, until
  // no key is ready. Dispatch calls it after each top-level command.
  void ServeBlocked();
  // Runs the commands of blocked sessions whose deadline is at or before now_ms with
  // PLINTH_BLOCK_TIMEOUT, then serves ready keys.
  void ServeTimeouts(int64_t now_ms);
  // A session's client went away: forget its wait, tell the client listeners.
  void SessionClosed(Session& s);
  // client_wake: the session with that id, blocked (on no key or any), runs its command again
  // with PLINTH_BLOCK_WOKEN, now or, inside a command, once the top-level one returns. False
  // when no blocked session has that id.
  bool Wake(uint64_t id);
  // call_block from a woken run: the session stays blocked.
  void NoteReblocked() { rerun_reblocked_ = true; }
  // The call_block_state of the command about to run: a rerun's, once, else
  // PLINTH_BLOCK_NONE.
  int32_t TakeRerunState() {
    const int32_t st = rerun_state_;
    rerun_state_ = PLINTH_BLOCK_NONE;
    return st;
  }
  // Sets owner's pause (clients_pause); when less is held than before, the held commands run
  // again in the order they were held.
  void SetPause(const std::string& owner, uint32_t what, int64_t end_ms);
  // A pause holds writes now: keys neither expire nor get evicted.
  bool WritesPaused();
  // When a pause holds s's command cmd (request r), holds it until the pause ends (replying
  // nothing now) and returns true. One comparison when no pause is set.
  bool HoldIfPaused(Session& s, ReplySink& sink, const ParsedRequest& r, const Command* cmd) {
    return !pauses_.empty() && HoldPaused(s, sink, r, cmd);
  }

  Blocking blocking;

 private:
  struct Pause {
    uint32_t what;
    int64_t end_ms;
  };
  // Runs s's blocked command again with call_block_state state; unblocks s unless it blocked
  // again from a woken run.
  void Rerun(Session& s, int32_t state);
  // The strictest pause in force at now_ms and the latest end of those in force (*end_ms),
  // forgetting the pauses that ended.
  uint32_t PauseInForce(int64_t now_ms, int64_t* end_ms);
  bool HoldPaused(Session& s, ReplySink& sink, const ParsedRequest& r, const Command* cmd);

  Core& core_;
  std::map<std::string, Pause> pauses_;      // the plugins' pauses, by plugin
  int32_t rerun_state_ = PLINTH_BLOCK_NONE;  // the next command is a rerun of a blocked one
  bool rerun_reblocked_ = false;
  bool serving_ = false;  // in ServeBlocked
};

}  // namespace plinth::host
