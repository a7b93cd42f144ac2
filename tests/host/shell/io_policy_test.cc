// The IO threads' load policy, period by period (docs/io-threads.md, "The load policy"): light
// load stays inline, saturation tries a thread, a thread stays only while it pays, and a kept
// thread that stops paying goes at its next check.
#include "host/shell/io_policy.h"

#include <doctest/doctest.h>

namespace {

using plinth::host::IoPolicy;

// Runs periods with the given busy share, rate, most threads and free CPUs; returns the active
// count after them.
size_t Run(IoPolicy& p, size_t& active, int periods, double busy, double rate, size_t most = 3,
           double free_cpus = 4) {
  for (int i = 0; i < periods; ++i) active = p.Decide(busy, rate, active, most, free_cpus);
  return active;
}

// Saturates the main thread until a thread is tried (a second of 100 ms periods).
void StartTrial(IoPolicy& p, size_t& active, double rate) {
  CHECK(Run(p, active, 9, 0.95, rate) == 0);
  CHECK(Run(p, active, 1, 0.95, rate) == 1);
}

}  // namespace

TEST_CASE("io policy: a lightly loaded server keeps its IO inline") {
  IoPolicy p;
  size_t active = 0;
  CHECK(Run(p, active, 1000, 0.5, 40000) == 0);
  CHECK(Run(p, active, 9, 0.95, 90000) == 0);  // saturated, but not yet for a second
  CHECK(Run(p, active, 1, 0.3, 30000) == 0);   // and the streak is broken
  CHECK(Run(p, active, 9, 0.95, 90000) == 0);
}

TEST_CASE("io policy: a thread that pays is kept, one that does not goes and backs off") {
  IoPolicy p;
  size_t active = 0;
  StartTrial(p, active, 100000);
  CHECK(Run(p, active, 5, 0.6, 150000) == 1);  // 1.5x the rate: kept

  IoPolicy q;
  active = 0;
  StartTrial(q, active, 100000);
  CHECK(Run(q, active, 4, 0.95, 102000) == 1);   // on trial
  CHECK(Run(q, active, 1, 0.95, 102000) == 0);   // 1.02x is not enough
  CHECK(Run(q, active, 49, 0.95, 100000) == 0);  // backing off for 5 s
  CHECK(Run(q, active, 1, 0.95, 100000) == 1);   // then tried again
}

TEST_CASE("io policy: never more threads than may run") {
  IoPolicy p;
  size_t active = 0;
  CHECK(Run(p, active, 100, 0.95, 100000, 0) == 0);  // one CPU: always inline

  IoPolicy q;
  active = 0;
  StartTrial(q, active, 100000);
  CHECK(Run(q, active, 5, 0.6, 150000) == 1);
  CHECK(Run(q, active, 1, 0.6, 150000, 0) == 0);  // confined to one CPU: inline at once
}

TEST_CASE("io policy: no thread is tried while no CPU is free to run it") {
  IoPolicy p;
  size_t active = 0;
  CHECK(Run(p, active, 100, 0.95, 100000, 3, 0.2) == 0);  // the load takes the other CPUs
  CHECK(Run(p, active, 2, 0.95, 100000, 3, 1.5) == 0);    // a CPU frees up: once that shows
  CHECK(Run(p, active, 1, 0.95, 100000, 3, 1.5) == 1);    // in the average, a thread is tried
  IoPolicy idle_before;  // the idle CPUs before the load came do not count
  active = 0;
  CHECK(Run(idle_before, active, 50, 0.1, 1000, 3, 1.9) == 0);
  CHECK(Run(idle_before, active, 20, 0.95, 100000, 3, 0.2) == 0);
  IoPolicy q;  // unknown (negative) counts as free: the policy as it would be without it
  active = 0;
  CHECK(Run(q, active, 10, 0.95, 100000, 3, -1) == 1);
}

TEST_CASE("io policy: a kept thread that stops paying goes at its next check") {
  IoPolicy p;
  size_t active = 0;
  StartTrial(p, active, 100000);
  CHECK(Run(p, active, 5, 0.6, 150000) == 1);    // kept
  CHECK(Run(p, active, 49, 0.6, 90000) == 1);    // the load changed: the thread now costs
  CHECK(Run(p, active, 1, 0.6, 90000) == 0);     // 5 s later it is switched off for a check
  CHECK(Run(p, active, 5, 0.95, 100000) == 0);   // and as fast without it: it stays off
  CHECK(Run(p, active, 20, 0.95, 100000) == 0);  // the next try backs off
}

TEST_CASE("io policy: a kept thread that pays comes back after its check, checked less often") {
  IoPolicy p;
  size_t active = 0;
  StartTrial(p, active, 100000);
  CHECK(Run(p, active, 5, 0.6, 150000) == 1);
  CHECK(Run(p, active, 50, 0.6, 150000) == 0);  // the check switches it off
  CHECK(Run(p, active, 4, 0.95, 100000) == 0);
  CHECK(Run(p, active, 1, 0.95, 100000) == 1);  // 150k with it against 100k without: back
  CHECK(Run(p, active, 99, 0.6, 150000) == 1);  // the next check waits twice as long
  CHECK(Run(p, active, 1, 0.6, 150000) == 0);
}

TEST_CASE("io policy: a thread goes when the load falls well below what it was tried at") {
  IoPolicy p;
  size_t active = 0;
  StartTrial(p, active, 100000);
  CHECK(Run(p, active, 5, 0.6, 150000) == 1);
  CHECK(Run(p, active, 4, 0.2, 20000) == 1);
  CHECK(Run(p, active, 1, 0.2, 20000) == 0);
}
