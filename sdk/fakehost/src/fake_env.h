// The fake host's environment: every port of the core's Env (env.h) in one object, as a test
// drives them together: a clock the test sets, timers that fire only when the test advances
// that clock, a task queue the test drains, captured log lines, and one client; no transports.
// Main thread (the test's) except Post and Log, which any thread may call.
#ifndef PLINTH_FAKEHOST_FAKE_ENV_H
#define PLINTH_FAKEHOST_FAKE_ENV_H

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <plinth/fakehost.hpp>
#include <string>
#include <utility>
#include <vector>

#include "host/core/env.h"
#include "host/core/session.h"

namespace plinth::fakehost {

class FakeEnv final : public host::Clock,
                      public host::LogSink,
                      public host::Scheduler,
                      public host::Connections,
                      public host::ClientDirectory,
                      public host::Memory,
                      public host::Process {
 public:
  // The ports for the core: all of them this object.
  host::Env Ports() { return {this, this, this, this, this, this, this}; }

  int64_t now_ms = FakeHost::kDefaultTimeMs;
  host::Session* session = nullptr;  // the one client
  bool shutdown_requested = false;
  int64_t used_memory = 0;  // what UsedMemory reports (FakeHost::SetUsedMemory)
  // Delivers client_push to a fake client; set by the fake host.
  std::function<int32_t(uint64_t, const plinth_reply_item_t*, size_t)> push;
  // Visits the fake clients' sessions; set by the fake host.
  std::function<void(const std::function<void(host::Session&)>&)> sessions;
  void ForEachSession(const std::function<void(host::Session&)>& fn) override {
    if (sessions) sessions(fn);
  }

  // Fires, in time order, every timer due up to now_ms + ms, the clock at each one's time.
  void Advance(int64_t ms);
  // Timers started and not stopped that can still fire.
  size_t ActiveTimers() const;
  // Forgets every timer (at shutdown); returns how many were still running.
  size_t DropTimers();
  // Runs the queued tasks, and those they queue. Returns how many ran.
  int RunPosted();

  std::vector<LogLine> Logs() const;
  void ClearLogs();
  void SetLogEcho(bool echo);

  // -- the ports --
  int64_t NowUs() override { return now_ms * 1000; }
  void Log(host::LogLevel level, std::string_view plugin, std::string_view text) override;
  plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                             void* arg) override;
  void TimerStop(plinth_timer_t* timer) override;
  int32_t Post(plinth_task_fn fn, void* arg) override;
  int32_t ListenerAdd(int32_t, int32_t, const char*) override { return PLINTH_ERR; }
  void DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) override;
  // "fake:0" for client 1 (as CLIENT LIST shows it), "fake:<id>" for the added clients.
  std::string ClientAddr(uint64_t id) override {
    return "fake:" + std::to_string(session && id == session->id ? 0 : id);
  }
  int64_t KillClients(host::Session* caller, uint32_t filter, std::string_view value) override;
  void RequestShutdown() override { shutdown_requested = true; }
  void InfoFields(std::string_view section, std::string* out) override;
  int64_t UsedMemory() override { return used_memory; }
  int32_t PushToClient(uint64_t id, const plinth_reply_item_t* items, size_t n) override {
    return push ? push(id, items, n) : PLINTH_ERR;
  }

 private:
  struct Timer : plinth_timer {
    uint64_t seq = 0;
    int64_t due_ms = 0;  // INT64_MAX: a one-shot timer that fired
    uint64_t repeat_ms = 0;
  };
  std::map<uint64_t, std::unique_ptr<Timer>> timers_;  // by start order
  uint64_t next_seq_ = 1;

  mutable std::mutex mu_;  // guards what follows: written from any thread
  std::vector<LogLine> logs_;
  bool echo_ = false;
  std::vector<std::pair<plinth_task_fn, void*>> posted_;
};

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_FAKE_ENV_H
