// The fixed-rate (open-loop) GET generator: requests leave on a schedule of rate per second
// spread round-robin over the connections, whether or not earlier replies came back, so a slow
// server shows up as latency instead of silently lowering the rate. Single-threaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plinth::loadgen {

struct FixedRateConfig {
  std::string host = "127.0.0.1";
  int port = 6379;
  double rate = 1000;     // requests per second; 0: connect and stay idle
  int conns = 50;         // connections, all opened before the schedule starts
  double warmup_s = 1;    // scheduled but not measured
  double duration_s = 5;  // the measured window
  double drain_s = 2;     // how long to wait for replies after the window
  int keys = 1000;        // GET key:%012d for i = request number % keys
  int server_pid = 0;     // when > 0, its CPU use over the window is measured
  bool rdma = false;      // connect over RDMA (port is the server's rdma-port)
};

struct FixedRateResult {
  double target_rate = 0;
  double window_s = 0;      // measured window as it really ran
  uint64_t sent = 0;        // requests written during the window
  uint64_t replies = 0;     // replies received during the window
  uint64_t errors = 0;      // error replies (whole run)
  uint64_t unanswered = 0;  // measured requests still without reply after the drain
  double sent_rate = 0;     // sent / window_s
  double reply_rate = 0;    // replies / window_s
  double p50_us = 0, p99_us = 0, p999_us = 0, max_us = 0, mean_us = 0;  // write to reply
  double send_lag_p99_us = 0;  // how late requests left against their schedule
  double server_cpu_pct = -1;  // % of one core over the window; -1 when not measured
  bool held = false;           // sent and reply rates within 2% of the target
  std::string note;            // why the rate was not held, if it was not
};

// Opens cfg.conns connections and runs the schedule. Returns false with *err when connecting
// fails; a server that falls behind is a result (held == false), not a failure.
bool RunFixedRate(const FixedRateConfig& cfg, FixedRateResult* out, std::string* err);

// The q-quantile (0..1) of sorted values, 0 when empty.
double Quantile(const std::vector<int64_t>& sorted, double q);

}  // namespace plinth::loadgen
