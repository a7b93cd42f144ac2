// Host API for memory: a key's access stamp (OBJECT IDLETIME and FREQ) and the memory reports
// of MEMORY STATS, MALLOC-STATS and PURGE.
#include <string>

#include "host/core/access.h"
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/keys.h"

namespace plinth::host {
namespace {

int32_t KeyAccess(plinth_call_t* c, const char* k, size_t n, uint32_t what, int64_t* out) {
  const AccessPolicy& p = c->core->evictor.access();
  if ((what != PLINTH_KEY_IDLE_MS && what != PLINTH_KEY_FREQ) || (what == PLINTH_KEY_FREQ) != p.lfu)
    return PLINTH_ERR;
  uint64_t h;
  const Entry* e = LiveEntry(c, {k, n}, &h, false);
  if (!e) return 0;
  *out = what == PLINTH_KEY_FREQ ? AccessFrequency(e, p, c->now_ms)
                                 : static_cast<int64_t>(AccessIdleMs(e, c->now_ms));
  return 1;
}

void Line(plinth_emit_fn emit, void* arg, const std::string& name, const std::string& value) {
  const std::string l = name + ":" + value;
  emit(arg, l.data(), l.size());
}

std::string Ratio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void Stats(Core& core, plinth_emit_fn emit, void* arg) {
  const MemoryFigures m = MeasureMemory(core);
  auto num = [&](const char* name, int64_t v) { Line(emit, arg, name, std::to_string(v)); };
  auto pct = [](int64_t part, int64_t whole) {
    return Ratio(whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0);
  };
  num("peak.allocated", m.peak);
  num("total.allocated", m.used);
  num("startup.allocated", m.startup);
  num("clients.slaves", m.replicas);
  num("clients.normal", m.clients - m.replicas);
  for (size_t i = 0; i < core.dbs.size(); ++i) {
    const Db& d = core.dbs[i];
    if (d.Size() == 0) continue;
    const std::string db = "db." + std::to_string(i) + ".";
    Line(emit, arg, db + "overhead.hashtable.main", std::to_string(d.OverheadBytes()));
    Line(emit, arg, db + "overhead.hashtable.expires",
         std::to_string(d.ExpiringCount() * sizeof(Entry*)));
  }
  num("overhead.total", m.overhead);
  num("keys.count", m.keys);
  num("keys.bytes-per-key", m.keys ? m.dataset / m.keys : 0);
  num("dataset.bytes", m.dataset);
  Line(emit, arg, "dataset.percentage", pct(m.dataset, m.used - m.startup));
  Line(emit, arg, "peak.percentage", pct(m.used, m.peak));
  Line(emit, arg, "fragmentation",
       Ratio(m.used ? static_cast<double>(m.rss) / static_cast<double>(m.used) : 0));
  num("fragmentation.bytes", m.rss - m.used);
}

int32_t MemoryReport(plinth_plugin_t* self, uint32_t what, plinth_emit_fn emit, void* arg) {
  Core& core = *self->core;
  core.AssertMainThread("memory_report");
  switch (what) {
    case PLINTH_MEMORY_STATS:
      Stats(core, emit, arg);
      return PLINTH_OK;
    case PLINTH_MEMORY_MALLOC_STATS: {
      const std::string text = core.env().AllocatorStats();
      emit(arg, text.data(), text.size());
      return PLINTH_OK;
    }
    case PLINTH_MEMORY_PURGE:
      core.env().ReleaseFreeMemory();
      return PLINTH_OK;
    default:
      return PLINTH_ERR;
  }
}

}  // namespace

void FillMemoryApi(plinth_host_api_t* t) {
  t->key_access = KeyAccess;
  t->memory_report = MemoryReport;
}

}  // namespace plinth::host
