// The parts of Parker that fence, sleep or wake: announcing a park, parking and waking, over a
// futex (Linux) or a mutex and condition variable (PLINTH_PARK=condvar, and off Linux).
#include "host/shell/io/parker.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef __linux__
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>
#endif

namespace plinth::host {
namespace {

// Orders a store before a later load of another variable, which acquire/release cannot: the
// waiter stores "parking" then loads what ready() reads, a waker stores what ready() reads then
// loads the state. With this fence on both sides, at least one of them sees the other's store.
// TSan does not model fences and GCC says so; it checks no store-load order anyway, and no data
// here is published through the fence, so its reports stay sound.
inline void StoreLoadFence() {
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
  std::atomic_thread_fence(std::memory_order_seq_cst);
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
}

ParkerOptions Checked(ParkerOptions options) {
  using std::chrono::nanoseconds;
  // An hour bounds the doubling below far from overflow; no sane spin comes near it.
  options.max_spin = std::clamp(options.max_spin, nanoseconds(0), nanoseconds(3'600'000'000'000));
  options.min_spin = std::clamp(options.min_spin, nanoseconds(0), options.max_spin);
  return options;
}

// The CPU this thread runs on, or -1 where that is unknown. A load of the rseq area with glibc
// 2.35+, the vDSO before; called only where a syscall is made anyway.
int CurrentCpu() {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

// Whether the calling thread may run on one CPU only.
bool OnOneCpu() {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1;
#else
  return false;
#endif
}

// The mode a parker can use: any on Linux, the condition variable elsewhere (no futex).
ParkMode Usable(ParkMode mode) {
#ifdef __linux__
  return mode;
#else
  static_cast<void>(mode);
  return ParkMode::kCondvar;
#endif
}

ParkMode ModeFromEnvironment() {
#ifndef __linux__
  return ParkMode::kCondvar;
#else
  const char* value = std::getenv("PLINTH_PARK");
  if (value == nullptr || *value == '\0' || std::strcmp(value, "futex") == 0) {
    return ParkMode::kFutex;
  }
  if (std::strcmp(value, "condvar") == 0) return ParkMode::kCondvar;
  std::fprintf(stderr, "PLINTH_PARK=%s is neither futex nor condvar; parking on a futex\n", value);
  return ParkMode::kFutex;
#endif
}

#ifdef __linux__
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "the futex word must be a plain 32-bit integer");

long Futex(std::atomic<uint32_t>* word, int op, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, value, timeout, nullptr, 0);
}
#endif

}  // namespace

ParkMode DefaultParkMode() {
  static const ParkMode mode = ModeFromEnvironment();
  return mode;
}

Parker::Parker(ParkerOptions options, ParkMode mode)
    : options_(Checked(options)),
      mode_(Usable(mode)),
      spin_budget_ns_(options_.min_spin.count()),
      one_cpu_(OnOneCpu()) {}

Parker::~Parker() = default;

int64_t Parker::NextSpinBudget(int64_t budget_ns, int64_t slept_ns, bool waker_shared_cpu,
                               const ParkerOptions& options) {
  const int64_t lo = options.min_spin.count(), hi = options.max_spin.count();
  // Woken no later than the longest spin allowed: a longer spin would have caught the work
  // without two syscalls and a wake-up on the waker's path, so spin longer (from 1 us at least,
  // so a budget of zero can grow). Woken later: this spin was wasted CPU, so spin a quarter
  // less; shrinking slower than growing keeps one idle gap from undoing a busy stretch. A waker
  // that had to wait for the waiter's CPU shows that spinning delays the work rather than that
  // the work comes soon (an oversubscribed machine), so that wake shrinks the budget too.
  const bool soon = slept_ns <= hi && !waker_shared_cpu;
  const int64_t next = soon ? std::max<int64_t>(2 * budget_ns, 1000) : budget_ns - budget_ns / 4;
  return std::clamp(next, lo, hi);
}

void Parker::AnnounceParking() {
  state_.store(kParking, std::memory_order_relaxed);
  StoreLoadFence();
}

void Parker::CancelParking() {
  state_.store(kRunning, std::memory_order_relaxed);
  Grow();  // the work arrived right after the spin gave up
}

void Parker::Grow() {
  const int64_t budget = spin_budget_ns_.load(std::memory_order_relaxed);
  spin_budget_ns_.store(NextSpinBudget(budget, 0, false, options_), std::memory_order_relaxed);
}

void Parker::Park(int64_t deadline_ns) {
  uint32_t expected = kParking;
  if (!state_.compare_exchange_strong(expected, kParked, std::memory_order_acquire)) {
    Grow();  // a waker saw "parking" and set running: no sleep and no syscall on either side
    return;
  }
  BumpRelaxed(parks_);
  const int cpu = CurrentCpu();
  const int64_t start = MonotonicNs();
  const bool woken = SleepWhileParked(deadline_ns);
  const int64_t slept = MonotonicNs() - start;
  // After a wake-up a waker already set running; after a timeout the waiter does, and a waker
  // racing with it writes the same value.
  state_.store(kRunning, std::memory_order_relaxed);
  one_cpu_.store(OnOneCpu(), std::memory_order_relaxed);  // the waiter's own affinity
  if (woken) {
    // A hint, not a synchronisation: a stale CPU number only makes one step of the rule wrong.
    const bool shared = cpu >= 0 && waker_cpu_.load(std::memory_order_relaxed) == cpu;
    const int64_t budget = spin_budget_ns_.load(std::memory_order_relaxed);
    spin_budget_ns_.store(NextSpinBudget(budget, slept, shared, options_),
                          std::memory_order_relaxed);
  }
}

// One predictable branch on the sleeping and waking side only (the mode never changes); the
// waiter's spin and a Wake that finds the waiter running never look at it.
bool Parker::SleepWhileParked(int64_t deadline_ns) {
  return mode_ == ParkMode::kFutex ? FutexSleepWhileParked(deadline_ns)
                                   : CondvarSleepWhileParked(deadline_ns);
}

void Parker::WakeSleeper() {
#ifdef __linux__
  if (mode_ == ParkMode::kFutex) {
    Futex(&state_, FUTEX_WAKE_PRIVATE, 1, nullptr);
    return;
  }
#endif
  { std::lock_guard<std::mutex> lock(mutex_); }
  cv_.notify_one();
}

bool Parker::FutexSleepWhileParked(int64_t deadline_ns) {
#ifndef __linux__
  return CondvarSleepWhileParked(deadline_ns);  // never reached: the constructor chose it
#else
  // Acquire: pairs with the waker's exchange, so ready() sees what it wrote before Wake().
  while (state_.load(std::memory_order_acquire) == kParked) {
    timespec ts;
    timespec* timeout = nullptr;
    if (deadline_ns != kNoDeadline) {
      const int64_t left = deadline_ns - MonotonicNs();
      if (left <= 0) return false;
      ts.tv_sec = static_cast<time_t>(left / 1'000'000'000);
      ts.tv_nsec = static_cast<long>(left % 1'000'000'000);
      timeout = &ts;
    }
    // The kernel sleeps only while the word still holds kParked, so a waker that set running
    // just before makes this return at once (EAGAIN). EINTR and spurious returns loop.
    Futex(&state_, FUTEX_WAIT_PRIVATE, kParked, timeout);
  }
  return true;
#endif
}

bool Parker::CondvarSleepWhileParked(int64_t deadline_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  // Checked under the mutex, which the waker takes after changing the state and before it
  // notifies: either this sees running, or the waiter is already waiting when notified.
  while (state_.load(std::memory_order_acquire) == kParked) {
    if (deadline_ns == kNoDeadline) {
      cv_.wait(lock);
      continue;
    }
    const std::chrono::steady_clock::time_point deadline(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::nanoseconds(deadline_ns)));
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
      return state_.load(std::memory_order_acquire) != kParked;
    }
  }
  return true;
}

void Parker::Wake() {
  StoreLoadFence();
  // A running waiter will check ready() again, so it needs nothing, and this touches its line
  // only to read. A parking one is caught before it sleeps: its move to parked then fails.
  if (state_.load(std::memory_order_relaxed) == kRunning ||
      state_.exchange(kRunning, std::memory_order_acq_rel) != kParked) {
    wakes_skipped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  waker_cpu_.store(CurrentCpu(), std::memory_order_relaxed);
  WakeSleeper();
  wakes_issued_.fetch_add(1, std::memory_order_relaxed);
}

ParkerStats Parker::Stats() const {
  ParkerStats stats;
  stats.spin_hits = spin_hits_.load(std::memory_order_relaxed);
  stats.parks = parks_.load(std::memory_order_relaxed);
  stats.wakes_issued = wakes_issued_.load(std::memory_order_relaxed);
  stats.wakes_skipped = wakes_skipped_.load(std::memory_order_relaxed);
  stats.spin_budget_ns = one_cpu_.load(std::memory_order_relaxed)
                             ? 0
                             : spin_budget_ns_.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace plinth::host
