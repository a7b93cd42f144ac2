// CpuIdle: the idle CPU time of the allowed CPUs, from /proc/stat.
#include "host/shell/io/cpu_idle.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using plinth::host::CpuIdle;

TEST_CASE("cpu idle: sums idle and iowait of the allowed CPUs only") {
  const std::string stat =
      "cpu  30 0 30 300 10 0 0 0 0 0\n"
      "cpu0 10 0 10 100 5 0 0 0 0 0\n"
      "cpu1 10 0 10 100 0 0 0 0 7 0\n"
      "cpu2 10 0 10 100 5 0 0 0 0 0\n"
      "intr 123 4 5\n";
  uint64_t idle = 0, total = 0;
  CHECK(CpuIdle::Parse(stat, "101", &idle, &total));
  CHECK(idle == 210);   // cpu0 and cpu2: idle 100 + iowait 5 each
  CHECK(total == 250);  // guest time is part of user already: not added again
  CHECK(CpuIdle::Parse(stat, "010", &idle, &total));
  CHECK(idle == 100);
  CHECK(total == 120);
  CHECK_FALSE(CpuIdle::Parse(stat, "0001", &idle, &total));  // no line for cpu3
  CHECK_FALSE(CpuIdle::Parse("", "1", &idle, &total));
}

TEST_CASE("cpu idle: samples this machine's free CPUs") {
  CpuIdle c;
  CHECK(c.Sample() < 0);  // nothing to compare with yet
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double free_cpus = c.Sample();
  CHECK(free_cpus >= 0);
  CHECK(free_cpus <= static_cast<double>(std::thread::hardware_concurrency()));
}
