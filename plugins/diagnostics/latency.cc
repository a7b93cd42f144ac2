#include "diagnostics/latency.h"

#include <algorithm>

namespace plinth::diagnostics {

void LatencyMonitor::Add(std::string_view event, int64_t unix_s, int64_t ms) {
  auto it = series_.find(event);
  if (it == series_.end()) it = series_.emplace(std::string(event), LatencySeries{}).first;
  LatencySeries& s = it->second;
  s.max_ms = std::max(s.max_ms, ms);
  if (!s.samples.empty() && s.samples.back().unix_s == unix_s) {
    s.samples.back().ms = std::max(s.samples.back().ms, ms);
    return;
  }
  if (s.samples.size() == LatencySeries::kLen) s.samples.erase(s.samples.begin());
  s.samples.push_back({unix_s, ms});
}

int LatencyMonitor::Reset(std::string_view event) {
  auto it = series_.find(event);
  if (it == series_.end()) return 0;
  series_.erase(it);
  return 1;
}

int LatencyMonitor::ResetAll() {
  const int n = static_cast<int>(series_.size());
  series_.clear();
  return n;
}

const LatencySeries* LatencyMonitor::Find(std::string_view event) const {
  auto it = series_.find(event);
  return it == series_.end() ? nullptr : &it->second;
}

std::string LatencyGraph(std::string_view event, const LatencySeries& s, int64_t now_s) {
  constexpr int kRows = 8;
  int64_t lo = s.samples.front().ms, hi = lo;
  for (const LatencySample& x : s.samples) {
    lo = std::min(lo, x.ms);
    hi = std::max(hi, x.ms);
  }
  std::string out = std::string(event) + " - high " + std::to_string(hi) + " ms, low " +
                    std::to_string(lo) + " ms (all time high " + std::to_string(s.max_ms) +
                    " ms)\n";
  out += std::string(std::max<size_t>(out.size() - 1, 1), '-') + "\n";
  for (int row = kRows; row >= 1; --row) {
    for (const LatencySample& x : s.samples) {
      // Every sample reaches row 1; the highest reaches the top row.
      const int64_t height = hi == lo ? kRows : 1 + (x.ms - lo) * (kRows - 1) / (hi - lo);
      out.push_back(height >= row ? '#' : ' ');
    }
    out.push_back('\n');
  }
  // Ages, one column each, written top to bottom: "12s" stacks as 1 / 2 / s.
  std::vector<std::string> ages;
  size_t depth = 0;
  for (const LatencySample& x : s.samples) {
    ages.push_back(std::to_string(std::max<int64_t>(now_s - x.unix_s, 0)) + "s");
    depth = std::max(depth, ages.back().size());
  }
  for (size_t r = 0; r < depth; ++r) {
    for (const std::string& a : ages) out.push_back(r < a.size() ? a[r] : ' ');
    out.push_back('\n');
  }
  return out;
}

std::string LatencyReport(const LatencyMonitor& m, int64_t threshold_ms) {
  if (m.series().empty()) {
    if (threshold_ms <= 0)
      return "Latency monitoring is off (latency-monitor-threshold is 0): nothing is recorded. "
             "Set it to the milliseconds a command may take, e.g. CONFIG SET "
             "latency-monitor-threshold 100, and ask again later.\n";
    return "No latency event reached latency-monitor-threshold (" + std::to_string(threshold_ms) +
           " ms) since the monitor started or was reset.\n";
  }
  std::string out =
      "Latency report (events at or above " + std::to_string(threshold_ms) + " ms):\n\n";
  int n = 0;
  for (const auto& [event, s] : m.series()) {
    int64_t sum = 0;
    for (const LatencySample& x : s.samples) sum += x.ms;
    out += std::to_string(++n) + ". " + event + ": " + std::to_string(s.samples.size()) +
           " latency spikes (average " +
           std::to_string(sum / static_cast<int64_t>(s.samples.size())) + " ms, worst " +
           std::to_string(s.max_ms) + " ms, latest " + std::to_string(s.latest().ms) + " ms).\n";
  }
  out += "\nWhat to look at:\n";
  for (const auto& [event, s] : m.series()) {
    if (event == "command")
      out +=
          "- command: slow commands ran. SLOWLOG GET lists them with their arguments; "
          "commands over many elements (KEYS, SMEMBERS, LRANGE 0 -1, SORT, big DELs) are the "
          "usual cause: prefer SCAN-style iteration and UNLINK.\n";
    else if (event == "fast-command")
      out +=
          "- fast-command: O(1) or O(log N) commands were slow, which points at the machine "
          "rather than the data: CPU contention, swapping, or a saturated network. Check the "
          "server's CPU and INFO memory's RSS.\n";
    else
      out += "- " + event + ": see the plugin that reports it.\n";
  }
  return out;
}

}  // namespace plinth::diagnostics
