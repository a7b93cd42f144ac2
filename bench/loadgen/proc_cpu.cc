// Parses fields 14 (utime) and 15 (stime) of /proc/<pid>/stat. The command name (field 2) may
// hold spaces and parentheses, so fields are counted from the last ')'.
#include "proc_cpu.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plinth::loadgen {

int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

double ProcessCpuSeconds(int pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE* f = std::fopen(path, "r");
  if (!f) return -1;
  char buf[1024];
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = 0;
  const char* p = std::strrchr(buf, ')');
  if (!p) return -1;
  // After ')' come field 3 (state) onwards; utime is field 14, i.e. the 12th after ')'.
  unsigned long long utime = 0, stime = 0;
  int field = 2;
  for (const char* q = p + 1; *q && field < 15;) {
    while (*q == ' ') ++q;
    ++field;
    unsigned long long v = std::strtoull(q, nullptr, 10);
    if (field == 14) utime = v;
    if (field == 15) stime = v;
    while (*q && *q != ' ') ++q;
  }
  if (field < 15) return -1;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace plinth::loadgen
