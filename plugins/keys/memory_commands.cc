// MEMORY (USAGE, STATS, DOCTOR, MALLOC-STATS, PURGE, HELP): memory diagnostics. USAGE measures
// one key; the rest read the host's memory report (memory_report) and shape it as Redis does.
// Main thread.
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/subcommand.h"
#include "keys/handlers.h"
#include "keys/options.h"

namespace plinth::keys {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kMemorySubs[] = {{"usage", -3},       {"stats", 2}, {"doctor", 2},
                                                 {"malloc-stats", 2}, {"purge", 2}, {"help", 2}};

using Fields = std::vector<std::pair<std::string, std::string>>;

// The host's report what as (name, value) pairs, or its text when it is not "name:value" lines.
std::string Report(uint32_t what) {
  std::string text;
  Api().memory_report(
      sdk::Host::self, what,
      [](void* arg, const char* d, size_t n) {
        auto* t = static_cast<std::string*>(arg);
        if (!t->empty()) t->push_back('\n');
        t->append(d, n);
      },
      &text);
  return text;
}

Fields Stats() {
  Fields out;
  const std::string text = Report(PLINTH_MEMORY_STATS);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const size_t colon = line.rfind(':');
    if (colon != std::string::npos) out.emplace_back(line.substr(0, colon), line.substr(colon + 1));
    start = end + 1;
  }
  return out;
}

void ReplyNumber(const Call& c, const std::string& v) {
  if (v.find('.') != std::string::npos || v.find('e') != std::string::npos)
    return c.Double(std::strtod(v.c_str(), nullptr));
  c.Integer(std::strtoll(v.c_str(), nullptr, 10));
}

// MEMORY STATS: a map of the fields, those of database N ("db.N.name") in a map of their own.
void ReplyStats(const Call& c) {
  const Fields fields = Stats();
  std::vector<std::pair<std::string, Fields>> entries;  // ("name", {}) or ("db.N", fields)
  std::map<std::string, size_t> dbs;
  for (const auto& [name, value] : fields) {
    if (name.rfind("db.", 0) == 0) {
      const size_t dot = name.find('.', 3);
      const std::string db = name.substr(0, dot);
      auto [it, fresh] = dbs.emplace(db, entries.size());
      if (fresh) entries.push_back({db, {}});
      entries[it->second].second.emplace_back(name.substr(dot + 1), value);
    } else {
      entries.push_back({name, {{"", value}}});
    }
  }
  c.Map(static_cast<int64_t>(entries.size()));
  for (const auto& [name, sub] : entries) {
    c.Bulk(name);
    if (name.rfind("db.", 0) != 0) {
      ReplyNumber(c, sub[0].second);
      continue;
    }
    c.Map(static_cast<int64_t>(sub.size()));
    for (const auto& [k, v] : sub) {
      c.Bulk(k);
      ReplyNumber(c, v);
    }
  }
}

int64_t Field(const Fields& f, std::string_view name) {
  for (const auto& [k, v] : f)
    if (k == name) return std::strtoll(v.c_str(), nullptr, 10);
  return 0;
}

std::string Mb(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
  return buf;
}

// MEMORY DOCTOR: what in the figures deserves a look, one finding per paragraph.
std::string Doctor() {
  const Fields f = Stats();
  const int64_t used = Field(f, "total.allocated"), peak = Field(f, "peak.allocated");
  const int64_t startup = Field(f, "startup.allocated"),
                rss = used + Field(f, "fragmentation.bytes");
  const int64_t normal = Field(f, "clients.normal"), replicas = Field(f, "clients.slaves");
  if (used - startup < 5 * 1024 * 1024)
    return "The dataset is nearly empty (" + Mb(used - startup) +
           " above what the server used at startup): there is nothing to diagnose yet.\n";
  std::string out;
  if (peak > used * 3 / 2)
    out += "- Peak: memory use once reached " + Mb(peak) + ", more than 150% of the " + Mb(used) +
           " used now. The allocator may still hold the difference; MEMORY PURGE returns its "
           "free pages to the system.\n";
  if (used > 0 && rss > used * 14 / 10 && rss - used > 10 * 1024 * 1024)
    out += "- Fragmentation: the process holds " + Mb(rss) + " of resident memory for " + Mb(used) +
           " allocated. Freed pages that are not yet returned count here too; "
           "MEMORY PURGE may lower it.\n";
  if (normal > used / 4 && normal > 32 * 1024 * 1024)
    out += "- Clients: connected clients' buffers hold " + Mb(normal) +
           ". Look for slow readers of big replies (CLIENT LIST omem) and for large pipelines; "
           "client-output-buffer-limit bounds them.\n";
  if (replicas > 32 * 1024 * 1024)
    out += "- Replicas: their output buffers hold " + Mb(replicas) +
           ". A replica is falling behind or syncing; check INFO replication.\n";
  if (out.empty())
    return "No memory problem found: use, peak, fragmentation and buffers look normal.\n";
  return "Findings:\n" + out;
}

void MemoryHelp(const Call& c) {
  ReplyHelp(c, {"MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "DOCTOR",
                "    Return memory problems reports.", "MALLOC-STATS",
                "    Return internal statistics report from the memory allocator.", "PURGE",
                "    Attempt to purge dirty pages for reclamation by the allocator.", "STATS",
                "    Return information about the memory usage of the server.",
                "USAGE <key> [SAMPLES <count>]",
                "    Return memory in bytes used by <key> and its value. Nested values",
                "    are measured exactly; SAMPLES is accepted and ignored.", "HELP",
                "    Prints this help."});
}

}  // namespace

void Memory(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("memory", kMemorySubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  const std::string_view name = kMemorySubs[sub].name;
  if (name == "help") return MemoryHelp(c);
  if (name == "stats") return ReplyStats(c);
  if (name == "doctor") return c.Verbatim("txt", Doctor());
  if (name == "malloc-stats") return c.Verbatim("txt", Report(PLINTH_MEMORY_MALLOC_STATS));
  if (name == "purge") {
    Report(PLINTH_MEMORY_PURGE);
    return c.Ok();
  }
  if (!ParseMemoryUsageOptions(ArgsFrom(c, 3), &error)) return c.Error(error);
  std::string_view key = c.arg(2);
  const plinth_value_t* v = c.Get(key);
  if (!v) return c.Null();
  c.Integer(static_cast<int64_t>(Api().value_memory(v) + key.size()));
}

}  // namespace plinth::keys
