// Refcounted values of the fake host (see values.h). Any thread.
#include "values.h"

namespace plinth::fakehost {
namespace {
std::atomic<int64_t> g_live_values{0};
}  // namespace

ValueRec* NewStringValue(std::string_view s) {
  auto* v = new ValueRec;
  v->str.assign(s.data(), s.size());
  g_live_values.fetch_add(1, std::memory_order_relaxed);
  return v;
}

ValueRec* NewTypedValue(uint32_t type, void* payload, void (*free_payload)(void*),
                        size_t (*memory_usage)(const void*)) {
  auto* v = new ValueRec;
  v->type = type;
  v->payload = payload;
  v->free_payload = free_payload;
  v->memory_usage = memory_usage;
  g_live_values.fetch_add(1, std::memory_order_relaxed);
  return v;
}

void RetainValue(const ValueRec* v) {
  if (v) const_cast<ValueRec*>(v)->refs.fetch_add(1, std::memory_order_relaxed);
}

void ReleaseValue(const ValueRec* v) {
  if (!v) return;
  auto* m = const_cast<ValueRec*>(v);
  if (m->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (m->payload && m->free_payload) m->free_payload(m->payload);
  delete m;
  g_live_values.fetch_sub(1, std::memory_order_relaxed);
}

int64_t LiveValueCount() { return g_live_values.load(std::memory_order_relaxed); }

}  // namespace plinth::fakehost
