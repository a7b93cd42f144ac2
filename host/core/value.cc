// Value allocation, refcounting and the registry of plugin value types.
#include "host/core/value.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <plinth/text.hpp>
#include <vector>

#include "host/core/registry.h"

namespace plinth::host {
namespace {

constexpr uint32_t kFirstPluginType = 16;
std::atomic<int64_t> g_alive{0};

// Redis reports "int" for strings that round-trip as a 64-bit integer, "embstr" up to 44 bytes.
uint32_t EncodingOf(const char* s, size_t len) {
  if (text::ParseInt64(std::string_view(s, len), nullptr)) return PLINTH_ENC_INT;
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

static const TypeEntry* TypeOf(const plinth_value_t* v) {
  const TypeEntry* t;
  std::memcpy(&t, v->data, sizeof t);
  return t;
}

plinth_value_t* ValueCreateTyped(const TypeEntry* type, void* payload) {
  auto* v = static_cast<plinth_value_t*>(std::malloc(sizeof(plinth_value_t) + sizeof type));
  if (!v) return nullptr;
  new (&v->refs) std::atomic<uint32_t>(1);
  v->type = type->id;
  v->encoding = PLINTH_ENC_RAW;
  v->len = 0;
  v->payload = payload;
  std::memcpy(v->data, &type, sizeof type);
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return v;
}

bool ValueStringOverwrite(plinth_value_t* v, const char* s, size_t len) {
  constexpr size_t kSlack = 32;  // room a small string may keep beyond twice its length
  if (v->type != PLINTH_TYPE_STRING || v->refs.load(std::memory_order_acquire) != 1 ||
      len > v->cap || v->cap > 2 * len + kSlack)
    return false;
  std::memmove(v->data, s, len);
  v->len = len;
  v->data[len] = 0;
  v->encoding = EncodingOf(s, len);
  return true;
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
  if (v->type != PLINTH_TYPE_STRING) TypeOf(v)->spec.free_payload(v->payload);
  g_alive.fetch_sub(1, std::memory_order_relaxed);
  std::free(v);
}

void ValueReleaseArg(void* v) { ValueRelease(static_cast<const plinth_value_t*>(v)); }

size_t ValueMemory(const plinth_value_t* v) {
  if (v->type == PLINTH_TYPE_STRING) return sizeof(plinth_value_t) + v->cap + 1;
  size_t n = sizeof(plinth_value_t) + sizeof(TypeEntry*);
  const TypeEntry* t = TypeOf(v);
  if (t->spec.memory_usage) n += t->spec.memory_usage(v->payload);
  return n;
}

int64_t ValuesAlive() { return g_alive.load(std::memory_order_relaxed); }

uint32_t Types::Register(const plinth_type_spec_t* spec, const std::string& owner,
                         std::string* why) {
  TypeEntry e;
  if (!CopySizedStruct(&e.spec, sizeof e.spec, spec,
                       offsetof(plinth_type_spec_t, free_payload) + sizeof(void*)) ||
      !e.spec.name || !*e.spec.name || !e.spec.free_payload) {
    *why = "type_register: invalid type spec";
    return 0;
  }
  std::string_view name(e.spec.name);
  bool taken = name == "string" || name == "none";
  for (const TypeEntry& t : entries_) taken = taken || (t.live && t.name == name);
  if (taken) {
    *why = "type_register: type name '" + std::string(name) + "' is taken";
    return 0;
  }
  e.id = kFirstPluginType + static_cast<uint32_t>(entries_.size());
  e.name = name;
  e.spec.name = nullptr;
  e.owner = owner;
  e.live = true;
  entries_.push_back(std::move(e));
  return entries_.back().id;
}

void Types::UnregisterOwner(const std::string& owner) {
  for (TypeEntry& t : entries_)
    if (t.owner == owner) t.live = false;
}

const TypeEntry* Types::Find(uint32_t id) const {
  if (id < kFirstPluginType || id - kFirstPluginType >= entries_.size()) return nullptr;
  const TypeEntry& t = entries_[id - kFirstPluginType];
  return t.live ? &t : nullptr;
}

const char* Types::Name(uint32_t id) const {
  if (id == PLINTH_TYPE_STRING) return "string";
  if (id >= kFirstPluginType && id - kFirstPluginType < entries_.size())
    return entries_[id - kFirstPluginType].name.c_str();
  return "none";
}

}  // namespace plinth::host
