// The fake host's clock, timers, tasks, log capture and single client.
#include "fake_env.h"

#include <climits>
#include <cstdio>

namespace plinth::fakehost {

void FakeEnv::Log(host::LogLevel level, std::string_view plugin, std::string_view text) {
  LogLine line{static_cast<uint32_t>(level), std::string(plugin), std::string(text)};
  std::lock_guard<std::mutex> lock(mu_);
  if (echo_)
    std::fprintf(stderr, "[%s] %u %s\n", line.plugin.empty() ? "fakehost" : line.plugin.c_str(),
                 line.level, line.text.c_str());
  logs_.push_back(std::move(line));
}

std::vector<LogLine> FakeEnv::Logs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return logs_;
}

void FakeEnv::ClearLogs() {
  std::lock_guard<std::mutex> lock(mu_);
  logs_.clear();
}

void FakeEnv::SetLogEcho(bool echo) {
  std::lock_guard<std::mutex> lock(mu_);
  echo_ = echo;
}

plinth_timer_t* FakeEnv::TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                                    void* arg) {
  auto t = std::make_unique<Timer>();
  t->scheduler = this;
  t->fn = fn;
  t->arg = arg;
  t->seq = next_seq_++;
  t->due_ms = now_ms + static_cast<int64_t>(ms);
  t->repeat_ms = repeat_ms;
  Timer* raw = t.get();
  timers_.emplace(raw->seq, std::move(t));
  return raw;
}

void FakeEnv::TimerStop(plinth_timer_t* timer) { timers_.erase(static_cast<Timer*>(timer)->seq); }

void FakeEnv::Advance(int64_t ms) {
  const int64_t target = now_ms + (ms > 0 ? ms : 0);
  for (;;) {
    Timer* next = nullptr;
    for (auto& [seq, t] : timers_)
      if (t->due_ms <= target && (!next || t->due_ms < next->due_ms)) next = t.get();
    if (!next) break;
    if (next->due_ms > now_ms) now_ms = next->due_ms;
    const uint64_t seq = next->seq;
    const bool one_shot = next->repeat_ms == 0;
    next->due_ms = one_shot ? INT64_MAX : next->due_ms + static_cast<int64_t>(next->repeat_ms);
    plinth_timer_fn fn = next->fn;
    void* arg = next->arg;
    fn(arg);  // may stop this or any timer
    (void)seq;
  }
  now_ms = target;
}

size_t FakeEnv::ActiveTimers() const {
  size_t n = 0;
  for (const auto& [seq, t] : timers_) n += t->due_ms != INT64_MAX ? 1 : 0;
  return n;
}

size_t FakeEnv::DropTimers() {
  size_t n = timers_.size();
  timers_.clear();
  return n;
}

int32_t FakeEnv::Post(plinth_task_fn fn, void* arg) {
  std::lock_guard<std::mutex> lock(mu_);
  posted_.emplace_back(fn, arg);
  return PLINTH_OK;
}

int FakeEnv::RunPosted() {
  int ran = 0;
  for (;;) {
    std::vector<std::pair<plinth_task_fn, void*>> batch;
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch.swap(posted_);
    }
    if (batch.empty()) return ran;
    for (auto& [fn, arg] : batch) {
      fn(arg);
      ++ran;
    }
  }
}

void FakeEnv::DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) {
  if (!session || (id && id != session->id)) return;
  host::ConnFields f;
  f.addr = f.laddr = "fake:0";
  std::string line = host::ClientListLine(*session, f);
  emit(arg, line.data(), line.size());
}

int64_t FakeEnv::KillClients(host::Session* caller, uint32_t filter, std::string_view value) {
  bool match = session &&
               ((filter == PLINTH_KILL_ID && value == std::to_string(session->id)) ||
                ((filter == PLINTH_KILL_ADDR || filter == PLINTH_KILL_LADDR) && value == "fake:0"));
  if (!match) return 0;
  if (caller == session) session->close_after_reply = true;
  return 1;
}

void FakeEnv::InfoFields(std::string_view section, std::string* out) {
  if (section == "clients") *out += "connected_clients:1\r\n";
  if (section == "listeners") *out += "tcp_port:0\r\n";  // no transport listens here
}

}  // namespace plinth::fakehost
