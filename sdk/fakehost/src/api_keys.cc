// Host table, part 4: refcounted values and the keys of the call's database. Every effective
// change bumps the dirty counter, which decides verbatim propagation. Main thread, except the
// value calls the ABI marks "any".
#include <string>

#include "internal.h"
#include "options.h"

namespace plinth::fakehost {
namespace {

FakeHost::Impl* Current() { return g_current.load(); }

plinth_value_t* ValueCreateString(const char* s, size_t len) {
  return HandleOf(NewStringValue(std::string_view(s ? s : "", s ? len : 0)));
}

plinth_value_t* ValueCreateTyped(uint32_t type, void* payload) {
  FakeHost::Impl* h = Current();
  const TypeRec* t = h ? h->FindType(type) : nullptr;
  if (!t) {
    if (h) h->Log(nullptr, PLINTH_LOG_WARNING, "value_create_typed: unknown type id");
    return nullptr;
  }
  return HandleOf(NewTypedValue(type, payload, t->spec.free_payload, t->spec.memory_usage));
}

void ValueRetain(const plinth_value_t* v) { RetainValue(ValueOf(v)); }
void ValueRelease(const plinth_value_t* v) { ReleaseValue(ValueOf(v)); }
uint32_t ValueType(const plinth_value_t* v) { return v ? ValueOf(v)->type : PLINTH_TYPE_NONE; }

const char* ValueString(const plinth_value_t* v, size_t* len) {
  const ValueRec* r = ValueOf(v);
  if (!r || r->type != PLINTH_TYPE_STRING) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = r->str.size();
  return r->str.data();
}

void* ValuePayload(const plinth_value_t* v) {
  const ValueRec* r = ValueOf(v);
  return r && r->type != PLINTH_TYPE_STRING ? r->payload : nullptr;
}

const char* TypeName(uint32_t type) {
  if (type == PLINTH_TYPE_NONE) return "none";
  if (type == PLINTH_TYPE_STRING) return "string";
  FakeHost::Impl* h = Current();
  const TypeRec* t = h ? h->FindType(type) : nullptr;
  return t ? t->name.c_str() : "unknown";
}

// Redis's rule: an integer that fits 64 bits (at most 20 chars) is INT, up to 44 bytes EMBSTR.
int32_t ValueEncoding(const plinth_value_t* v) {
  const ValueRec* r = ValueOf(v);
  if (!r || r->type != PLINTH_TYPE_STRING || r->resized) return PLINTH_ENC_RAW;
  int64_t ignored;
  if (r->str.size() <= 20 && ParseInt64(r->str, &ignored)) return PLINTH_ENC_INT;
  return r->str.size() <= 44 ? PLINTH_ENC_EMBSTR : PLINTH_ENC_RAW;
}

size_t ValueMemory(const plinth_value_t* v) {
  const ValueRec* r = ValueOf(v);
  if (!r) return 0;
  if (r->type == PLINTH_TYPE_STRING) return sizeof(ValueRec) + r->str.capacity();
  return sizeof(ValueRec) + (r->memory_usage ? r->memory_usage(r->payload) : 0);
}

std::string_view Key(const char* key, size_t klen) {
  return std::string_view(key ? key : "", key ? klen : 0);
}

const plinth_value_t* KeyGet(plinth_call_t* call, const char* key, size_t klen) {
  CallRec* c = CallOf(call);
  if (!c) return nullptr;
  Entry* e = c->host->Lookup(c, c->db, Key(key, klen));
  return e ? HandleOf(e->value) : nullptr;
}

int32_t KeySet(plinth_call_t* call, const char* key, size_t klen, plinth_value_t* v,
               uint32_t flags) {
  CallRec* c = CallOf(call);
  if (!c || !v) {
    ReleaseValue(ValueOf(v));
    return PLINTH_ERR;
  }
  c->host->Lookup(c, c->db, Key(key, klen));  // an expired key loses its TTL too
  c->host->keyspace.Set(c->db, Key(key, klen), ValueOf(v), (flags & PLINTH_SET_KEEPTTL) != 0);
  ++c->host->dirty;
  return PLINTH_OK;
}

int32_t KeyDelete(plinth_call_t* call, const char* key, size_t klen) {
  CallRec* c = CallOf(call);
  if (!c || !c->host->Lookup(c, c->db, Key(key, klen))) return 0;
  c->host->keyspace.Delete(c->db, Key(key, klen));
  ++c->host->dirty;
  return 1;
}

int64_t KeyExpireGet(plinth_call_t* call, const char* key, size_t klen) {
  CallRec* c = CallOf(call);
  Entry* e = c ? c->host->Lookup(c, c->db, Key(key, klen)) : nullptr;
  return e ? e->expire_at_ms : -2;
}

int32_t KeyExpireSet(plinth_call_t* call, const char* key, size_t klen, int64_t when_ms) {
  CallRec* c = CallOf(call);
  Entry* e = c ? c->host->Lookup(c, c->db, Key(key, klen)) : nullptr;
  if (!e) return 0;
  ++c->host->dirty;
  if (when_ms == -1) {
    e->expire_at_ms = -1;
  } else if (when_ms <= c->time_ms) {
    c->host->keyspace.Delete(c->db, Key(key, klen));
  } else {
    e->expire_at_ms = when_ms;
  }
  return 1;
}

int32_t KeyMove(plinth_call_t* call, const char* src, size_t slen, const char* dst, size_t dlen,
                int32_t dst_db, uint32_t flags) {
  CallRec* c = CallOf(call);
  if (!c) return -1;
  if (dst_db == -1) dst_db = c->db;
  if (!c->host->keyspace.ValidDb(dst_db)) return -3;
  if (!c->host->Lookup(c, c->db, Key(src, slen))) return -1;
  c->host->Lookup(c, dst_db, Key(dst, dlen));
  const bool same = dst_db == c->db && Key(src, slen) == Key(dst, dlen);
  int32_t r = c->host->keyspace.Move(c->db, Key(src, slen), dst_db, Key(dst, dlen), flags);
  if (r == 1 && !same) ++c->host->dirty;
  return r;
}

uint64_t KeyScan(plinth_call_t* call, uint64_t cursor, uint64_t count, plinth_key_visit_fn visit,
                 void* arg) {
  CallRec* c = CallOf(call);
  if (!c || !visit) return 0;
  return c->host->keyspace.Scan(c->db, cursor, count, c->time_ms,
                                [&](const std::string& k, const Entry& e) {
                                  visit(arg, k.data(), k.size(), HandleOf(e.value));
                                });
}

int32_t KeyRandom(plinth_call_t* call, plinth_key_visit_fn visit, void* arg) {
  CallRec* c = CallOf(call);
  if (!c || !visit) return 0;
  const std::string* k = c->host->keyspace.Random(c->db, c->time_ms);
  if (!k) return 0;
  visit(arg, k->data(), k->size(), HandleOf(c->host->keyspace.Find(c->db, *k)->value));
  return 1;
}

uint64_t DbSize(plinth_call_t* call) {
  CallRec* c = CallOf(call);
  return c ? c->host->keyspace.Size(c->db) : 0;
}

void DbFlush(plinth_call_t* call, int32_t db, int32_t) {
  CallRec* c = CallOf(call);
  if (!c || (db != -1 && !c->host->keyspace.ValidDb(db))) return;
  c->host->dirty += c->host->keyspace.Flush(db) + 1;
}

int32_t DbSwap(plinth_call_t* call, int32_t a, int32_t b) {
  CallRec* c = CallOf(call);
  if (!c || !c->host->keyspace.ValidDb(a) || !c->host->keyspace.ValidDb(b)) return PLINTH_ERR;
  c->host->keyspace.Swap(a, b);
  ++c->host->dirty;
  return PLINTH_OK;
}

int32_t DbCurrent(plinth_call_t* call) { return call ? CallOf(call)->db : 0; }
int32_t DbCount(void) { return Keyspace::kDbCount; }

}  // namespace

char* KeyStringResize(plinth_call_t* call, const char* key, size_t klen, size_t newlen) {
  CallRec* c = CallOf(call);
  if (!c) return nullptr;
  Entry* e = c->host->Lookup(c, c->db, Key(key, klen));
  if (!e) {
    c->host->keyspace.Set(c->db, Key(key, klen), NewStringValue(""), false);
    e = c->host->Lookup(c, c->db, Key(key, klen));
  }
  if (!e || e->value->type != PLINTH_TYPE_STRING) return nullptr;
  if (e->value->refs.load() != 1) {  // shared: the other holders keep the old bytes
    ValueRec* copy = NewStringValue(e->value->str);
    c->host->keyspace.Set(c->db, Key(key, klen), copy, true);
    e = c->host->Lookup(c, c->db, Key(key, klen));
  }
  e->value->str.resize(newlen, '\0');
  e->value->resized = true;
  ++c->host->dirty;
  return e->value->str.data();
}

void FillKeyApi(plinth_host_api_t* t) {
  t->key_string_resize = KeyStringResize;
  t->value_create_string = ValueCreateString;
  t->value_create_typed = ValueCreateTyped;
  t->value_retain = ValueRetain;
  t->value_release = ValueRelease;
  t->value_type = ValueType;
  t->value_string = ValueString;
  t->value_payload = ValuePayload;
  t->type_name = TypeName;
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
}

}  // namespace plinth::fakehost
