// INFO sections of the host, in Redis's field names where Redis has the field.
#include "host/core/info.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <plinth/text.hpp>

#include "host/core/core.h"
#include "host/core/version.h"

namespace plinth::host {
namespace {

constexpr std::string_view kLineEnd = "\r\n";  // INFO's lines end as RESP's do

void Field(std::string& o, const char* name, const std::string& v) { InfoLine(&o, name, v); }
void Field(std::string& o, const char* name, int64_t v) { Field(o, name, std::to_string(v)); }

void Server_(Core& s, std::string& o) {
  struct utsname u;
  uname(&u);
  Field(o, "redis_version", kRedisCompatVersion);
  Field(o, "plinth_version", kPlinthVersion);
  Field(o, "plinth_abi", std::to_string(PLINTH_ABI_MAJOR) + "." + std::to_string(PLINTH_ABI_MINOR));
  Field(o, "redis_mode", "standalone");
  Field(o, "run_id", std::string(s.server.state.run_id));
  Field(o, "os", std::string(u.sysname) + " " + u.release + " " + u.machine);
  Field(o, "arch_bits", static_cast<int64_t>(sizeof(void*) * 8));
  Field(o, "process_id", static_cast<int64_t>(getpid()));
  s.server.env().process->InfoFields("listeners", &o);  // tcp_port: the transports' listeners say
  int64_t up = (s.server.NowMs() - s.server.state.start_ms) / 1000;
  Field(o, "server_time_usec", s.server.env().clock->NowUs());
  Field(o, "uptime_in_seconds", up);
  Field(o, "uptime_in_days", up / 86400);
  Field(o, "executable", s.server.state.executable);
  Field(o, "config_file", s.server.state.config_file);
  s.server.env().process->InfoFields("server", &o);
}

void Clients(Core& s, std::string& o) { s.server.env().process->InfoFields("clients", &o); }
void IoThreads(Core& s, std::string& o) { s.server.env().process->InfoFields("io_threads", &o); }

void Memory(Core& s, std::string& o) {
  const MemoryFigures m = MeasureMemory(s);
  Field(o, "used_memory", m.used);
  Field(o, "used_memory_human", HumanBytes(m.used));
  s.server.env().process->InfoFields("memory", &o);
  Field(o, "used_memory_peak", m.peak);
  Field(o, "used_memory_peak_human", HumanBytes(m.peak));
  Field(o, "used_memory_overhead", m.overhead);
  Field(o, "used_memory_startup", m.startup);
  Field(o, "used_memory_dataset", m.dataset);
  Field(o, "mem_clients_slaves", m.replicas);
  Field(o, "mem_clients_normal", m.clients - m.replicas);
  s.keyspace.evictor.InfoFields(&o);
  Field(o, "values_alive", ValuesAlive());
}

void Stats_(Core& s, std::string& o) {
  const Stats& st = s.server.stats;
  Field(o, "total_connections_received", st.connections_received);
  Field(o, "total_commands_processed", st.commands);
  Field(o, "total_net_input_bytes", st.net_input_bytes);
  Field(o, "total_net_output_bytes", st.net_output_bytes);
  Field(o, "reply_bytes_referenced", st.reply_bytes_referenced);
  Field(o, "reply_bytes_copied", st.reply_bytes_copied);
  Field(o, "rejected_connections", st.rejected_connections);
  Field(o, "expired_keys", st.expired_keys);
  Field(o, "evicted_keys", s.keyspace.evictor.evicted);
  Field(o, "keyspace_hits", st.keyspace_hits);
  Field(o, "keyspace_misses", st.keyspace_misses);
  Field(o, "total_error_replies", st.error_replies);
  Field(o, "unknown_commands", st.unknown_commands);
  Field(o, "client_query_buffer_limit_disconnections", st.query_buffer_disconnections);
  Field(o, "client_output_buffer_limit_disconnections", st.output_buffer_disconnections);
  Field(o, "client_timeout_disconnections", st.timeout_disconnections);
}

// Until a replication plugin registers its own "replication" section, the server is a master
// without replicas, as clients that read INFO replication expect.
void Replication(Core& core, std::string& o) {
  Field(o, "role", "master");
  Field(o, "connected_slaves", 0);
  Field(o, "master_failover_state", "no-failover");
  Field(o, "master_repl_offset", core.propagation.stream.Offset());
  Field(o, "repl_backlog_active", 0);
}

void Cpu(Core&, std::string& o) {
  struct rusage self;
  getrusage(RUSAGE_SELF, &self);
  auto secs = [](const timeval& tv) {
    char b[32];
    std::snprintf(b, sizeof b, "%ld.%06ld", static_cast<long>(tv.tv_sec),
                  static_cast<long>(tv.tv_usec));
    return std::string(b);
  };
  Field(o, "used_cpu_sys", secs(self.ru_stime));
  Field(o, "used_cpu_user", secs(self.ru_utime));
}

void Keyspace(Core& s, std::string& o) {
  for (size_t i = 0; i < s.keyspace.dbs.size(); ++i) {
    if (s.keyspace.dbs[i].Size().keys == 0) continue;
    char buf[128];
    std::snprintf(buf, sizeof buf, "keys=%zu,expires=%zu,avg_ttl=0", s.keyspace.dbs[i].Size().keys,
                  s.keyspace.dbs[i].Size().expiring);
    Field(o, ("db" + std::to_string(i)).c_str(), buf);
  }
}

void PluginsSection(Core& s, std::string& o) {
  for (const auto& p : s.plugins.loaded()) {
    const plinth_plugin_descriptor_t* d = &p->descriptor;
    char buf[512];
    std::snprintf(buf, sizeof buf, "name=%s,ver=%s,abi=%u.%u,path=%s", p->name.c_str(),
                  d->version ? d->version : "", d->abi_major, d->abi_minor, p->path.c_str());
    Field(o, ("plugin_" + p->name).c_str(), buf);
  }
}

void CommandStats(Core& s, std::string& o) {
  for (const auto& c : s.registry.commands) {
    const auto& st = c->stats;
    if (!st.calls && !st.rejected && !st.failed) continue;
    char buf[256];
    std::snprintf(
        buf, sizeof buf,
        "calls=%llu,usec=%llu,usec_per_call=%.2f,rejected_calls=%llu,failed_calls=%llu",
        static_cast<unsigned long long>(st.calls), static_cast<unsigned long long>(st.usec),
        st.calls ? static_cast<double>(st.usec) / static_cast<double>(st.calls) : 0.0,
        static_cast<unsigned long long>(st.rejected), static_cast<unsigned long long>(st.failed));
    Field(o, ("cmdstat_" + c->name).c_str(), buf);
  }
}

void ErrorStats(Core& s, std::string& o) {
  for (const auto& [code, n] : s.server.stats.errors)
    Field(o, ("errorstat_" + code).c_str(), "count=" + std::to_string(n));
}

struct HostSection {
  const char* name;
  const char* title;
  void (*fn)(Core&, std::string&);
  bool in_default;
  bool placeholder;  // a plugin's section of that name replaces it; others add fields to it
};
const HostSection kSections[] = {
    {"server", "Server", Server_, true, false},
    {"clients", "Clients", Clients, true, false},
    {"memory", "Memory", Memory, true, false},
    {"stats", "Stats", Stats_, true, false},
    {"replication", "Replication", Replication, true, true},
    {"cpu", "CPU", Cpu, true, false},
    {"plugins", "Plugins", PluginsSection, false, false},
    {"commandstats", "Commandstats", CommandStats, false, false},
    {"errorstats", "Errorstats", ErrorStats, true, false},
    {"io_threads", "IO_threads", IoThreads, false, false},
    {"keyspace", "Keyspace", Keyspace, true, false},
};

void Begin(std::string& o, const std::string& title) {
  if (!o.empty()) o += kLineEnd;
  o += "# " + title;
  o += kLineEnd;
}

}  // namespace

std::string HumanBytes(int64_t bytes) {
  char buf[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1024)
    std::snprintf(buf, sizeof buf, "%lldB", static_cast<long long>(bytes));
  else if (bytes < int64_t{1024} * 1024)
    std::snprintf(buf, sizeof buf, "%.2fK", b / 1024);
  else if (bytes < 1024LL * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2fM", b / (1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.2fG", b / (1024.0 * 1024 * 1024));
  return buf;
}

void InfoLine(std::string* out, std::string_view name, std::string_view value) {
  *out += name;
  *out += ':';
  *out += value;
  *out += kLineEnd;
}

void InfoLine(std::string* out, std::string_view name, int64_t value) {
  InfoLine(out, name, std::to_string(value));
}

void InfoField(plinth_info_t* info, const char* name, const char* value, size_t len) {
  if (!info || !name) return;
  InfoLine(info->out, name, std::string_view(value ? value : "", value ? len : 0));
}

void InfoFieldInt(plinth_info_t* info, const char* name, int64_t value) {
  std::string v = std::to_string(value);
  InfoField(info, name, v.data(), v.size());
}

std::string Server::RenderInfo(std::string_view section) {
  std::string sec = text::ToLower(section);
  bool all = sec == "all" || sec == "everything";
  bool def = sec.empty() || sec == "default";
  std::string o;
  const auto& secs = core_.listeners.info_sections;
  auto plugin_has = [&secs](const std::string& name) {
    for (const InfoSection& s : secs)
      if (s.name == name) return true;
    return false;
  };
  // Several plugins may fill one section (rdb and aof share "persistence"): one header, the
  // fields in registration order.
  auto plugin_fields = [&secs, &o](const std::string& name) {
    plinth_info info{&o};
    for (const InfoSection& s : secs)
      if (s.name == name) s.fn(s.ctx, &info);
  };
  for (const HostSection& h : kSections) {
    if (!(all || (def && h.in_default) || sec == h.name)) continue;
    const bool extended = plugin_has(h.name);
    if (extended && h.placeholder) continue;  // the plugin's section replaces it
    Begin(o, h.title);
    h.fn(core_, o);
    if (extended) plugin_fields(h.name);  // a plugin's fields follow the host's (sync_full)
  }
  for (size_t i = 0; i < secs.size(); ++i) {
    const InfoSection& s = secs[i];
    if (!(all || def || sec == s.name)) continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = secs[j].name == s.name;
    for (const HostSection& h : kSections) seen = seen || (s.name == h.name && !h.placeholder);
    if (seen) continue;
    std::string title = s.name;
    title[0] = text::ToUpper(title[0]);
    Begin(o, title);
    plugin_fields(s.name);
  }
  return o;
}

}  // namespace plinth::host
