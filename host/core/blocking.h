// Blocking commands (BLPOP, BZPOPMIN, XREAD BLOCK, ...): which sessions wait on which keys, in
// the order they blocked, the keys signalled ready since the last command, and the deadlines.
// A blocked session's command is run again when a key it waits on is ready (after the command
// that signalled it finished) or when its timeout passes; the plugin's handler decides, with
// call_block_state, whether it can now reply. Contract: plugin.h's call_block. Main thread.
#pragma once

#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "host/core/registry.h"

namespace plinth::host {

struct Session;
struct ReplySink;

// What one blocked session waits for: its command (copied), its keys and its deadline.
struct BlockedCommand {
  ReplySink* sink = nullptr;
  int32_t db = 0;
  std::vector<std::string> argv;
  std::vector<std::string> keys;  // distinct
  int64_t deadline_ms = -1;       // -1: none
  uint64_t seq = 0;               // blocking order, ties broken in deadlines
  bool paused = false;            // held by a client pause (pause.cc), not blocked by its command
};

class Blocking {
 public:
  // Registers s (whose block is set) as waiting on its keys, last in each key's queue.
  void Add(Session* s);
  // Forgets s's waits and deadline; clears s.block.
  void Remove(Session* s);
  // A key changed so that its waiters may be served; cheap when nobody waits on it.
  void Signal(int32_t db, std::string_view key);
  // Takes the keys signalled since the last call, in signal order.
  std::vector<std::pair<int32_t, std::string>> TakeReady();
  bool HasReady() const { return !ready_.empty() || !woken_.empty(); }
  // The blocked session with client id id is to run again with PLINTH_BLOCK_WOKEN
  // (client_wake); false when no blocked session has that id. TakeWoken hands the sessions
  // woken since the last call over, in wake order.
  bool Wake(uint64_t id);
  std::vector<Session*> TakeWoken();
  // Wakes the sessions a client pause holds, in the order they were held.
  void WakeHeld();
  // The sessions waiting on key in db, in blocking order (a copy: serving changes the queue).
  std::vector<Session*> Waiters(int32_t db, std::string_view key) const;
  // The earliest deadline (unix ms), or -1 when no blocked session has one.
  int64_t NextDeadline() const;
  // The sessions whose deadline is at or before now_ms, earliest first.
  std::vector<Session*> Expired(int64_t now_ms) const;
  // Number of blocked sessions (INFO blocked_clients).
  size_t Count() const { return sessions_; }

 private:
  void Wake(Session* s);
  static std::string Slot(int32_t db, std::string_view key);
  std::unordered_map<std::string, std::deque<Session*>, StringViewHash, std::equal_to<>> waiting_;
  std::vector<std::pair<int32_t, std::string>> ready_;
  std::vector<Session*> woken_;
  std::set<std::pair<int64_t, uint64_t>> deadlines_;
  std::unordered_map<uint64_t, Session*> by_seq_;
  uint64_t next_seq_ = 1;
  size_t sessions_ = 0;
};

}  // namespace plinth::host
