// The IO threads' hand-off primitives: SPSC ring throughput between two threads (one item per
// pop and in batches), the cost of Wake when nobody sleeps, and the round trip of a request and
// its reply through two rings with parking, under three spin settings. Two threads each: figures
// from a machine with other work running are indicative only.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "host/shell/io/parker.h"
#include "host/shell/io/spsc_ring.h"

namespace {

using namespace plinth::host;
using namespace std::chrono_literals;

constexpr uint64_t kItemsPerIteration = 1 << 16;

// A producer thread pushes as fast as the ring lets it; the benchmark thread pops, one TryPop
// per item or with PopAll (one release store per batch).
void BM_RingThroughput(benchmark::State& state, bool batch) {
  SpscRing<uint64_t> ring(1024);
  const uint64_t total = static_cast<uint64_t>(state.max_iterations) * kItemsPerIteration;
  std::thread producer([&] {
    for (uint64_t i = 0; i < total;) {
      if (ring.TryPush(i)) {
        ++i;
      } else {
        CpuRelax();
      }
    }
  });
  uint64_t sum = 0;
  for (auto _ : state) {
    for (uint64_t got = 0; got < kItemsPerIteration;) {
      if (batch) {
        const uint64_t n = ring.PopAll([&](uint64_t&& v) { sum += v; }, kItemsPerIteration - got);
        if (n == 0) CpuRelax();
        got += n;
      } else if (uint64_t v; ring.TryPop(v)) {
        sum += v;
        ++got;
      } else {
        CpuRelax();
      }
    }
  }
  producer.join();
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kItemsPerIteration));
}
BENCHMARK_CAPTURE(BM_RingThroughput, try_pop, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_RingThroughput, pop_all, true)->UseRealTime();

// What a busy producer pays per item for waking a consumer that is not asleep: one fence, one
// load of the state line and one counter.
void BM_WakeWithoutSleeper(benchmark::State& state) {
  Parker parker;
  for (auto _ : state) parker.Wake();
  state.counters["wakes_issued"] = static_cast<double>(parker.Stats().wakes_issued);
}
BENCHMARK(BM_WakeWithoutSleeper);

// One request and its reply through two rings, each side parking on its own Parker, as the main
// thread and an IO thread will: with the default adaptive spin, with no spin (every wait parks:
// the futex round trip) and spinning only (a budget no gap reaches: never parks).
void BM_PingPong(benchmark::State& state, ParkerOptions options) {
  SpscRing<uint64_t> requests(64), replies(64);
  Parker echo_parker(options), main_parker(options);
  std::atomic<bool> stop{false};
  std::thread echo([&] {
    for (;;) {
      echo_parker.Wait([&] { return !requests.Empty() || stop.load(std::memory_order_acquire); });
      if (requests.PopAll([&](uint64_t&& v) {
            while (!replies.TryPush(v + 1)) CpuRelax();
          }) == 0) {
        return;  // stop, and nothing left to answer
      }
      main_parker.Wake();
    }
  });
  uint64_t seq = 0, reply = 0;
  for (auto _ : state) {
    while (!requests.TryPush(seq)) CpuRelax();
    echo_parker.Wake();
    main_parker.Wait([&] { return !replies.Empty(); });
    replies.TryPop(reply);
    ++seq;
  }
  stop.store(true, std::memory_order_release);
  echo_parker.Wake();
  echo.join();
  benchmark::DoNotOptimize(reply);
  const ParkerStats a = main_parker.Stats(), b = echo_parker.Stats();
  // Per round trip.
  state.counters["parks"] = benchmark::Counter(static_cast<double>(a.parks + b.parks),
                                               benchmark::Counter::kAvgIterations);
  state.counters["wake_syscalls"] = benchmark::Counter(
      static_cast<double>(a.wakes_issued + b.wakes_issued), benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(BM_PingPong, adaptive, ParkerOptions{})->UseRealTime();
BENCHMARK_CAPTURE(BM_PingPong, park_always, ParkerOptions{0ns, 0ns})->UseRealTime();
BENCHMARK_CAPTURE(BM_PingPong, spin_only, ParkerOptions{10s, 10s})->UseRealTime();

}  // namespace
