// CPU time used by another process, read from /proc/<pid>/stat (user + system, all threads).
#pragma once

#include <cstdint>

namespace plinth::loadgen {

// Seconds of CPU that process pid has used so far, or -1 when it cannot be read. The kernel
// counts in clock ticks (usually 10 ms), so measure over windows of seconds.
double ProcessCpuSeconds(int pid);

}  // namespace plinth::loadgen
