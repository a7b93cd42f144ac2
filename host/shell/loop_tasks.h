// The shell's clock and its Scheduler port over the libuv loop: plugin timers as uv timers, and
// tasks posted from any thread, run on the loop by a uv_async. Main thread unless noted.
#pragma once

#include <uv.h>

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "host/core/env.h"

namespace plinth::host {

// Wall clock in unix microseconds. Any thread.
int64_t WallUs();

// The Clock port: the wall clock.
class WallClock final : public Clock {
 public:
  int64_t NowUs() override { return WallUs(); }
};

class LoopTasks final : public Scheduler {
 public:
  // Takes posted tasks from now on; they run on loop.
  explicit LoopTasks(uv_loop_t* loop);
  LoopTasks(const LoopTasks&) = delete;
  LoopTasks& operator=(const LoopTasks&) = delete;

  // Refuses posts from now on, runs those queued, and closes the async handle (shutdown).
  void Close();

  plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                             void* arg) override;
  void TimerStop(plinth_timer_t* timer) override;
  // Any thread.
  int32_t Post(plinth_task_fn fn, void* arg) override;

 private:
  // Runs the tasks queued so far.
  void RunPosted();

  uv_loop_t* loop_;
  uv_async_t async_;
  std::mutex mu_;  // guards posted_ and, for writers, accepting_
  std::vector<std::pair<plinth_task_fn, void*>> posted_;
  std::atomic<bool> accepting_{false};
};

}  // namespace plinth::host
