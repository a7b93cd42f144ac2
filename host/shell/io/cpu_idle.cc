// /proc/stat: one line per CPU, "cpuN user nice system idle iowait irq softirq steal guest
// guest_nice" in jiffies (guest time is already counted in user).
#include "host/shell/io/cpu_idle.h"

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plinth::host {

bool CpuIdle::Parse(const std::string& stat, const std::string& allowed, uint64_t* idle,
                    uint64_t* total) {
  *idle = *total = 0;
  size_t seen = 0, want = 0;
  for (char a : allowed) want += a == '1';
  for (size_t at = 0; at < stat.size();) {
    size_t end = stat.find('\n', at);
    if (end == std::string::npos) end = stat.size();
    const char* p = stat.c_str() + at;
    at = end + 1;
    if (std::strncmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9') continue;
    char* q;
    const unsigned long n = std::strtoul(p + 3, &q, 10);
    if (n >= allowed.size() || allowed[n] != '1') continue;
    uint64_t f[8] = {};
    for (uint64_t& v : f) v = std::strtoull(q, &q, 10);
    *idle += f[3] + f[4];
    for (uint64_t v : f) *total += v;
    ++seen;
  }
  return want > 0 && seen == want;
}

double CpuIdle::Sample() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  std::string allowed(CPU_SETSIZE, '0');
  int cpus = 0;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &set)) allowed[i] = '1', ++cpus;
  std::string stat;
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    char buf[8192];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) stat.append(buf, n);
    std::fclose(f);
  }
  uint64_t idle, total;
  if (!Parse(stat, allowed, &idle, &total)) {
    have_ = false;
    return -1;
  }
  const bool comparable = have_ && cpus == cpus_ && total > total_ && idle >= idle_;
  const double free =
      comparable ? static_cast<double>(idle - idle_) / static_cast<double>(total - total_) * cpus
                 : -1;
  idle_ = idle;
  total_ = total;
  cpus_ = cpus;
  have_ = true;
  return free;
}

}  // namespace plinth::host
