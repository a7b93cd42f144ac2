// Host API of abi/types.h: value types and values, keys and databases of the call, the keyspace
// outside a command (a snapshot's visit, loading keys, values through their RDB forms), and
// memory reports. The lookups behind the key functions are in keyspace_access.cc. Main thread.
#include <cstring>
#include <string>

#include "host/core/access.h"
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/keys.h"
#include "host/core/lazy_free.h"

namespace plinth::host {
namespace {

plinth_value_t* ValueCreateTypedApi(plinth_plugin_t* self, uint32_t type, void* payload) {
  const TypeEntry* t = self ? self->core->keyspace.types.Find(type) : nullptr;
  return t ? ValueCreateTyped(t, payload) : nullptr;
}

const char* TypeNameApi(plinth_plugin_t* self, uint32_t type) {
  return self ? self->core->keyspace.types.Name(type) : "none";
}

void ValueRetainApi(const plinth_value_t* v) { ValueRetain(v); }

uint32_t ValueType(const plinth_value_t* v) { return v ? v->type : PLINTH_TYPE_NONE; }

const char* ValueString(const plinth_value_t* v, size_t* len) {
  if (!v || v->type != PLINTH_TYPE_STRING) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = StringLen(v);
  return StringData(v);
}

const void* ValuePayload(const plinth_value_t* v) {
  return v && v->type != PLINTH_TYPE_STRING ? ValuePayloadOf(v) : nullptr;
}

int32_t ValueEncoding(const plinth_value_t* v) { return static_cast<int32_t>(ValueEnc(v)); }

const plinth_value_t* KeyGet(plinth_call_t* c, const char* k, size_t n) {
  Entry* e = LiveEntry(c, {k, n});
  if (e)
    c->core->server.stats.keyspace_hits++;
  else
    c->core->server.stats.keyspace_misses++;
  return e ? EntryValue(e) : nullptr;
}

int32_t KeySet(plinth_call_t* c, const char* k, size_t n, plinth_value_t* v, uint32_t flags) {
  if (!v) return PLINTH_ERR;
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);  // an expired key is removed (and counted) first
  c->core->keyspace.dirty++;
  const int64_t expire = e && (flags & PLINTH_SET_KEEPTTL) ? EntryExpireMs(e) : -1;
  if (!CallDb(c).Set({k, n}, h, e, v, expire)) return PLINTH_ERR;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  if (!e) c->core->keyspace.KeyCreated(c->db, {k, n});
  return PLINTH_OK;
}

int32_t KeyDelete(plinth_call_t* c, const char* k, size_t n) {
  if (!LiveEntry(c, {k, n})) return 0;
  CallDb(c).Delete({k, n});
  c->core->keyspace.dirty++;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  return 1;
}

int64_t KeyExpireGet(plinth_call_t* c, const char* k, size_t n) {
  Entry* e = LiveEntry(c, {k, n});
  return e ? EntryExpireMs(e) : -2;
}

int32_t KeyExpireSet(plinth_call_t* c, const char* k, size_t n, int64_t when) {
  Entry* e = LiveEntry(c, {k, n});
  if (!e) return 0;
  c->core->keyspace.dirty++;
  if (when >= 0 && when <= c->now_ms) {
    CallDb(c).Delete({k, n});  // Redis deletes it without counting an expiry
    c->core->keyspace.KeyTouched(c->db, {k, n});
    return 1;
  }
  if (!CallDb(c).SetExpire(e, when)) return PLINTH_ERR;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  return 1;
}

char* KeyStringResize(plinth_call_t* c, const char* k, size_t n, size_t newlen) {
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);
  if (!e) {
    e = CallDb(c).Set({k, n}, h, nullptr, "", 0, false);
    if (!e) return nullptr;
    c->core->keyspace.KeyCreated(c->db, {k, n});
  } else if (EntryValue(e)->type != PLINTH_TYPE_STRING) {
    return nullptr;
  }
  char* d = CallDb(c).StringResize(e, newlen);
  if (d) {
    c->core->keyspace.dirty++;
    c->core->keyspace.KeyTouched(c->db, {k, n});
  }
  return d;
}

int32_t KeyStringSet(plinth_call_t* c, const char* k, size_t n, const char* s, size_t len,
                     uint32_t flags) {
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);  // an expired key is removed (and counted) first
  const bool created = !e;
  e = CallDb(c).Set({k, n}, h, e, s, len, flags & PLINTH_SET_KEEPTTL);
  if (!e) return PLINTH_ERR;
  if (created) c->core->keyspace.KeyCreated(c->db, {k, n});
  plinth_value* v = EntryValue(e);
  if ((flags & PLINTH_SET_NO_INT_ENCODING) && ValueEnc(v) == PLINTH_ENC_INT)
    SetValueEnc(v, StringLen(v) <= 44 ? PLINTH_ENC_EMBSTR : PLINTH_ENC_RAW);
  c->core->keyspace.dirty++;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  return PLINTH_OK;
}

void KeyTouchedApi(plinth_call_t* c, const char* k, size_t n) {
  if (k) c->core->keyspace.KeyTouched(c->db, {k, n});
}

uint64_t DbSize(plinth_call_t* c) { return CallDb(c).Size().keys; }

int32_t DbCurrent(plinth_call_t* c) { return c->db; }

int32_t DbCount(plinth_call_t* c) { return static_cast<int32_t>(c->core->keyspace.dbs.size()); }

int32_t KeyAccess(plinth_call_t* c, const char* k, size_t n, uint32_t what, int64_t* out) {
  const AccessPolicy& p = c->core->keyspace.evictor.access();
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
  for (size_t i = 0; i < core.keyspace.dbs.size(); ++i) {
    const Db& d = core.keyspace.dbs[i];
    if (d.Size().keys == 0) continue;
    const std::string db = "db." + std::to_string(i) + ".";
    Line(emit, arg, db + "overhead.hashtable.main", std::to_string(d.Size().table_bytes));
    Line(emit, arg, db + "overhead.hashtable.expires",
         std::to_string(d.Size().expiring * sizeof(Entry*)));
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
  core.server.AssertMainThread("memory_report");
  switch (what) {
    case PLINTH_MEMORY_STATS:
      Stats(core, emit, arg);
      return PLINTH_OK;
    case PLINTH_MEMORY_MALLOC_STATS: {
      const std::string text = core.server.env().memory->AllocatorStats();
      emit(arg, text.data(), text.size());
      return PLINTH_OK;
    }
    case PLINTH_MEMORY_PURGE:
      core.server.env().memory->ReleaseFreeMemory();
      return PLINTH_OK;
    default:
      return PLINTH_ERR;
  }
}

Db* DbAt(plinth_plugin_t* self, int32_t db) {
  auto& dbs = self->core->keyspace.dbs;
  return db >= 0 && static_cast<size_t>(db) < dbs.size() ? &dbs[static_cast<size_t>(db)] : nullptr;
}

int32_t DbVisit(plinth_plugin_t* self, int32_t db, plinth_db_visit_fn fn, void* arg) {
  const Db* d = DbAt(self, db);
  if (!d || !fn) return PLINTH_ERR;
  const bool whole = d->ForEach([&](Entry* e) {
    const std::string_view key = EntryKey(e);
    return fn(arg, key.data(), key.size(), EntryValue(e), EntryExpireMs(e)) == 0;
  });
  return whole ? PLINTH_OK : PLINTH_ERR;
}

uint64_t DbKeys(plinth_plugin_t* self, int32_t db, uint64_t* expires) {
  const Db* d = DbAt(self, db);
  if (expires) *expires = d ? d->Size().expiring : 0;
  return d ? d->Size().keys : 0;
}

int32_t DbTotal(plinth_plugin_t* self) {
  return static_cast<int32_t>(self->core->keyspace.dbs.size());
}

int32_t ValueRdbSave(const plinth_value_t* v, plinth_rdb_io_t* io, uint32_t* rdb_type) {
  if (!v || !io || v->type == PLINTH_TYPE_STRING) return PLINTH_ERR;
  const TypeEntry* t = TypeOf(v);
  if (rdb_type) *rdb_type = t->spec.rdb_type;
  if (!t->spec.rdb_save) return PLINTH_ERR;
  return t->spec.rdb_save(ValuePayloadOf(v), io) == PLINTH_OK ? PLINTH_OK : PLINTH_ERR;
}

uint32_t ValueRdbType(const plinth_value_t* v) {
  return v && v->type != PLINTH_TYPE_STRING ? TypeOf(v)->spec.rdb_type : 0;
}

plinth_value_t* ValueRdbLoad(plinth_plugin_t* self, uint32_t rdb_type, plinth_rdb_io_t* io) {
  const TypeEntry* t = self->core->keyspace.types.FindRdb(rdb_type);
  if (!t || !io) return nullptr;
  void* payload = t->spec.rdb_load(rdb_type, io);
  if (!payload) return nullptr;
  plinth_value_t* v = ValueCreateTyped(t, payload);
  if (!v) t->spec.free_payload(payload);
  return v;
}

int32_t KeyLoad(plinth_plugin_t* self, int32_t db, const char* key, size_t klen, plinth_value_t* v,
                int64_t expire_ms) {
  Db* d = DbAt(self, db);
  if (!v) return PLINTH_ERR;
  const std::string_view k(key ? key : "", key ? klen : 0);
  const uint64_t h = KeyHash(k);
  if (!d || !key || d->Find(k, h)) {
    ValueRelease(v);
    return PLINTH_ERR;
  }
  return d->Set(k, h, nullptr, v, expire_ms < 0 ? -1 : expire_ms) ? PLINTH_OK : PLINTH_ERR;
}

uint32_t TypeRegister(plinth_plugin_t* self, const plinth_type_spec_t* spec) {
  if (!InInit(self, "type_register")) return 0;
  std::string why;
  uint32_t id = self->core->keyspace.types.Register(spec, self->name, &why);
  if (!id) Refused(self, why);
  return id;
}

const char* StringEncodingName(uint8_t enc) {
  switch (enc) {
    case PLINTH_ENC_INT:
      return "int";
    case PLINTH_ENC_EMBSTR:
      return "embstr";
    default:
      return "raw";
  }
}

void* KeyPayloadMut(plinth_call_t* c, const char* k, size_t n, uint32_t type) {
  if (type == PLINTH_TYPE_STRING) return nullptr;  // strings have key_string_resize
  Entry* e = LiveEntry(c, {k, n});
  if (!e) return nullptr;
  plinth_value_t* v = EntryValue(e);
  if (v->type != type || !(e->flags & kValIndirect)) return nullptr;
  if (v->refs.load(std::memory_order_acquire) != 1) {
    const TypeEntry* t = TypeOf(v);
    void* copy = t->spec.copy(ValuePayloadOf(v));
    if (!copy) return nullptr;
    plinth_value_t* fresh = ValueCreateTyped(t, copy);
    if (!fresh) {
      t->spec.free_payload(copy);
      return nullptr;
    }
    EntrySetTarget(e, fresh);
    ValueRelease(v);  // the other holders keep the old payload
    v = fresh;
  }
  c->core->keyspace.dirty++;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  return ValuePayloadOf(v);
}

const char* ValueEncodingName(const plinth_value_t* v) {
  if (!v) return "raw";
  if (v->type == PLINTH_TYPE_STRING) return StringEncodingName(ValueEnc(v));
  const TypeEntry* t = TypeOf(v);
  const char* name = t->spec.encoding ? t->spec.encoding(ValuePayloadOf(v)) : nullptr;
  return name ? name : "raw";
}

int32_t ValueVisit(const plinth_value_t* v, plinth_member_fn fn, void* arg) {
  if (!v || !fn || v->type == PLINTH_TYPE_STRING) return PLINTH_ERR;
  const TypeEntry* t = TypeOf(v);
  if (!t->spec.visit) return PLINTH_ERR;
  t->spec.visit(ValuePayloadOf(v), fn, arg);
  return PLINTH_OK;
}

int32_t KeyUnlink(plinth_call_t* c, const char* k, size_t n) {
  Entry* e = LiveEntry(c, {k, n});
  if (!e) return 0;
  plinth_value_t* v = EntryValue(e);
  if (e->flags & kValIndirect) ValueRetain(v);  // outlives the entry, freed below
  CallDb(c).Delete({k, n});
  if (v != e) ReleaseLazily(v);
  c->core->keyspace.dirty++;
  c->core->keyspace.KeyTouched(c->db, {k, n});
  return 1;
}

}  // namespace

void FillTypesApi(plinth_host_api_t* t) {
  t->type_register = TypeRegister;
  t->value_create_string = ValueCreateString;
  t->value_create_typed = ValueCreateTypedApi;
  t->value_retain = ValueRetainApi;
  t->value_release = ValueRelease;
  t->value_type = ValueType;
  t->value_string = ValueString;
  t->value_payload = ValuePayload;
  t->type_name = TypeNameApi;
  t->value_encoding = ValueEncoding;
  t->value_memory = ValueMemory;
  t->key_get = KeyGet;
  t->key_set = KeySet;
  t->key_delete = KeyDelete;
  t->key_expire_get = KeyExpireGet;
  t->key_expire_set = KeyExpireSet;
  t->key_move = KeyMove;
  t->key_scan = KeyScan;
  t->key_random = KeyRandom;
  t->db_size = DbSize;
  t->db_flush = DbFlush;
  t->db_swap = DbSwap;
  t->db_current = DbCurrent;
  t->db_count = DbCount;
  t->key_string_resize = KeyStringResize;
  t->key_string_set = KeyStringSet;
  t->key_touched = KeyTouchedApi;
  t->key_payload_mut = KeyPayloadMut;
  t->value_encoding_name = ValueEncodingName;
  t->key_unlink = KeyUnlink;
  t->value_visit = ValueVisit;
  t->db_visit = DbVisit;
  t->db_keys = DbKeys;
  t->db_total = DbTotal;
  t->value_rdb_save = ValueRdbSave;
  t->value_rdb_load = ValueRdbLoad;
  t->key_load = KeyLoad;
  t->db_flush_all = DbFlushAll;
  t->value_rdb_type = ValueRdbType;
  t->key_access = KeyAccess;
  t->memory_report = MemoryReport;
}

}  // namespace plinth::host
