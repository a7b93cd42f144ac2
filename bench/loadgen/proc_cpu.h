// CPU time used by another process, read from /proc/<pid>/stat (user + system, all threads),
// and the monotonic clock the generators time requests with.
#pragma once

#include <cstdint>

namespace plinth::loadgen {

// Seconds of CPU that process pid has used so far, or -1 when it cannot be read. The kernel
// counts in clock ticks (usually 10 ms), so measure over windows of seconds.
double ProcessCpuSeconds(int pid);

// CLOCK_MONOTONIC in nanoseconds.
int64_t MonotonicNs();

}  // namespace plinth::loadgen
