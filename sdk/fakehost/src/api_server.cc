// Host table, part 5: server-wide queries (commands, plugins, clock) and requests (SHUTDOWN,
// CONFIG RESETSTAT). Main thread, except time_us.
#include <string>

#include "internal.h"

namespace plinth::fakehost {
namespace {

FakeHost::Impl* Current() { return g_current.load(); }

void StatsReset(plinth_call_t* call) {
  if (call) ++CallOf(call)->host->stat_resets;
}

int32_t CommandCount(void) {
  FakeHost::Impl* h = Current();
  return h ? static_cast<int32_t>(h->commands.size()) : 0;
}

const plinth_command_spec_t* CommandAt(int32_t i) {
  FakeHost::Impl* h = Current();
  if (!h || i < 0 || static_cast<size_t>(i) >= h->commands.size()) return nullptr;
  return &h->commands[i]->spec;
}

const plinth_command_spec_t* CommandLookup(const char* name, size_t len) {
  FakeHost::Impl* h = Current();
  const CommandRec* c = h && name ? h->FindCommand(std::string_view(name, len)) : nullptr;
  return c ? &c->spec : nullptr;
}

// Only plugins whose init succeeded count as loaded.
int32_t PluginCount(void) {
  FakeHost::Impl* h = Current();
  return h ? static_cast<int32_t>(h->plugins.size()) : 0;
}

const plinth_plugin_descriptor_t* PluginAt(int32_t i, const char** path) {
  FakeHost::Impl* h = Current();
  if (!h || i < 0 || static_cast<size_t>(i) >= h->plugins.size()) {
    if (path) *path = nullptr;
    return nullptr;
  }
  if (path) *path = h->plugins[i]->path.c_str();
  return &h->plugins[i]->desc;
}

void ServerShutdown(plinth_call_t* call, uint32_t) {
  if (call) CallOf(call)->host->shutdown_requested = true;
}

int64_t TimeUs(void) {
  FakeHost::Impl* h = Current();
  return h ? h->now_ms * 1000 : FakeHost::kDefaultTimeMs * 1000;
}

int64_t CallTimeMs(plinth_call_t* call) { return call ? CallOf(call)->time_ms : TimeUs() / 1000; }

}  // namespace

void FillServerApi(plinth_host_api_t* t) {
  t->stats_reset = StatsReset;
  t->command_count = CommandCount;
  t->command_at = CommandAt;
  t->command_lookup = CommandLookup;
  t->plugin_count = PluginCount;
  t->plugin_at = PluginAt;
  t->server_shutdown = ServerShutdown;
  t->time_us = TimeUs;
  t->call_time_ms = CallTimeMs;
}

}  // namespace plinth::fakehost
