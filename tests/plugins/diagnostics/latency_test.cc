// The latency monitor's series: one sample per second (the worst), 160 at most, the all-time
// worst, resets, and the graph and doctor texts.
#include "diagnostics/latency.h"

#include <doctest/doctest.h>

using plinth::diagnostics::LatencyMonitor;
using plinth::diagnostics::LatencySeries;

TEST_CASE("latency series keep the worst of each second and the last 160 seconds") {
  LatencyMonitor m;
  m.Add("command", 100, 20);
  m.Add("command", 100, 50);
  m.Add("command", 100, 30);
  m.Add("command", 101, 10);
  const LatencySeries* s = m.Find("command");
  REQUIRE(s);
  REQUIRE(s->samples.size() == 2);
  CHECK(s->samples[0].ms == 50);
  CHECK(s->latest().unix_s == 101);
  CHECK(s->latest().ms == 10);
  CHECK(s->max_ms == 50);
  for (int i = 0; i < 200; ++i) m.Add("command", 200 + i, i);
  CHECK(s->samples.size() == LatencySeries::kLen);
  CHECK(s->samples.front().unix_s == 240);
  CHECK(s->max_ms == 199);
  CHECK(m.Find("fast-command") == nullptr);
}

TEST_CASE("latency resets count the events they forget") {
  LatencyMonitor m;
  m.Add("command", 1, 5);
  m.Add("fast-command", 1, 5);
  CHECK(m.Reset("nothing") == 0);
  CHECK(m.Reset("command") == 1);
  CHECK(m.Find("command") == nullptr);
  m.Add("command", 2, 5);
  CHECK(m.ResetAll() == 2);
  CHECK(m.series().empty());
}

TEST_CASE("latency graph and doctor describe what was recorded") {
  LatencyMonitor m;
  CHECK(LatencyReport(m, 0).find("off") != std::string::npos);
  CHECK(LatencyReport(m, 100).find("100 ms") != std::string::npos);
  m.Add("command", 10, 100);
  m.Add("command", 11, 300);
  const std::string graph = LatencyGraph("command", *m.Find("command"), 12);
  CHECK(graph.find("command - high 300 ms, low 100 ms (all time high 300 ms)") == 0);
  CHECK(graph.find("\n #\n") != std::string::npos);    // the top row: only the 300 ms sample
  CHECK(graph.find("\n##\n") != std::string::npos);    // the bottom row: both
  CHECK(graph.find("21\nss\n") != std::string::npos);  // ages 2s and 1s, stacked
  const std::string report = LatencyReport(m, 100);
  CHECK(report.find("command: 2 latency spikes (average 200 ms, worst 300 ms, latest 300 ms)") !=
        std::string::npos);
  CHECK(report.find("SLOWLOG GET") != std::string::npos);
}
