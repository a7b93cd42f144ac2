// Host API for value types: the writable payload accessor (copy-on-write of a shared value),
// encoding names, UNLINK's lazy free, and keyspace events.
#include <cstring>

#include "host/core/api.h"
#include "host/core/keys.h"
#include "host/core/lazy_free.h"

namespace plinth::host {
namespace {

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
  c->core->dirty++;
  c->core->KeyTouched(c->db, {k, n});
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
  c->core->dirty++;
  c->core->KeyTouched(c->db, {k, n});
  return 1;
}

void KeyspaceEvent(plinth_call_t* c, uint32_t type, const char* event, const char* k, size_t n) {
  if (event && k) c->core->Notify(c->db, type, event, {k, n});
}

}  // namespace

void Core::Notify(int32_t db, uint32_t type, const char* event, std::string_view key) {
  for (const KeyspaceListener& l : registry.keyspace_listeners)
    l.fn(l.ctx, db, type, event, key.data(), key.size());
}

void FillTypeApi(plinth_host_api_t* t) {
  t->key_payload_mut = KeyPayloadMut;
  t->value_encoding_name = ValueEncodingName;
  t->key_unlink = KeyUnlink;
  t->value_visit = ValueVisit;
  t->keyspace_event = KeyspaceEvent;
}

}  // namespace plinth::host
