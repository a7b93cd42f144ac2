// The lazy-free worker: a queue of values under a mutex, drained by one thread that lives as
// long as the process (joined at exit).
#include "host/core/lazy_free.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "host/core/value.h"

namespace plinth::host {
namespace {

class Worker {
 public:
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void Push(const plinth_value_t* v) {
    pending_.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
      queue_.push_back(v);
    }
    wake_.notify_one();
  }

  void Drain() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
  }

  uint64_t Pending() const { return pending_.load(std::memory_order_relaxed); }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      const plinth_value_t* v = queue_.front();
      queue_.pop_front();
      busy_ = true;
      lock.unlock();
      ValueRelease(v);
      pending_.fetch_sub(1, std::memory_order_relaxed);
      lock.lock();
      busy_ = false;
      if (queue_.empty()) idle_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::deque<const plinth_value_t*> queue_;
  std::atomic<uint64_t> pending_{0};
  bool busy_ = false;
  bool stop_ = false;
  std::thread thread_;
};

Worker& TheWorker() {
  static Worker w;
  return w;
}

bool WorthDeferring(const plinth_value_t* v) {
  if (v->type == PLINTH_TYPE_STRING || (v->flags & kValIndirect) ||
      v->refs.load(std::memory_order_acquire) != 1)
    return false;
  const TypeEntry* t = TypeOf(v);
  return t->spec.free_effort && t->spec.free_effort(ValuePayloadOf(v)) > kLazyFreeThreshold;
}

}  // namespace

void ReleaseLazily(const plinth_value_t* v) {
  if (WorthDeferring(v))
    TheWorker().Push(v);
  else
    ValueRelease(v);
}

uint64_t LazyFreePending() { return TheWorker().Pending(); }

void LazyFreeDrain() { TheWorker().Drain(); }

}  // namespace plinth::host
