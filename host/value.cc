// Value allocation, refcounting and the registry of plugin value types.
#include "host/value.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace plinth::host {
namespace {

struct TypeEntry {
  plinth_type_spec_t spec{};
  std::string name;
  std::string owner;
  bool live = false;
};

constexpr uint32_t kFirstPluginType = 16;
std::vector<TypeEntry>& Types() {
  static std::vector<TypeEntry> types;
  return types;
}
std::atomic<int64_t> g_alive{0};

// Redis reports "int" for strings that round-trip as a 64-bit integer, "embstr" up to 44 bytes.
uint32_t EncodingOf(const char* s, size_t len) {
  if (len > 0 && len <= 20) {
    size_t i = s[0] == '-' ? 1 : 0;
    bool digits = i < len && !(s[i] == '0' && len > i + 1) && !(i == 1 && s[1] == '0');
    for (size_t j = i; digits && j < len; ++j) digits = s[j] >= '0' && s[j] <= '9';
    if (digits) {
      errno = 0;
      char buf[24];
      std::memcpy(buf, s, len);
      buf[len] = 0;
      (void)std::strtoll(buf, nullptr, 10);
      if (errno == 0) return PLINTH_ENC_INT;
    }
  }
  return len <= 44 ? PLINTH_ENC_EMBSTR : PLINTH_ENC_RAW;
}

}  // namespace

plinth_value_t* ValueCreateString(const char* s, size_t len) {
  auto* v = static_cast<plinth_value_t*>(std::malloc(sizeof(plinth_value_t) + len + 1));
  if (!v) return nullptr;
  new (&v->refs) std::atomic<uint32_t>(1);
  v->type = PLINTH_TYPE_STRING;
  v->encoding = EncodingOf(s, len);
  v->len = len;
  v->cap = len;
  if (len) std::memcpy(v->data, s, len);
  v->data[len] = 0;
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return v;
}

plinth_value_t* ValueCreateTyped(uint32_t type, void* payload) {
  if (type < kFirstPluginType || type - kFirstPluginType >= Types().size() ||
      !Types()[type - kFirstPluginType].live)
    return nullptr;
  auto* v = static_cast<plinth_value_t*>(std::malloc(sizeof(plinth_value_t) + 1));
  if (!v) return nullptr;
  new (&v->refs) std::atomic<uint32_t>(1);
  v->type = type;
  v->encoding = PLINTH_ENC_RAW;
  v->len = 0;
  v->payload = payload;
  v->data[0] = 0;
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return v;
}

bool ValueStringResize(plinth_value_t** pv, size_t len) {
  plinth_value_t* v = *pv;
  bool shared = v->refs.load(std::memory_order_acquire) != 1;
  if (!shared && len <= v->cap) {
    if (len > v->len) std::memset(v->data + v->len, 0, len - v->len);
  } else {
    // Like Redis's strings: double while small, then grow by 1 MiB steps.
    size_t cap = len;
    if (len > v->cap) cap = len < (1u << 20) ? len * 2 : len + (1u << 20);
    size_t keep = std::min(v->len, len);
    plinth_value_t* n;
    if (shared) {
      n = static_cast<plinth_value_t*>(std::malloc(sizeof(plinth_value_t) + cap + 1));
      if (!n) return false;
      new (&n->refs) std::atomic<uint32_t>(1);
      n->type = PLINTH_TYPE_STRING;
      std::memcpy(n->data, v->data, keep);
      g_alive.fetch_add(1, std::memory_order_relaxed);
      ValueRelease(v);
    } else {
      n = static_cast<plinth_value_t*>(std::realloc(v, sizeof(plinth_value_t) + cap + 1));
      if (!n) return false;
    }
    n->cap = cap;
    if (len > keep) std::memset(n->data + keep, 0, len - keep);
    v = n;
  }
  v->len = len;
  v->data[len] = 0;
  v->encoding = PLINTH_ENC_RAW;
  *pv = v;
  return true;
}

void ValueRelease(const plinth_value_t* cv) {
  auto* v = const_cast<plinth_value_t*>(cv);
  if (v->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (v->type >= kFirstPluginType) {
    const TypeEntry& t = Types()[v->type - kFirstPluginType];
    if (t.spec.free_payload) t.spec.free_payload(v->payload);
  }
  g_alive.fetch_sub(1, std::memory_order_relaxed);
  std::free(v);
}

size_t ValueMemory(const plinth_value_t* v) {
  if (v->type == PLINTH_TYPE_STRING) return sizeof(plinth_value_t) + v->cap + 1;
  size_t n = sizeof(plinth_value_t) + 1;
  if (v->type >= kFirstPluginType) {
    const TypeEntry& t = Types()[v->type - kFirstPluginType];
    if (t.spec.memory_usage) n += t.spec.memory_usage(v->payload);
  }
  return n;
}

int64_t ValuesAlive() { return g_alive.load(std::memory_order_relaxed); }

uint32_t TypeRegister(const plinth_type_spec_t* spec, const std::string& owner) {
  if (!spec || spec->struct_size < offsetof(plinth_type_spec_t, free_payload) + sizeof(void*) ||
      !spec->name || !*spec->name || !spec->free_payload)
    return 0;
  for (const TypeEntry& t : Types())
    if (t.live && t.name == spec->name) return 0;
  TypeEntry e;
  std::memcpy(&e.spec, spec, std::min<size_t>(spec->struct_size, sizeof e.spec));
  e.name = spec->name;
  e.spec.name = nullptr;
  e.owner = owner;
  e.live = true;
  Types().push_back(std::move(e));
  return kFirstPluginType + static_cast<uint32_t>(Types().size() - 1);
}

void TypeUnregisterOwner(const std::string& owner) {
  for (TypeEntry& t : Types())
    if (t.owner == owner) t.live = false;
}

const char* TypeName(uint32_t type) {
  if (type == PLINTH_TYPE_STRING) return "string";
  if (type >= kFirstPluginType && type - kFirstPluginType < Types().size())
    return Types()[type - kFirstPluginType].name.c_str();
  return "none";
}

}  // namespace plinth::host
