// Value allocation, refcounting and the registry of plugin value types.
#include "host/core/value.h"

#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <plinth/text.hpp>
#include <vector>

#include "host/core/abi_compat.h"
#include "host/core/access.h"
#include "host/core/registry.h"

namespace plinth::host {
namespace {

constexpr uint32_t kFirstPluginType = 16;
constexpr uint32_t kLastPluginType = 255;  // type ids are a byte in the value header
std::atomic<int64_t> g_alive{0};

plinth_value* NewObject(size_t body, uint8_t type, uint8_t flags) {
  auto* v = static_cast<plinth_value*>(std::malloc(sizeof(plinth_value) + body));
  if (!v) return nullptr;
  new (&v->refs) std::atomic<uint32_t>(1);
  v->type = type;
  v->access_lo = 0;
  v->flags = flags;  // PLINTH_ENC_RAW
  v->klen = 0;
  v->size.len = 0;
  return v;
}

}  // namespace

const TypeEntry* TypeOf(const plinth_value_t* v) {
  const TypeEntry* t;
  std::memcpy(&t, v->body + PayloadOffset(v), kPtrBytes);
  return t;
}

uint32_t StringEncoding(const char* s, size_t len) {
  if (text::ParseInt64(std::string_view(s, len), nullptr)) return PLINTH_ENC_INT;
  return len <= 44 ? PLINTH_ENC_EMBSTR : PLINTH_ENC_RAW;
}

plinth_value_t* ValueCreateString(const char* s, size_t len) {
  return ValueCreateStringRoom(s, len, len);
}

plinth_value_t* ValueCreateStringRoom(const char* s, size_t len, size_t cap) {
  if (cap > kMaxStringLen) return nullptr;
  plinth_value* v = NewObject(cap + 1, PLINTH_TYPE_STRING, 0);
  if (!v) return nullptr;
  SetValueEnc(v, StringEncoding(s, len));
  v->size.len = static_cast<uint32_t>(len);
  if (len) std::memcpy(v->body, s, len);
  v->body[len] = 0;
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return v;
}

Entry* EntryCreate(std::string_view key, const char* s, size_t len, size_t cap,
                   plinth_value* target, bool expire, int64_t expire_ms) {
  const bool long_key = key.size() >= 255;
  const size_t key_off = (expire ? 12 : 0) + (long_key ? 4 : 0);
  const size_t payload = target ? kPtrBytes : cap + 1;
  const uint8_t flags = kValKey | (expire ? kValExpire : 0) | (long_key ? kValLongKey : 0) |
                        (target ? kValIndirect : 0);
  Entry* e = NewObject(key_off + key.size() + payload, target ? 0 : PLINTH_TYPE_STRING, flags);
  if (!e) {
    if (target) ValueRelease(target);
    return nullptr;
  }
  EntrySetAccess(e, NewEntryStamp());
  if (expire) {
    EntrySetExpire(e, expire_ms);
    EntrySetExpIndex(e, 0);
  }
  if (long_key) {
    const uint32_t n = static_cast<uint32_t>(key.size());
    std::memcpy(e->body + key_off - 4, &n, 4);
  } else {
    e->klen = static_cast<uint8_t>(key.size());
  }
  std::memcpy(e->body + key_off, key.data(), key.size());
  char* p = e->body + key_off + key.size();
  if (target) {
    std::memcpy(p, &target, kPtrBytes);
    return e;
  }
  if (len) std::memcpy(p, s, len);
  p[len] = 0;
  e->size.entry.len = static_cast<uint16_t>(len);
  SetValueEnc(e, StringEncoding(s, len));
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return e;
}

size_t StringRoom(const plinth_value* v) {
  return malloc_usable_size(const_cast<plinth_value*>(v)) - sizeof(plinth_value) -
         PayloadOffset(v) - 1;
}

plinth_value_t* ValueCreateTyped(const TypeEntry* type, void* payload) {
  if (type->id > kLastPluginType) return nullptr;
  plinth_value* v = NewObject(2 * kPtrBytes, static_cast<uint8_t>(type->id), 0);
  if (!v) return nullptr;
  std::memcpy(v->body, &type, kPtrBytes);
  std::memcpy(v->body + kPtrBytes, &payload, kPtrBytes);
  g_alive.fetch_add(1, std::memory_order_relaxed);
  return v;
}

void* ValuePayloadOf(const plinth_value_t* v) {
  void* p;
  std::memcpy(&p, v->body + PayloadOffset(v) + kPtrBytes, kPtrBytes);
  return p;
}

bool ValueStringOverwrite(plinth_value_t* v, const char* s, size_t len) {
  constexpr size_t kSlack = 32;  // room a small string may keep beyond twice its length
  if (v->type != PLINTH_TYPE_STRING || v->refs.load(std::memory_order_acquire) != 1 ||
      StringLen(v) > 2 * len + kSlack || (len > StringLen(v) && len > StringRoom(v)))
    return false;
  char* d = StringData(v);
  std::memmove(d, s, len);
  SetStringLen(v, len);
  d[len] = 0;
  SetValueEnc(v, StringEncoding(s, len));
  return true;
}

void ValueRelease(const plinth_value_t* cv) {
  auto* v = const_cast<plinth_value_t*>(cv);
  if (v->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (v->flags & kValIndirect) {
    ValueRelease(EntryValue(v));
  } else {
    if (v->type != PLINTH_TYPE_STRING) TypeOf(v)->spec.free_payload(ValuePayloadOf(v));
    g_alive.fetch_sub(1, std::memory_order_relaxed);
  }
  std::free(v);
}

void ValueReleaseArg(void* v) { ValueRelease(static_cast<const plinth_value_t*>(v)); }

size_t ValueMemory(const plinth_value_t* v) {
  size_t n = malloc_usable_size(const_cast<plinth_value_t*>(v));
  if (v->flags & kValIndirect) return n + ValueMemory(EntryValue(v));
  if (v->type != PLINTH_TYPE_STRING) {
    const TypeEntry* t = TypeOf(v);
    if (t->spec.memory_usage) n += t->spec.memory_usage(ValuePayloadOf(v));
  }
  return n;
}

int64_t ValuesAlive() { return g_alive.load(std::memory_order_relaxed); }

namespace {

// The forms one type reads: Redis's three stream forms are one family (the type that saves
// one of them loads all three).
uint32_t RdbFamily(uint32_t rdb_type) {
  return rdb_type == PLINTH_RDB_STREAM_LISTPACKS_2 || rdb_type == PLINTH_RDB_STREAM_LISTPACKS_3
             ? PLINTH_RDB_STREAM_LISTPACKS
             : rdb_type;
}

}  // namespace

uint32_t Types::Register(const plinth_type_spec_t* spec, const std::string& owner,
                         std::string* why) {
  TypeEntry e;
  if (!CopySpec(&e.spec, spec) || !e.spec.name || !*e.spec.name || !e.spec.free_payload ||
      !e.spec.copy) {
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
  for (const TypeEntry& t : entries_)
    if (t.live && e.spec.rdb_type != 0 &&
        RdbFamily(t.spec.rdb_type) == RdbFamily(e.spec.rdb_type)) {
      *why = "type_register: RDB form " + std::to_string(e.spec.rdb_type) + " is taken by type '" +
             t.name + "'";
      return 0;
    }
  if (kFirstPluginType + entries_.size() > kLastPluginType) {
    *why = "type_register: too many value types (240)";
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

const TypeEntry* Types::FindRdb(uint32_t rdb_type) const {
  if (rdb_type == 0) return nullptr;
  for (const TypeEntry& t : entries_)
    if (t.live && RdbFamily(t.spec.rdb_type) == RdbFamily(rdb_type) && t.spec.rdb_load) return &t;
  return nullptr;
}

const char* Types::Name(uint32_t id) const {
  if (id == PLINTH_TYPE_STRING) return "string";
  if (id >= kFirstPluginType && id - kFirstPluginType < entries_.size())
    return entries_[id - kFirstPluginType].name.c_str();
  return "none";
}

}  // namespace plinth::host
