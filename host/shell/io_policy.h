// The IO threads' load policy (docs/io-threads.md): once per cron period, from the main
// thread's busy share and the work rate, how many IO threads should be active. It tries a
// thread under sustained saturation, keeps it only while it pays, checks kept threads again now
// and then, and backs off from threads that did not pay. Pure state: no threads and no clock,
// so it is tested period by period. Main thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plinth::host {

class IoPolicy {
 public:
  // The number of threads to have active for the next period. busy: the share of the period
  // the main thread was neither polling nor waiting for IO threads (0..1); rate: the commands
  // it executed per second over the period; active: the threads active during it; most: the
  // most that may be active (configured, started, and CPUs to run them); free_cpus: the idle
  // CPU time of the server's CPUs over the period, in CPUs (CpuIdle), negative when unknown.
  size_t Decide(double busy, double rate, size_t active, size_t most, double free_cpus);

 private:
  // A try or a check found the last thread not paying: the next try waits, longer each time.
  void Backoff();

  int64_t period_ = 0;
  std::vector<double> rate_before_;  // the work rate before each active thread was activated
  int busy_periods_ = 0;             // periods in a row the main thread was busy
  double busy_rate_ = 0;             // and the sum of their rates
  double free_cpus_ = -1;            // average free CPUs of the busy streak (-1: unknown)
  double recent_rate_ = 0;           // average rate of about the last few periods
  bool trial_ = false;               // the last thread is on trial
  bool check_ = false;               // the last thread is off for a check
  int trial_periods_ = 0;            // of the trial or the check
  double trial_rate_ = 0;            // sum of the judged periods' rates
  double check_with_ = 0;            // the rate with the thread the check switched off
  int backoff_ = 0;
  int check_interval_ = 0;
  int64_t next_try_ = 0, next_check_ = 0;
  int low_periods_ = 0;
};

}  // namespace plinth::host
