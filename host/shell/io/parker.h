// Where one thread waits for work another thread hands it: the waiter spins for an adaptive
// budget, then sleeps on a futex (a condition variable when PLINTH_PARK=condvar is in the
// environment at startup, or off Linux) until a waker calls Wake(). A waker makes a syscall only
// when the waiter is asleep.
// THREAD: one waiter (the only thread that calls Wait/TryWaitFor), any number of wakers.
// docs/io-threads.md describes the protocol.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "host/shell/io/cpu.h"

namespace plinth::host {

// Where a parked waiter sleeps: on a futex on its state word, or on a mutex and condition
// variable (the fallback, and the only choice off Linux).
enum class ParkMode : uint8_t { kFutex, kCondvar };

// The process's mode: kCondvar when the environment variable PLINTH_PARK is "condvar" (read once,
// the first time this is called), or off Linux; kFutex otherwise. An unknown value of PLINTH_PARK
// is reported on stderr once and ignored. OWNERSHIP: none. THREAD: any.
ParkMode DefaultParkMode();

// Bounds of the adaptive spin. The defaults need no tuning (docs/io-threads.md says why);
// max_spin = 0 never spins, min_spin = max_spin fixes the budget.
struct ParkerOptions {
  std::chrono::nanoseconds min_spin = std::chrono::microseconds(2);
  std::chrono::nanoseconds max_spin = std::chrono::microseconds(32);
};

// Totals since construction, for INFO. Each field is exact; two fields read together may be
// from slightly different moments.
struct ParkerStats {
  uint64_t spin_hits = 0;      // waits whose spin found work, so they never parked
  uint64_t parks = 0;          // times the waiter went to sleep
  uint64_t wakes_issued = 0;   // Wake calls that made a wake syscall (the waiter was asleep)
  uint64_t wakes_skipped = 0;  // Wake calls that made none (it was running or about to park)
  int64_t spin_budget_ns = 0;  // the current spin budget (0 while the waiter has one CPU)
};

class Parker {
 public:
  // A parker whose waiter is running, with the spin budget at options.min_spin (bounds out of
  // order are clamped: max_spin to [0, 1 h], min_spin to [0, max_spin]), sleeping as "mode"
  // says (kFutex is taken as kCondvar off Linux). OWNERSHIP: copies "options". THREAD: any.
  explicit Parker(ParkerOptions options = {}, ParkMode mode = DefaultParkMode());
  // THREAD: no thread may be in Wait or Wake, nor enter them after.
  ~Parker();
  Parker(const Parker&) = delete;
  Parker& operator=(const Parker&) = delete;

  // Returns once ready() is true: checks it, spins checking it for the current budget, then
  // parks until woken and checks again. ready() must read, with acquire, what the waker wrote
  // with release (or stronger) before its Wake(), and have no side effects the waiter minds
  // repeating. OWNERSHIP: borrows "ready" for the call. THREAD: the waiter only.
  template <typename Ready>
  void Wait(Ready&& ready) {
    WaitUntil(ready, kNoDeadline);
  }
  // As Wait, but gives up after "timeout"; returns ready()'s last answer. A timeout of zero or
  // less checks ready() once and never spins or sleeps. OWNERSHIP: borrows "ready" for the
  // call. THREAD: the waiter only.
  template <typename Ready>
  bool TryWaitFor(Ready&& ready, std::chrono::nanoseconds timeout) {
    if (timeout.count() <= 0) return ready();
    const int64_t now = MonotonicNs();
    return WaitUntil(ready,
                     timeout.count() < kNoDeadline - now ? now + timeout.count() : kNoDeadline);
  }

  // Makes a parked waiter return to checking ready(); call it after making ready() true. While
  // the waiter is running or spinning it costs a fence, a load and a counter, and no syscall.
  // Never blocks. OWNERSHIP: none. THREAD: any.
  void Wake();

  // The counters, read with relaxed loads. OWNERSHIP: returns a copy. THREAD: any.
  ParkerStats Stats() const;
  // How this parker sleeps. OWNERSHIP: none. THREAD: any.
  ParkMode mode() const { return mode_; }

  // The adaptive rule: the spin budget after a park that a waker (not a timeout) ended
  // "slept_ns" after it began. "waker_shared_cpu": the waker ran on the CPU the waiter spun on,
  // so it could not have made ready() true during the spin. Exposed to be testable without
  // threads. OWNERSHIP: none. THREAD: any.
  static int64_t NextSpinBudget(int64_t budget_ns, int64_t slept_ns, bool waker_shared_cpu,
                                const ParkerOptions& options);

 private:
  static constexpr int64_t kNoDeadline = INT64_MAX;
  // How many spin iterations pass between two looks at the clock.
  static constexpr uint32_t kChecksPerClockRead = 8;
  enum : uint32_t { kRunning = 0, kParking = 1, kParked = 2 };

  template <typename Ready>
  bool WaitUntil(Ready& ready, int64_t deadline_ns);
  template <typename Ready>
  bool Spin(Ready& ready, int64_t deadline_ns);

  // running -> parking, then a full fence, so the waiter's next check of ready() and a waker's
  // look at the state cannot both miss each other.
  void AnnounceParking();
  // parking -> running: the check after AnnounceParking found work.
  void CancelParking();
  // parking -> parked -> asleep until a waker sets running or the deadline passes; back to
  // running either way. Returns at once when a waker already reset the state.
  void Park(int64_t deadline_ns);
  // Sleeps while the state is parked. Returns false when the deadline passed first.
  bool SleepWhileParked(int64_t deadline_ns);
  bool FutexSleepWhileParked(int64_t deadline_ns);
  bool CondvarSleepWhileParked(int64_t deadline_ns);
  void WakeSleeper();
  void Grow();

  // The state word, read by every waker; written by the waiter when it parks and by a waker
  // that ends a park. The futex sleeps on it.
  alignas(kCacheLineSize) std::atomic<uint32_t> state_{kRunning};
  const ParkerOptions options_;
  const ParkMode mode_;
  // Written by the waiter only.
  alignas(kCacheLineSize) std::atomic<int64_t> spin_budget_ns_;
  // The waiter may run on one CPU only (taskset, cgroup cpuset): no waker can run while it
  // spins, so it never spins. Refreshed after every park.
  std::atomic<bool> one_cpu_{false};
  std::atomic<uint64_t> spin_hits_{0};
  std::atomic<uint64_t> parks_{0};
  // Written by wakers.
  alignas(kCacheLineSize) std::atomic<uint64_t> wakes_issued_{0};
  std::atomic<uint64_t> wakes_skipped_{0};
  std::atomic<int> waker_cpu_{-1};  // where the last wake syscall came from; -1: unknown
  // Where the condition-variable mode sleeps; taken only by a waiter going to sleep and a waker
  // waking it. Unused by the futex mode.
  std::mutex mutex_;
  std::condition_variable cv_;
};

template <typename Ready>
bool Parker::WaitUntil(Ready& ready, int64_t deadline_ns) {
  while (!ready()) {
    if (Spin(ready, deadline_ns)) {
      BumpRelaxed(spin_hits_);
      return true;
    }
    if (deadline_ns != kNoDeadline && MonotonicNs() >= deadline_ns) return ready();
    AnnounceParking();
    if (ready()) {
      CancelParking();
      return true;
    }
    Park(deadline_ns);
  }
  return true;
}

template <typename Ready>
bool Parker::Spin(Ready& ready, int64_t deadline_ns) {
  const int64_t budget = spin_budget_ns_.load(std::memory_order_relaxed);
  if (budget <= 0 || one_cpu_.load(std::memory_order_relaxed)) return false;
  const int64_t now = MonotonicNs();
  const int64_t end = deadline_ns - now < budget ? deadline_ns : now + budget;
  for (uint32_t i = 1;; ++i) {
    CpuRelax();
    if (ready()) return true;
    if (i % kChecksPerClockRead == 0 && MonotonicNs() >= end) return false;
  }
}

}  // namespace plinth::host
