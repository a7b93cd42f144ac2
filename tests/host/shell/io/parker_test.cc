// Parker: the adaptive spin rule, timeouts, no wake-up lost across 100k park/wake rounds, an idle
// waiter that sleeps instead of spinning, and a busy pair that makes no wake syscalls. Every case
// with a parker runs twice, sleeping on the futex and on the condition variable (the names end
// in <FutexPark> and <CondvarPark>). Built under TSan in CI (label "threaded").
#include "host/shell/io/parker.h"

#include <doctest/doctest.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "host/shell/io/spsc_ring.h"

namespace {

using namespace std::chrono_literals;
using plinth::host::Parker;
using plinth::host::ParkerOptions;
using plinth::host::ParkerStats;
using plinth::host::ParkMode;

// A lost wake-up hangs both threads; this turns the hang into a failure with a message.
class Watchdog {
 public:
  Watchdog(const char* what, std::chrono::seconds limit)
      : thread_([this, what, limit] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "%s: no progress for %llds, a wake-up was lost\n", what,
                         static_cast<long long>(limit.count()));
            std::_Exit(EXIT_FAILURE);  // the stuck threads cannot be joined
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// Busy-waits a pseudo-random 0 to 63 pauses: a condition check that dawdles after reading widens
// the windows between the waiter's last check, its announcement and its sleep, where a wrong
// protocol would lose a wake-up.
void Dawdle(uint32_t& rng) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  for (uint32_t i = rng % 64; i > 0; --i) plinth::host::CpuRelax();
}

// The two ways to sleep, as types for TEST_CASE_TEMPLATE.
struct FutexPark {
  static constexpr ParkMode kMode = ParkMode::kFutex;
};
struct CondvarPark {
  static constexpr ParkMode kMode = ParkMode::kCondvar;
};

int64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// The budget a parker reports while it has not adapted: its floor, or zero on a process confined
// to one CPU (as under `taskset -c 0`), where spinning never pays.
int64_t ReportedBudget(int64_t floor_ns) {
  cpu_set_t set;
  CPU_ZERO(&set);
  const bool one = sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1;
  return one ? 0 : floor_ns;
}

}  // namespace

TYPE_TO_STRING(FutexPark);
TYPE_TO_STRING(CondvarPark);
#define PARK_MODES FutexPark, CondvarPark

TEST_CASE("parker: the default mode follows PLINTH_PARK in the environment") {
  // .ci/test.sh runs the threaded tests once without it and once with PLINTH_PARK=condvar.
  const char* value = std::getenv("PLINTH_PARK");
  const bool condvar = value != nullptr && std::string_view(value) == "condvar";
  CHECK(plinth::host::DefaultParkMode() == (condvar ? ParkMode::kCondvar : ParkMode::kFutex));
  CHECK(Parker().mode() == plinth::host::DefaultParkMode());
}

TEST_CASE("parker: the spin budget doubles after a park a waker ended soon, up to its ceiling") {
  const ParkerOptions options{2us, 32us};
  CHECK(Parker::NextSpinBudget(2'000, 5'000, false, options) == 4'000);
  CHECK(Parker::NextSpinBudget(4'000, 0, false, options) == 8'000);  // the waker caught it parking
  CHECK(Parker::NextSpinBudget(20'000, 32'000, false, options) == 32'000);
  CHECK(Parker::NextSpinBudget(32'000, 1'000, false, options) == 32'000);
  CHECK(Parker::NextSpinBudget(0, 0, false, ParkerOptions{0us, 32us}) == 1'000);  // zero can grow
  CHECK(Parker::NextSpinBudget(0, 0, false, ParkerOptions{0us, 0us}) == 0);       // spinning is off
}

TEST_CASE("parker: the spin budget shrinks by a quarter after a long park, down to its floor") {
  const ParkerOptions options{2us, 32us};
  CHECK(Parker::NextSpinBudget(32'000, 32'001, false, options) == 24'000);
  int64_t budget = 32'000;
  for (int i = 0; i < 20; ++i) budget = Parker::NextSpinBudget(budget, 1'000'000, false, options);
  CHECK(budget == 2'000);
}

TEST_CASE("parker: a quick wake from the CPU the waiter spun on shrinks the spin budget") {
  // The waker could only run once the waiter stopped spinning: spinning longer would delay it.
  const ParkerOptions options{2us, 32us};
  CHECK(Parker::NextSpinBudget(32'000, 3'000, true, options) == 24'000);
  CHECK(Parker::NextSpinBudget(2'000, 3'000, true, options) == 2'000);
}

TEST_CASE_TEMPLATE("parker: a new parker starts at the floor of its spin budget", Mode,
                   PARK_MODES) {
  const Parker parker({}, Mode::kMode);
  CHECK(parker.mode() == Mode::kMode);
  CHECK(parker.Stats().spin_budget_ns == ReportedBudget(2'000));
  CHECK(Parker(ParkerOptions{5us, 1us}, Mode::kMode).Stats().spin_budget_ns ==
        ReportedBudget(1'000));  // floor above ceiling
}

TEST_CASE_TEMPLATE("parker: a zero timeout checks once and never spins or parks", Mode,
                   PARK_MODES) {
  Parker parker({}, Mode::kMode);
  int checks = 0;
  CHECK_FALSE(parker.TryWaitFor([&] { return ++checks > 1; }, 0ns));
  CHECK(checks == 1);
  CHECK(parker.TryWaitFor([] { return true; }, 0ns));
  const ParkerStats stats = parker.Stats();
  CHECK(stats.parks == 0);
  CHECK(stats.spin_hits == 0);
}

TEST_CASE_TEMPLATE("parker: TryWaitFor parks once and gives up at its timeout when nobody wakes it",
                   Mode, PARK_MODES) {
  Parker parker({}, Mode::kMode);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(parker.TryWaitFor([] { return false; }, 20ms));
  CHECK(std::chrono::steady_clock::now() - start >= 20ms);
  const ParkerStats stats = parker.Stats();
  CHECK(stats.parks == 1);
  CHECK(stats.spin_budget_ns == ReportedBudget(2'000));  // a timeout is no evidence either way
}

TEST_CASE_TEMPLATE("parker: TryWaitFor with an endless timeout returns once woken", Mode,
                   PARK_MODES) {
  Parker parker({}, Mode::kMode);
  std::atomic<bool> go{false};
  std::thread waker([&] {
    while (parker.Stats().parks == 0) std::this_thread::sleep_for(1ms);
    go.store(true, std::memory_order_release);
    parker.Wake();
  });
  CHECK(parker.TryWaitFor([&] { return go.load(std::memory_order_acquire); },
                          std::chrono::nanoseconds::max()));
  waker.join();
  CHECK(parker.Stats().wakes_issued == 1);
}

TEST_CASE_TEMPLATE("parker: wakers on four threads never leave the waiter asleep with work pending",
                   Mode, PARK_MODES) {
  // No spin: the wakers race with real parks.
  Parker parker(ParkerOptions{0ns, 0ns}, Mode::kMode);
  constexpr uint64_t kThreads = 4, kEach = 25'000;
  std::atomic<uint64_t> posted{0};
  Watchdog watchdog("parker with four wakers", 60s);
  std::vector<std::thread> wakers;
  for (uint64_t t = 0; t < kThreads; ++t) {
    wakers.emplace_back([&] {
      for (uint64_t i = 0; i < kEach; ++i) {
        posted.fetch_add(1, std::memory_order_release);
        parker.Wake();
      }
    });
  }
  for (uint64_t seen = 0; seen < kThreads * kEach;) {
    parker.Wait([&] { return posted.load(std::memory_order_acquire) > seen; });
    seen = posted.load(std::memory_order_acquire);
  }
  for (auto& t : wakers) t.join();
  const ParkerStats stats = parker.Stats();
  CHECK(stats.wakes_issued + stats.wakes_skipped == kThreads * kEach);
  CHECK(stats.wakes_issued <= stats.parks);
}

TEST_CASE_TEMPLATE("parker: no wake-up is lost across 100k park/wake rounds between two threads",
                   Mode, PARK_MODES) {
  ParkerOptions options;
  bool slow_check = false;
  SUBCASE("never spinning, so every wait parks") { options = ParkerOptions{0ns, 0ns}; }
  SUBCASE("never spinning, with a condition check that dawdles") {
    options = ParkerOptions{0ns, 0ns};
    slow_check = true;
  }
  SUBCASE("default adaptive spin") {}
  constexpr uint64_t kRounds = 100'000;
  Parker main_parker(options, Mode::kMode), echo_parker(options, Mode::kMode);
  std::atomic<uint64_t> turn{0};  // odd: the echo thread's turn, even: the main thread's
  // True once "turn" reaches "want"; dawdles after reading when slow_check is set.
  auto reached = [&](uint64_t want, uint32_t& rng) {
    const bool yes = turn.load(std::memory_order_acquire) == want;
    if (slow_check) Dawdle(rng);
    return yes;
  };
  Watchdog watchdog("parker ping-pong", 60s);
  std::thread echo([&] {
    uint32_t rng = 0x9e3779b9;
    for (uint64_t i = 0; i < kRounds; ++i) {
      echo_parker.Wait([&] { return reached(2 * i + 1, rng); });
      turn.store(2 * i + 2, std::memory_order_release);
      main_parker.Wake();
    }
  });
  uint32_t rng = 0x85ebca6b;
  for (uint64_t i = 0; i < kRounds; ++i) {
    turn.store(2 * i + 1, std::memory_order_release);
    echo_parker.Wake();
    main_parker.Wait([&] { return reached(2 * i + 2, rng); });
  }
  echo.join();
  CHECK(turn.load() == 2 * kRounds);
  uint64_t parks = 0;
  for (const Parker* parker : {&main_parker, &echo_parker}) {
    const ParkerStats stats = parker->Stats();
    CHECK(stats.wakes_issued + stats.wakes_skipped == kRounds);
    CHECK(stats.wakes_issued <= stats.parks);  // a wake syscall only for a parked waiter
    parks += stats.parks;
  }
  if (options.max_spin == 0ns) CHECK(parks > 0);
}

TEST_CASE_TEMPLATE("parker: an idle waiter parks instead of spinning and costs almost no CPU", Mode,
                   PARK_MODES) {
  Parker parker({}, Mode::kMode);
  std::atomic<bool> go{false};
  std::atomic<int64_t> cpu_ns{-1};
  std::thread waiter([&] {
    const int64_t start = ThreadCpuNs();
    parker.Wait([&] { return go.load(std::memory_order_acquire); });
    cpu_ns.store(ThreadCpuNs() - start);
  });
  while (parker.Stats().parks == 0) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(200ms);  // the waiter is idle all this time
  go.store(true, std::memory_order_release);
  parker.Wake();
  waiter.join();
  // A waiter that spun instead would have used about 200 ms; this is behaviour, not speed.
  CHECK(cpu_ns.load() >= 0);
  CHECK(cpu_ns.load() < 20'000'000);
  const ParkerStats stats = parker.Stats();
  CHECK(stats.parks == 1);
  CHECK(stats.wakes_issued == 1);
}

TEST_CASE_TEMPLATE(
    "parker: a busy pair makes no wake syscalls while the waiter finds work in its spin", Mode,
    PARK_MODES) {
  // A budget far longer than any gap the producer leaves, even when it is descheduled, so every
  // wait ends in its spin and the test checks the waker's side: Wake must then skip the syscall.
  if (ReportedBudget(1) == 0) return;  // one CPU: the producer cannot run while the waiter spins
  Parker parker(ParkerOptions{10s, 10s}, Mode::kMode);
  plinth::host::SpscRing<uint64_t> ring(64);
  constexpr uint64_t kItems = 20'000;
  bool in_order = true;
  std::thread consumer([&] {
    for (uint64_t next = 0; next < kItems;) {
      parker.Wait([&] { return !ring.Empty(); });
      ring.PopAll([&](uint64_t&& v) { in_order &= v == next++; });
    }
  });
  for (uint64_t i = 0; i < kItems;) {
    if (ring.TryPush(i)) {
      parker.Wake();
      ++i;
    } else {
      std::this_thread::yield();
    }
  }
  consumer.join();
  CHECK(in_order);
  const ParkerStats stats = parker.Stats();
  CHECK(stats.parks == 0);
  CHECK(stats.wakes_issued == 0);
  CHECK(stats.wakes_skipped == kItems);
  CHECK(stats.spin_hits > 0);
}

#ifdef __linux__
// Both threads allowed one CPU only (as under `taskset -c 0`): the waker cannot run while the
// waiter spins, so a waiter stops spinning after its first park and reports a zero budget. One
// side may never park at all: when the kernel runs the woken thread at once, its reply is
// ready before the waker waits.
TEST_CASE_TEMPLATE("parker: a waiter confined to one CPU does not spin", Mode, PARK_MODES) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  auto pin = [&one] { return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0; };
  constexpr uint64_t kRounds = 200;
  std::atomic<uint64_t> turn{0};
  Parker echo_parker({}, Mode::kMode), main_parker({}, Mode::kMode);
  Watchdog watchdog("one-CPU ping-pong", 60s);
  bool echo_pinned = false;
  std::thread echo([&] {
    echo_pinned = pin();
    for (uint64_t i = 0; i < kRounds; ++i) {
      echo_parker.Wait([&] { return turn.load(std::memory_order_acquire) == 2 * i + 1; });
      turn.store(2 * i + 2, std::memory_order_release);
      main_parker.Wake();
    }
  });
  cpu_set_t before;
  REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0);
  REQUIRE(pin());
  for (uint64_t i = 0; i < kRounds; ++i) {
    turn.store(2 * i + 1, std::memory_order_release);
    echo_parker.Wake();
    main_parker.Wait([&] { return turn.load(std::memory_order_acquire) == 2 * i + 2; });
  }
  echo.join();
  pthread_setaffinity_np(pthread_self(), sizeof before, &before);
  REQUIRE(echo_pinned);
  uint64_t parks = 0;
  for (const Parker* parker : {&main_parker, &echo_parker}) {
    const ParkerStats stats = parker->Stats();
    parks += stats.parks;
    if (stats.parks > 0) CHECK(stats.spin_budget_ns == 0);
  }
  CHECK(parks > 0);
}
#endif
