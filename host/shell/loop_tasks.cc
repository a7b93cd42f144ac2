// Timers and posted tasks on the libuv loop, and the wall clock.
#include "host/shell/loop_tasks.h"

#include <sys/time.h>

namespace plinth::host {
namespace {

struct UvTimer : plinth_timer {
  uv_timer_t handle;
};

void OnTimer(uv_timer_t* h) {
  auto* t = static_cast<UvTimer*>(h->data);
  t->fn(t->arg);
}

}  // namespace

int64_t WallUs() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<int64_t>(tv.tv_sec) * 1000000 + tv.tv_usec;
}

LoopTasks::LoopTasks(uv_loop_t* loop) : loop_(loop) {
  uv_async_init(loop_, &async_,
                [](uv_async_t* h) { static_cast<LoopTasks*>(h->data)->RunPosted(); });
  async_.data = this;
  accepting_ = true;
}

plinth_timer_t* LoopTasks::TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                                      void* arg) {
  auto* t = new UvTimer();
  t->scheduler = this;
  t->fn = fn;
  t->arg = arg;
  uv_timer_init(loop_, &t->handle);
  t->handle.data = t;
  uv_timer_start(&t->handle, OnTimer, ms, repeat_ms);
  return t;
}

void LoopTasks::TimerStop(plinth_timer_t* timer) {
  auto* t = static_cast<UvTimer*>(timer);
  uv_timer_stop(&t->handle);
  uv_close(reinterpret_cast<uv_handle_t*>(&t->handle),
           [](uv_handle_t* h) { delete static_cast<UvTimer*>(h->data); });
}

int32_t LoopTasks::Post(plinth_task_fn fn, void* arg) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!accepting_.load()) return PLINTH_ERR;
    posted_.emplace_back(fn, arg);
  }
  uv_async_send(&async_);
  return PLINTH_OK;
}

void LoopTasks::RunPosted() {
  std::vector<std::pair<plinth_task_fn, void*>> tasks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks.swap(posted_);
  }
  for (auto& [fn, arg] : tasks) fn(arg);
}

void LoopTasks::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    accepting_ = false;
  }
  RunPosted();
  uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
}

}  // namespace plinth::host
