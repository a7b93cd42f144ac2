// The diagnostics plugin's shared state and handlers: the slow log, the latency monitor, the
// MONITOR clients (fed by the host's command observers, plugin.cc), and DEBUG. Main thread.
#pragma once

#include <cstdint>
#include <plinth/plugin.hpp>
#include <vector>

#include "diagnostics/latency.h"
#include "diagnostics/slowlog.h"

namespace plinth::diagnostics {

using sdk::Call;

struct State {
  Slowlog slowlog;
  LatencyMonitor latency;
  std::vector<uint64_t> monitors;         // client ids, in the order they asked
  std::vector<std::string> nested_lines;  // a script's commands, shown after the script
  // The options' values (their apply callback keeps them; it runs before the host stores
  // a new value).
  int64_t slower_than_us = 10000;  // slowlog-log-slower-than (< 0: off)
  int64_t threshold_ms = 0;        // latency-monitor-threshold (0: off)
  int64_t slow_observer = -1, latency_observer = -1, monitor_observer = -1;
};

State& G();

// Sets each observer's threshold from the options and the monitors attached.
void UpdateObservers();

void SlowlogCommand(Call& c);
void LatencyCommand(Call& c);
void MonitorCommand(Call& c);
// DEBUG HELP, SLEEP, OBJECT, SET-ACTIVE-EXPIRE; Redis's error for other subcommands.
void DebugCommand(Call& c);

}  // namespace plinth::diagnostics
