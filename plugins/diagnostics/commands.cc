// SLOWLOG, LATENCY and MONITOR.
#include <algorithm>
#include <initializer_list>
#include <plinth/text.hpp>
#include <string>

#include "common/subcommand.h"
#include "diagnostics/diagnostics.h"

namespace plinth::diagnostics {
namespace {

using sdk::Api;

void HelpReply(const Call& c, std::initializer_list<std::string_view> lines) {
  c.Array(static_cast<int64_t>(lines.size()));
  for (std::string_view l : lines) c.Simple(l);
}

void SlowlogGet(Call& c) {
  int64_t count = 10;
  if (c.argc() == 3) {
    if (!text::ParseInt64(c.arg(2), &count)) return c.Error(errors::kNotInteger);
    if (count < -1) return c.Error("ERR count should be greater than or equal to -1");
  }
  const auto& entries = G().slowlog.entries();
  const size_t n =
      count == -1 ? entries.size() : std::min(entries.size(), static_cast<size_t>(count));
  c.Array(static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const SlowlogEntry& e = entries[i];
    c.Array(6);
    c.Integer(e.id);
    c.Integer(e.unix_s);
    c.Integer(e.duration_us);
    c.Array(static_cast<int64_t>(e.args.size()));
    for (const std::string& a : e.args) c.Bulk(a);
    c.Bulk(e.addr);
    c.Bulk(e.client_name);
  }
}

void LatencyLatest(const Call& c) {
  const auto& series = G().latency.series();
  c.Array(static_cast<int64_t>(series.size()));
  for (const auto& [event, s] : series) {
    c.Array(4);
    c.Bulk(event);
    c.Integer(s.latest().unix_s);
    c.Integer(s.latest().ms);
    c.Integer(s.max_ms);
  }
}

void LatencyHistory(const Call& c) {
  const LatencySeries* s = G().latency.Find(c.arg(2));
  if (!s) return c.Array(0);
  c.Array(static_cast<int64_t>(s->samples.size()));
  for (const LatencySample& x : s->samples) {
    c.Array(2);
    c.Integer(x.unix_s);
    c.Integer(x.ms);
  }
}

int64_t NowS() { return Api().time_us(sdk::Host::self) / 1000000; }

}  // namespace

void SlowlogCommand(Call& c) {
  static constexpr common::SubcommandDef kSubs[] = {
      {"get", -2}, {"len", 2}, {"reset", 2}, {"help", 2}};
  std::string error;
  const int sub = common::FindSubcommand("slowlog", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  const std::string_view name = kSubs[sub].name;
  if (name == "get")
    return c.argc() > 3 ? c.Error(common::SubcommandSyntaxError("slowlog", c.arg(1)))
                        : SlowlogGet(c);
  if (name == "len") return c.Integer(static_cast<int64_t>(G().slowlog.entries().size()));
  if (name == "reset") {
    G().slowlog.Reset();
    return c.Ok();
  }
  HelpReply(c, {"SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "GET [<count>]",
                "    The newest <count> entries of the slow log (10 by default, -1 for all).",
                "    Each entry: id, unix time, microseconds taken, arguments, client address",
                "    and client name.", "LEN", "    How many entries the slow log holds.", "RESET",
                "    Empties the slow log.", "HELP", "    Prints this help."});
}

void LatencyCommand(Call& c) {
  static constexpr common::SubcommandDef kSubs[] = {{"latest", 2}, {"history", 3}, {"reset", -2},
                                                    {"graph", 3},  {"doctor", 2},  {"help", 2}};
  std::string error;
  const int sub = common::FindSubcommand("latency", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  const std::string_view name = kSubs[sub].name;
  LatencyMonitor& m = G().latency;
  if (name == "latest") return LatencyLatest(c);
  if (name == "history") return LatencyHistory(c);
  if (name == "reset") {
    if (c.argc() == 2) return c.Integer(m.ResetAll());
    int64_t n = 0;
    for (int i = 2; i < c.argc(); ++i) n += m.Reset(c.arg(i));
    return c.Integer(n);
  }
  if (name == "graph") {
    const LatencySeries* s = m.Find(c.arg(2));
    if (!s)
      return c.Error("ERR No samples available for event '" + common::ErrorArg(c.arg(2)) + "'");
    return c.Verbatim("txt", LatencyGraph(c.arg(2), *s, NowS()));
  }
  if (name == "doctor") return c.Verbatim("txt", LatencyReport(m, G().threshold_ms));
  HelpReply(c, {"LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "LATEST",
                "    Per event: the unix time and milliseconds of its latest spike, and its",
                "    worst.", "HISTORY <event>",
                "    The unix time and milliseconds of each of <event>'s last 160 spikes.",
                "RESET [<event> ...]",
                "    Forgets the given events' spikes (every event's without one).",
                "GRAPH <event>", "    An ASCII graph of <event>'s spikes.", "DOCTOR",
                "    A report of the spikes and what commonly causes them.", "HELP",
                "    Prints this help."});
}

void MonitorCommand(Call& c) {
  const uint64_t id = Api().client_id(c.raw());
  if (id == 0) return c.Error("ERR MONITOR needs a client connection");
  auto& m = G().monitors;
  if (std::find(m.begin(), m.end(), id) == m.end()) m.push_back(id);
  UpdateObservers();
  c.Ok();
}

}  // namespace plinth::diagnostics
