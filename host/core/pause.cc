// Client pauses (CLIENT PAUSE, FAILOVER): each plugin keeps one pause; a command one of them
// holds waits as a blocked command with no key whose deadline is the pause's end, and runs
// again when the pauses change or that end passes (Rerun), held again if another pause still
// holds it.
#include <algorithm>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

uint32_t Sessions::PauseInForce(int64_t now_ms, int64_t* end_ms) {
  uint32_t what = PLINTH_PAUSE_NONE;
  int64_t end = 0;
  for (auto it = pauses_.begin(); it != pauses_.end();) {
    if (it->second.end_ms <= now_ms) {
      it = pauses_.erase(it);
      continue;
    }
    what = std::max(what, it->second.what);
    end = std::max(end, it->second.end_ms);
    ++it;
  }
  if (end_ms) *end_ms = end;
  return what;
}

bool Sessions::WritesPaused() {
  return !pauses_.empty() && PauseInForce(core_.server.NowMs(), nullptr);
}

bool Sessions::HoldPaused(Session& s, ReplySink& sink, const ParsedRequest& r, const Command* cmd) {
  // Replicas and internal clients go on; so do the commands of an EXEC or a script that
  // started (a pause is checked where a client's command arrives, as Redis does).
  if (s.internal || s.replica || core_.dispatch.Executing() || (s.run_flags & Session::kRunSession))
    return false;
  int64_t end_ms;
  const uint32_t what = PauseInForce(core_.server.NowMs(), &end_ms);
  constexpr uint32_t kMayWrite = PLINTH_CMD_WRITE | PLINTH_CMD_MAY_REPLICATE;
  const bool holds = what == PLINTH_PAUSE_ALL ||
                     (what == PLINTH_PAUSE_WRITE &&
                      ((cmd->spec.flags & kMayWrite) ||
                       (cmd == core_.registry.exec && (s.tx.queued_flags & kMayWrite))));
  if (!holds) return false;
  // Held: a blocked command with no key until end_ms.
  auto b = std::make_unique<BlockedCommand>();
  b->sink = &sink;
  b->db = s.db;
  b->paused = true;
  b->deadline_ms = end_ms;
  for (int32_t i = 0; i < r.argc; ++i) b->argv.emplace_back(r.argv[i], r.argvlen[i]);
  if (s.block) {  // a held command run again and held again (or a woken one now held)
    blocking.Remove(&s);
    rerun_reblocked_ = true;
  }
  s.block = std::move(b);
  blocking.Add(&s);
  return true;
}

void Sessions::SetPause(const std::string& owner, uint32_t what, int64_t end_ms) {
  const uint32_t before = PauseInForce(core_.server.NowMs(), nullptr);
  if (what == PLINTH_PAUSE_NONE) {
    pauses_.erase(owner);
  } else {
    pauses_[owner] = {what, end_ms};
  }
  // Less is held now: every held command runs again, in the order they were held; those a
  // pause still holds are held again.
  if (PauseInForce(core_.server.NowMs(), nullptr) < before) {
    blocking.WakeHeld();
    if (!core_.dispatch.Executing()) ServeBlocked();
  }
}

}  // namespace plinth::host
