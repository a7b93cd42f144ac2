// The diagnostics plugin: SLOWLOG, LATENCY, MONITOR and DEBUG. Three command observers feed
// the first three, each off (costing commands nothing) while its feature is unused. The slow log's
// hears commands from slowlog-log-slower-than, the latency monitor's from
// latency-monitor-threshold, MONITOR's every command while a client monitors.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "common/options.h"
#include "diagnostics/command_text.h"
#include "diagnostics/diagnostics.h"

namespace plinth::diagnostics {

using sdk::Api;

State& G() {
  static State s;
  return s;
}

namespace {

Args ArgsOf(const plinth_command_event_t* ev) {
  Args a;
  a.reserve(static_cast<size_t>(ev->argc));
  for (int32_t i = 0; i < ev->argc; ++i) a.emplace_back(ev->argv[i], ev->argvlen[i]);
  return a;
}

// Commands a script ran count within the script; EXEC's commands count one by one.
bool OwnCommand(const plinth_command_event_t* ev) {
  return !(ev->flags & PLINTH_EVENT_NESTED) && std::string_view(ev->name) != "exec";
}

void OnSlow(void*, const plinth_command_event_t* ev) {
  if (!OwnCommand(ev)) return;
  SlowlogEntry e;
  e.unix_s = ev->start_us / 1000000;
  e.duration_us = ev->duration_us;
  e.args = SlowlogArgs(ArgsOf(ev));
  e.addr.assign(ev->addr, ev->addr_len);
  e.client_name.assign(ev->client_name, ev->client_name_len);
  G().slowlog.Add(std::move(e));
}

void OnLatency(void*, const plinth_command_event_t* ev) {
  if (!OwnCommand(ev)) return;
  const char* event = (ev->cmd_flags & PLINTH_CMD_FAST) ? "fast-command" : "command";
  G().latency.Add(event, (ev->start_us + ev->duration_us) / 1000000, ev->duration_us / 1000);
}

// Sends line to every monitor; one that cannot take more (gone, or over its output limit)
// stops monitoring.
void PushToMonitors(const std::string& line) {
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_SIMPLE;
  item.data = line.data();
  item.len = line.size();
  auto& m = G().monitors;
  const size_t before = m.size();
  m.erase(std::remove_if(m.begin(), m.end(),
                         [&](uint64_t id) {
                           return Api().client_push(sdk::Host::self, id, &item, 1) != PLINTH_OK;
                         }),
          m.end());
  if (m.size() != before) UpdateObservers();
}

// Redis shows neither administrative commands nor a blocked command's later runs; a file being
// loaded and a primary's stream (internal clients) are not shown here either. A script's
// commands end before the script does, yet Redis shows the script first: their lines wait for
// the next command that is not nested, and follow its line.
void OnMonitored(void*, const plinth_command_event_t* ev) {
  State& g = G();
  const bool nested = ev->flags & PLINTH_EVENT_NESTED;
  const bool shown = !(ev->cmd_flags & PLINTH_CMD_ADMIN) &&
                     !(ev->flags & (PLINTH_EVENT_RERUN | PLINTH_EVENT_INTERNAL));
  if (shown) {
    const std::string_view source = nested ? "lua" : std::string_view(ev->addr, ev->addr_len);
    std::string line = MonitorLine(ev->start_us, ev->db, source, ArgsOf(ev));
    if (nested) return g.nested_lines.push_back(std::move(line));
    PushToMonitors(line);
  } else if (nested) {
    return;
  }
  for (const std::string& l : g.nested_lines) PushToMonitors(l);
  g.nested_lines.clear();
}

void OnClientEvent(void*, uint64_t id, uint32_t) {
  auto& m = G().monitors;
  auto it = std::find(m.begin(), m.end(), id);
  if (it == m.end()) return;
  m.erase(it);
  UpdateObservers();
}

int32_t ApplyOption(void*, const char* name, const char*, size_t, int64_t number, char*, size_t) {
  const std::string_view n(name);
  if (n == "slowlog-max-len") G().slowlog.SetMaxLen(static_cast<size_t>(number));
  if (n == "slowlog-log-slower-than") G().slower_than_us = number;
  if (n == "latency-monitor-threshold") G().threshold_ms = number;
  UpdateObservers();
  return PLINTH_OK;
}

constexpr uint32_t kAdmin =
    PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE;

const sdk::CommandDef kCommands[] = {
    {"slowlog", -2, kAdmin, 0, 0, 0, SlowlogCommand, "server", "<GET [count]|LEN|RESET|HELP>",
     "A container for slow log commands", "2.2.12"},
    {"latency", -2, kAdmin, 0, 0, 0, LatencyCommand, "server",
     "<LATEST|HISTORY event|RESET [event ...]|GRAPH event|DOCTOR|HELP>",
     "A container for latency diagnostics commands", "2.8.13"},
    {"monitor", 1, kAdmin, 0, 0, 0, MonitorCommand, "server", nullptr,
     "Listens for all requests received by the server in real-time", "1.0.0"},
    // Other plugins add subcommands ("debug|reload"); the host refuses DEBUG unless
    // enable-debug-command allows it.
    {"debug", -2, PLINTH_CMD_PROTECTED | kAdmin, 0, 0, 0, DebugCommand, "server", nullptr,
     "A container for debugging commands", "1.0.0",
     PLINTH_ACL_ADMIN | PLINTH_ACL_SLOW | PLINTH_ACL_DANGEROUS},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"latency|doctor", 2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"latency|graph", 3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"latency|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"latency|history", 3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"latency|latest", 2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"latency|reset", -2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"slowlog|get", -2, PLINTH_CMD_ADMIN | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr,
     nullptr, nullptr, nullptr, nullptr, 0},
    {"slowlog|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"slowlog|len", 2, PLINTH_CMD_ADMIN | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr,
     nullptr, nullptr, nullptr, nullptr, 0},
    {"slowlog|reset", 2, PLINTH_CMD_ADMIN | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr,
     nullptr, nullptr, nullptr, nullptr, 0},
};

bool Init() {
  State& g = G();
  g = State{};  // a fresh start for each load (the fake host loads the plugin again)
  g.slow_observer = Api().command_observer_register(sdk::Host::self, OnSlow, nullptr, -1);
  g.latency_observer = Api().command_observer_register(sdk::Host::self, OnLatency, nullptr, -1);
  g.monitor_observer = Api().command_observer_register(sdk::Host::self, OnMonitored, nullptr, -1);
  if (g.slow_observer < 0 || g.latency_observer < 0 || g.monitor_observer < 0) return false;
  const plinth_option_t *slower_than = nullptr, *max_len = nullptr, *threshold = nullptr;
  const bool options =
      common::RegisterGlobalOption(&slower_than, "slowlog-log-slower-than", PLINTH_OPT_INT,
                                   PLINTH_OPT_MUTABLE, "10000", -1, INT64_MAX,
                                   "Microseconds a command must take to enter the slow log; 0 "
                                   "logs every command, -1 none",
                                   ApplyOption) &&
      common::RegisterGlobalOption(
          &max_len, "slowlog-max-len", PLINTH_OPT_INT, PLINTH_OPT_MUTABLE, "128", 0, INT32_MAX,
          "Entries the slow log keeps (the oldest go first)", ApplyOption) &&
      common::RegisterGlobalOption(&threshold, "latency-monitor-threshold", PLINTH_OPT_INT,
                                   PLINTH_OPT_MUTABLE, "0", 0, INT64_MAX / 1000,
                                   "Milliseconds from which a command is a latency spike; 0 "
                                   "turns the latency monitor off",
                                   ApplyOption);
  if (!options) return false;
  g.slower_than_us = sdk::OptionInt(slower_than, 10000);
  g.threshold_ms = sdk::OptionInt(threshold, 0);
  g.slowlog.SetMaxLen(static_cast<size_t>(sdk::OptionInt(max_len, 128)));
  UpdateObservers();
  return Api().client_listener_register(sdk::Host::self, OnClientEvent, nullptr) == PLINTH_OK &&
         sdk::RegisterCommands(kCommands);
}

}  // namespace

void UpdateObservers() {
  State& g = G();
  Api().command_observer_set(sdk::Host::self, g.slow_observer,
                             g.slower_than_us < 0 ? -1 : g.slower_than_us);
  Api().command_observer_set(sdk::Host::self, g.latency_observer,
                             g.threshold_ms > 0 ? g.threshold_ms * 1000 : -1);
  Api().command_observer_set(sdk::Host::self, g.monitor_observer, g.monitors.empty() ? -1 : 0);
}

}  // namespace plinth::diagnostics

PLINTH_PLUGIN("diagnostics", "0.1.0", "SLOWLOG, LATENCY, MONITOR and DEBUG",
              plinth::diagnostics::Init, nullptr)
