// The closed-loop (saturating) GET generator: each connection keeps a fixed number of GETs
// outstanding and sends the next as soon as a reply completes, so the rate reached is what the
// server (or this reader) can sustain. Bulk payloads are consumed without being kept: read
// into a scratch buffer, as a client copying every byte would, or, with discard, dropped in
// the kernel (recv MSG_TRUNC) so a large-value run measures the server rather than the reader.
// Single-threaded.
#pragma once

#include <cstdint>
#include <string>

#include "fixed_rate.h"

namespace plinth::loadgen {

struct ClosedLoopResult {
  double window_s = 0;
  uint64_t replies = 0;  // replies completed during the window
  uint64_t errors = 0;   // error replies (whole run)
  double reply_rate = 0;
  double p50_us = 0, p99_us = 0, p999_us = 0, max_us = 0;  // write to complete reply
  double server_cpu_pct = -1;  // % of one core over the window; -1 when not measured
};

// Runs cfg.conns connections with depth requests outstanding each, over cfg.warmup_s then the
// measured cfg.duration_s (cfg.rate is not used). Returns false with *err when connecting
// fails, a connection breaks or a reply is malformed.
bool RunClosedLoop(const FixedRateConfig& cfg, int depth, bool discard, ClosedLoopResult* out,
                   std::string* err);

}  // namespace plinth::loadgen
