// The IO threads' load policy; docs/io-threads.md gives the rules and the numbers behind them.
#include "host/shell/io_policy.h"

#include <algorithm>

namespace plinth::host {
namespace {

// In cron periods. A thread is tried when the main thread was busy for kBusyUp of kBusyPeriods
// periods in a row and the machine had at least kFreeCpu of a CPU idle on average over those
// periods (where no CPU is free, a thread can only run by taking one from the load); it stays if
// over the last kJudgedPeriods of the next kTrialPeriods the server did at least kGain times the
// work per second it did in those busy periods, else it goes and the next try waits kFirstBackoff
// periods, doubling up to kMaxBackoff. A kept thread is checked kFirstBackoff periods later, then
// at doubling intervals up to kMaxBackoff: it is switched off for kTrialPeriods, and stays off
// unless the rate it had was at least kGain times the rate over the last kJudgedPeriods without it.
// A kept thread also goes when the work rate stays below kRateDown of its rate before activation
// for kLowPeriods in a row.
constexpr double kBusyUp = 0.7;
constexpr double kFreeCpu = 0.5;
constexpr int kBusyPeriods = 10;
constexpr int kTrialPeriods = 5;
constexpr int kJudgedPeriods = 3;
constexpr double kGain = 1.05;
constexpr int kFirstBackoff = 50;
constexpr int kMaxBackoff = 600;
constexpr double kRateDown = 0.5;
constexpr int kLowPeriods = 5;

}  // namespace

size_t IoPolicy::Decide(double busy, double rate, size_t active, size_t most, double free_cpus) {
  ++period_;
  size_t target = std::min(active, most);
  if (rate_before_.size() < target) rate_before_.resize(target, rate);
  busy_periods_ = busy >= kBusyUp ? busy_periods_ + 1 : 0;
  busy_rate_ = busy_periods_ ? busy_rate_ + rate : 0;
  // Free CPUs averaged over the busy streak's recent periods only: idle time before the load
  // came says nothing about what the load leaves. Unknown leaves the average as it was.
  if (busy_periods_ <= 1)
    free_cpus_ = free_cpus;
  else if (free_cpus >= 0)
    free_cpus_ = free_cpus_ < 0 ? free_cpus : free_cpus_ + (free_cpus - free_cpus_) / kBusyPeriods;
  const double recent = recent_rate_;  // before this period
  recent_rate_ += (rate - recent_rate_) / kJudgedPeriods;
  // One more period of the trial or the check: whether it is the last.
  auto judge = [&] {
    if (++trial_periods_ > kTrialPeriods - kJudgedPeriods) trial_rate_ += rate;
    return trial_periods_ == kTrialPeriods;
  };
  if (trial_ && target > 0) {  // did the last thread activated pay for itself?
    if (judge()) {
      trial_ = false;
      busy_periods_ = 0;
      if (trial_rate_ / kJudgedPeriods < kGain * rate_before_[target - 1]) {
        --target;
        Backoff();
      } else {
        backoff_ = 0;
        check_interval_ = kFirstBackoff;
        next_check_ = period_ + check_interval_;
      }
    }
  } else if (check_) {  // the last thread is off: does the server do as well without it?
    if (judge()) {
      check_ = false;
      busy_periods_ = 0;
      if (check_with_ >= kGain * trial_rate_ / kJudgedPeriods && target < most) {
        ++target;  // it pays: back on, checked again later
        check_interval_ = std::min(2 * check_interval_, kMaxBackoff);
        next_check_ = period_ + check_interval_;
      } else {
        Backoff();
      }
    }
  } else if (target > 0 && period_ >= next_check_) {
    check_ = true;
    check_with_ = recent;
    trial_periods_ = 0;
    trial_rate_ = 0;
    --target;
  } else if (busy_periods_ >= kBusyPeriods && target < most && period_ >= next_try_ &&
             (free_cpus_ < 0 || free_cpus_ >= kFreeCpu)) {
    rate_before_.resize(target + 1);
    rate_before_[target] = busy_rate_ / busy_periods_;
    busy_periods_ = 0;
    ++target;
    trial_ = true;
    trial_periods_ = 0;
    trial_rate_ = 0;
    low_periods_ = 0;
  } else if (target > 0 && rate < kRateDown * rate_before_[target - 1]) {
    if (++low_periods_ >= kLowPeriods) {
      --target;
      low_periods_ = 0;
    }
  } else {
    low_periods_ = 0;
  }
  return target;
}

void IoPolicy::Backoff() {
  backoff_ = backoff_ ? std::min(2 * backoff_, kMaxBackoff) : kFirstBackoff;
  next_try_ = period_ + backoff_;
}

}  // namespace plinth::host
