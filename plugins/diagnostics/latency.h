// The latency monitor: per event ("command", "fast-command"), the worst latency of each of the
// last 160 seconds that had one at or above latency-monitor-threshold, plus the all-time
// worst. LATENCY LATEST, HISTORY, RESET, GRAPH and DOCTOR read it. Pure; main thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::diagnostics {

struct LatencySample {
  int64_t unix_s = 0;
  int64_t ms = 0;
};

struct LatencySeries {
  static constexpr size_t kLen = 160;
  std::vector<LatencySample> samples;  // oldest first, at most kLen
  int64_t max_ms = 0;                  // the worst ever (until reset)
  const LatencySample& latest() const { return samples.back(); }
};

class LatencyMonitor {
 public:
  // Records ms for event at unix_s; a second already sampled keeps the worse of the two.
  void Add(std::string_view event, int64_t unix_s, int64_t ms);
  // Forgets event's series; returns 1 when it had one.
  int Reset(std::string_view event);
  // Forgets every series; returns how many there were.
  int ResetAll();
  // nullptr when event has no sample.
  const LatencySeries* Find(std::string_view event) const;
  // By event name.
  const std::map<std::string, LatencySeries, std::less<>>& series() const { return series_; }

 private:
  std::map<std::string, LatencySeries, std::less<>> series_;
};

// LATENCY GRAPH's text for one series: a column per sample, oldest left, '#' up to its height
// on a scale from the lowest to the highest sample of the series, and the age of each sample
// below it.
std::string LatencyGraph(std::string_view event, const LatencySeries& s, int64_t now_s);

// LATENCY DOCTOR's report: per event, its samples, worst, average and latest, and what usually
// causes such spikes; or that nothing was recorded (and whether monitoring is on).
std::string LatencyReport(const LatencyMonitor& m, int64_t threshold_ms);

}  // namespace plinth::diagnostics
