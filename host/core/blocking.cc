// The blocked-session index and the core's serving of ready keys and timeouts; the host API of
// blocking commands (call_block, call_block_state, key_signal_ready) is in api/commands.cc.
#include "host/core/blocking.h"

#include <algorithm>

#include "host/core/keys.h"

namespace plinth::host {

std::string Blocking::Slot(int32_t db, std::string_view key) {
  std::string s(reinterpret_cast<const char*>(&db), sizeof db);
  s.append(key);
  return s;
}

void Blocking::Add(Session* s) {
  BlockedCommand& b = *s->block;
  b.seq = next_seq_++;
  for (const std::string& k : b.keys) waiting_[Slot(b.db, k)].push_back(s);
  if (b.deadline_ms >= 0) deadlines_.insert({b.deadline_ms, b.seq});
  by_seq_[b.seq] = s;
  sessions_++;
}

void Blocking::Remove(Session* s) {
  if (!s->block) return;
  BlockedCommand& b = *s->block;
  for (const std::string& k : b.keys) {
    auto it = waiting_.find(Slot(b.db, k));
    if (it == waiting_.end()) continue;
    auto& q = it->second;
    q.erase(std::remove(q.begin(), q.end(), s), q.end());
    if (q.empty()) waiting_.erase(it);
  }
  if (b.deadline_ms >= 0) deadlines_.erase({b.deadline_ms, b.seq});
  by_seq_.erase(b.seq);
  woken_.erase(std::remove(woken_.begin(), woken_.end(), s), woken_.end());
  sessions_--;
  s->block.reset();
}

void Blocking::Signal(int32_t db, std::string_view key) {
  if (waiting_.empty()) return;
  std::string slot = Slot(db, key);
  if (waiting_.find(slot) == waiting_.end()) return;
  for (const auto& r : ready_)
    if (r.first == db && r.second == key) return;
  ready_.emplace_back(db, std::string(key));
}

void Blocking::Wake(Session* s) {
  if (std::find(woken_.begin(), woken_.end(), s) == woken_.end()) woken_.push_back(s);
}

bool Blocking::Wake(uint64_t id) {
  for (const auto& [seq, s] : by_seq_) {
    if (s->id != id) continue;
    Wake(s);
    return true;
  }
  return false;
}

std::vector<Session*> Blocking::TakeWoken() {
  std::vector<Session*> r;
  r.swap(woken_);
  return r;
}

std::vector<std::pair<int32_t, std::string>> Blocking::TakeReady() {
  std::vector<std::pair<int32_t, std::string>> r;
  r.swap(ready_);
  return r;
}

std::vector<Session*> Blocking::Waiters(int32_t db, std::string_view key) const {
  auto it = waiting_.find(Slot(db, key));
  if (it == waiting_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

void Blocking::WakeHeld() {
  std::vector<std::pair<uint64_t, Session*>> held;
  for (const auto& [seq, s] : by_seq_)
    if (s->block->paused) held.emplace_back(seq, s);
  std::sort(held.begin(), held.end());
  for (const auto& h : held) Wake(h.second);
}

int64_t Blocking::NextDeadline() const {
  return deadlines_.empty() ? -1 : deadlines_.begin()->first;
}

std::vector<Session*> Blocking::Expired(int64_t now_ms) const {
  std::vector<Session*> r;
  for (const auto& [when, seq] : deadlines_) {
    if (when > now_ms) break;
    r.push_back(by_seq_.at(seq));
  }
  return r;
}

// -- the sessions' side --

void Sessions::Rerun(Session& s, int32_t state) {
  BlockedCommand& b = *s.block;
  const uint64_t seq = b.seq;
  // The arguments stay here while the command runs: the run may replace s.block (a held
  // command that now blocks on its keys, or is held again).
  std::vector<std::string> args = std::move(b.argv);
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  // A command a pause held has not run yet: it runs as new.
  rerun_state_ = b.paused ? PLINTH_BLOCK_NONE : state;
  rerun_reblocked_ = false;
  const int32_t db = s.db;
  s.db = b.db;
  core_.dispatch.Execute(s, *b.sink, static_cast<int32_t>(argv.size()), argv.data(), lens.data());
  s.db = db;
  rerun_state_ = PLINTH_BLOCK_NONE;
  if (s.block && s.block->seq == seq) s.block->argv = std::move(args);
  if (rerun_reblocked_) return;  // waiting again: in the same place, or anew
  blocking.Remove(&s);
  core_.server.env().clients->ClientUnblocked(s);
}

bool Sessions::Wake(uint64_t id) {
  if (!blocking.Wake(id)) return false;
  if (!core_.dispatch.Executing()) ServeBlocked();
  return true;
}

void Sessions::ServeBlocked() {
  if (serving_) return;  // the loop below picks up what a rerun signals
  serving_ = true;
  while (blocking.HasReady()) {
    for (Session* s : blocking.TakeWoken())
      if (s->block) Rerun(*s, PLINTH_BLOCK_WOKEN);
    for (const auto& [db, key] : blocking.TakeReady()) {
      for (Session* s : blocking.Waiters(db, key)) {
        if (!s->block) continue;  // served meanwhile through another key
        const Entry* e = core_.keyspace.dbs[db].Find(key);
        if (!e || EntryExpired(e, core_.server.NowMs())) break;  // taken: the rest keep waiting
        Rerun(*s, PLINTH_BLOCK_WOKEN);
      }
    }
  }
  serving_ = false;
}

void Sessions::ServeTimeouts(int64_t now_ms) {
  for (Session* s : blocking.Expired(now_ms))
    if (s->block) Rerun(*s, PLINTH_BLOCK_TIMEOUT);
  ServeBlocked();
}

void Sessions::SessionClosed(Session& s) {
  blocking.Remove(&s);
  core_.events.ClientEvent(s, PLINTH_CLIENT_CLOSED);
}

}  // namespace plinth::host
