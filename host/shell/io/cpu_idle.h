// How much CPU the machine leaves free to the server: the idle time of the CPUs the calling
// thread may run on, from /proc/stat, between two samples. The IO threads' load policy asks it
// before trying a thread: a thread only helps where a CPU is free to run it. Main thread.
#pragma once

#include <cstdint>
#include <string>

namespace plinth::host {

class CpuIdle {
 public:
  // How many of the allowed CPUs were idle on average since the previous call (0 .. their
  // count; 2.5 means two and a half CPUs' worth of idle time), or -1 when unknown: the first
  // call, no time passed, or /proc/stat unreadable.
  double Sample();

  // The idle and total jiffies of the CPUs in allowed (one char per CPU number, '1' allowed)
  // summed from a /proc/stat text; false when it has no line for an allowed CPU. Exposed to be
  // testable without /proc.
  static bool Parse(const std::string& stat, const std::string& allowed, uint64_t* idle,
                    uint64_t* total);

 private:
  uint64_t idle_ = 0, total_ = 0;
  int cpus_ = 0;
  bool have_ = false;
};

}  // namespace plinth::host
