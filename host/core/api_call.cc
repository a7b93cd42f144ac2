// Host API for command handlers: arguments, replies, values, keys and the calling client.
#include <cstring>
#include <string>

#include "host/core/access.h"
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/keys.h"

namespace plinth::host {

Entry* LiveEntry(plinth_call_t* c, std::string_view key, uint64_t* hash, bool touch) {
  c->core->AssertMainThread("key_*");
  *hash = Db::Hash(key);
  Entry* e = CallDb(c).Find(key, *hash);
  if (e && EntryExpired(e, c->now_ms)) {
    // Passive expiry (a replica): the primary's DEL removes the key. Its stream (an internal
    // client) still sees it; a client's read misses; a client's write (a writable replica)
    // deletes it first, as it would anywhere.
    if (c->core->expiry_passive && (!c->session || c->session->internal)) return e;
    if (c->core->expiry_passive && !(c->cmd && (c->cmd->spec.flags & PLINTH_CMD_WRITE)))
      return nullptr;
    // While writes are paused an expired key reads as missing and stays until the pause ends.
    if (c->core->WritesPaused() && !(c->session && c->session->internal)) return nullptr;
    c->core->ExpireKey(c->db, key);
    return nullptr;
  }
  // A key's use: not by commands that only inspect it (OBJECT, TYPE), nor while a snapshot
  // child shares the pages (a write would copy them).
  if (e && touch && !(c->cmd && (c->cmd->spec.flags & PLINTH_CMD_NO_TOUCH)) &&
      !c->core->child_pid &&
      !(c->session && c->session->no_touch && !(c->cmd && c->cmd->name == "touch")))
    AccessTouch(e, c->core->evictor.access(), c->now_ms);
  return e;
}

Entry* LiveEntry(plinth_call_t* c, std::string_view key) {
  uint64_t h;
  return LiveEntry(c, key, &h);
}

namespace {

int32_t CallArgc(plinth_call_t* call) { return call->argc; }
const char* CallArg(plinth_call_t* call, int32_t i, size_t* len) {
  if (i < 0 || i >= call->argc) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = call->argvlen[i];
  return call->argv[i];
}

// Sends one reply item that ReplyAccept has let through.
void Send(plinth_call_t* call, uint32_t type, int64_t integer, const char* data, size_t len,
          double dbl = 0, const char* ext = nullptr) {
  if (!call->sink) return;
  plinth_reply_item_t item;
  item.struct_size = sizeof item;
  item.type = type;
  item.integer = integer;
  item.dbl = dbl;
  item.data = data;
  item.len = len;
  item.ext = ext;
  call->sink->Item(item);
}

void Emit(plinth_call_t* call, uint32_t type, int64_t integer, const char* data, size_t len,
          double dbl = 0, const char* ext = nullptr, int64_t aggregate = 0) {
  call->core->AssertMainThread("reply_*");
  if (ReplyAccept(call, aggregate)) Send(call, type, integer, data, len, dbl, ext);
}

void ReplySimple(plinth_call_t* c, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_SIMPLE, 0, s, n);
}
void ReplyError(plinth_call_t* c, const char* s, size_t n) {
  c->core->AssertMainThread("reply_*");
  const bool top = c->replies == 0;  // the command's reply is this error: a failed call
  if (!ReplyAccept(c, 0)) return;    // a dropped error is not counted either
  c->error_reply = c->error_reply || top;
  c->core->CountErrorReply({s, n});
  Send(c, PLINTH_REPLY_ERROR, 0, s, n);
}
void ReplyInteger(plinth_call_t* c, int64_t v) { Emit(c, PLINTH_REPLY_INTEGER, v, nullptr, 0); }
void ReplyBulk(plinth_call_t* c, const char* s, size_t n) { Emit(c, PLINTH_REPLY_BULK, 0, s, n); }
void ReplyNull(plinth_call_t* c) { Emit(c, PLINTH_REPLY_NULL, 0, nullptr, 0); }
void ReplyNullArray(plinth_call_t* c) { Emit(c, PLINTH_REPLY_NULL_ARRAY, 0, nullptr, 0); }
void ReplyArray(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_ARRAY, n, nullptr, 0, 0, nullptr, n);
}
void ReplyMap(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_MAP, n, nullptr, 0, 0, nullptr, n > 0 ? 2 * n : 0);
}
void ReplySet(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_SET, n, nullptr, 0, 0, nullptr, n);
}
void ReplyPush(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_PUSH, n, nullptr, 0, 0, nullptr, n);
}
void ReplyDouble(plinth_call_t* c, double v) { Emit(c, PLINTH_REPLY_DOUBLE, 0, nullptr, 0, v); }
void ReplyBool(plinth_call_t* c, int32_t v) { Emit(c, PLINTH_REPLY_BOOL, v ? 1 : 0, nullptr, 0); }
void ReplyVerbatim(plinth_call_t* c, const char* fmt, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_VERBATIM, 0, s, n, 0, fmt ? fmt : "txt");
}
void ReplyBignum(plinth_call_t* c, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_BIGNUM, 0, s, n);
}

void ReplyValue(plinth_call_t* c, const plinth_value_t* v) {
  if (!v || v->type != PLINTH_TYPE_STRING) {
    ReplyNull(c);
    return;
  }
  if (c->sink && c->sink->value) {  // the sink asks the reply path and may copy later
    c->core->AssertMainThread("reply_value");
    if (ReplyAccept(c, 0)) c->sink->value(c->sink, v);
    return;
  }
  const char* data = StringData(v);
  const ReplyPath* rp = c->core->registry.reply_path.get();
  if (c->sink && rp) {
    plinth_reply_value_info_t info{sizeof info, 0, StringLen(v), "", 0};
    if (rp->spec.by_reference(rp->spec.ctx, &info)) {
      if (!ReplyAccept(c, 0)) return;
      ValueRetain(v);
      c->sink->Ref(data, StringLen(v), ValueReleaseArg, const_cast<plinth_value_t*>(v));
      return;
    }
  }
  ReplyBulk(c, data, StringLen(v));
}

void ReplyBulkRef(plinth_call_t* c, const char* s, size_t n, plinth_release_fn rel, void* arg) {
  if (!ReplyAccept(c, 0) || !c->sink) {
    if (rel) rel(arg);
    return;
  }
  c->sink->Ref(s, n, rel, arg);
}

// -- values --
plinth_value_t* ValueCreateTypedApi(plinth_plugin_t* self, uint32_t type, void* payload) {
  const TypeEntry* t = self ? self->core->types.Find(type) : nullptr;
  return t ? ValueCreateTyped(t, payload) : nullptr;
}
const char* TypeNameApi(plinth_plugin_t* self, uint32_t type) {
  return self ? self->core->types.Name(type) : "none";
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

// -- keys --
const plinth_value_t* KeyGet(plinth_call_t* c, const char* k, size_t n) {
  Entry* e = LiveEntry(c, {k, n});
  if (e)
    c->core->stats.keyspace_hits++;
  else
    c->core->stats.keyspace_misses++;
  return e ? EntryValue(e) : nullptr;
}

int32_t KeySet(plinth_call_t* c, const char* k, size_t n, plinth_value_t* v, uint32_t flags) {
  if (!v) return PLINTH_ERR;
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);  // an expired key is removed (and counted) first
  c->core->dirty++;
  const int64_t expire = e && (flags & PLINTH_SET_KEEPTTL) ? EntryExpireMs(e) : -1;
  if (!CallDb(c).Set({k, n}, h, e, v, expire)) return PLINTH_ERR;
  c->core->KeyTouched(c->db, {k, n});
  if (!e) c->core->KeyCreated(c->db, {k, n});
  return PLINTH_OK;
}

int32_t KeyDelete(plinth_call_t* c, const char* k, size_t n) {
  if (!LiveEntry(c, {k, n})) return 0;
  CallDb(c).Delete({k, n});
  c->core->dirty++;
  c->core->KeyTouched(c->db, {k, n});
  return 1;
}

int64_t KeyExpireGet(plinth_call_t* c, const char* k, size_t n) {
  Entry* e = LiveEntry(c, {k, n});
  return e ? EntryExpireMs(e) : -2;
}

int32_t KeyExpireSet(plinth_call_t* c, const char* k, size_t n, int64_t when) {
  Entry* e = LiveEntry(c, {k, n});
  if (!e) return 0;
  c->core->dirty++;
  if (when >= 0 && when <= c->now_ms) {
    CallDb(c).Delete({k, n});  // Redis deletes it without counting an expiry
    c->core->KeyTouched(c->db, {k, n});
    return 1;
  }
  if (!CallDb(c).SetExpire(e, when)) return PLINTH_ERR;
  c->core->KeyTouched(c->db, {k, n});
  return 1;
}

int32_t KeyMove(plinth_call_t* c, const char* src, size_t sl, const char* dst, size_t dl,
                int32_t dst_db, uint32_t flags) {
  Core& s = *c->core;
  if (dst_db < 0) dst_db = c->db;
  if (dst_db >= static_cast<int32_t>(s.dbs.size())) return -3;
  Entry* e = LiveEntry(c, {src, sl});
  if (!e) return -1;
  std::string_view sk(src, sl), dk(dst, dl);
  if (dst_db == c->db && sk == dk) return (flags & PLINTH_MOVE_COPY) ? 0 : 1;
  plinth_call_t dst_call;
  dst_call.core = c->core;
  dst_call.db = dst_db;
  dst_call.now_ms = c->now_ms;
  uint64_t dh;
  Entry* d = LiveEntry(&dst_call, dk, &dh);
  bool nx =
      (flags & PLINTH_MOVE_NX) || ((flags & PLINTH_MOVE_COPY) && !(flags & PLINTH_MOVE_REPLACE));
  if (d && nx) return 0;
  plinth_value_t* v = EntryValue(e);
  int64_t exp = EntryExpireMs(e);
  if (flags & PLINTH_MOVE_COPY) {
    if (v->type == PLINTH_TYPE_STRING) {
      plinth_value_t* copy = ValueCreateString(StringData(v), StringLen(v));
      if (!copy) return PLINTH_ERR;
      SetValueEnc(copy, ValueEnc(v));  // Redis's COPY duplicates the object, encoding and all
      v = copy;
    } else {
      ValueRetain(v);  // shared: key_payload_mut copies it before either key changes it
    }
  } else {
    ValueRetain(v);
    s.dbs[c->db].Delete(sk);
  }
  s.dbs[dst_db].Set(dk, dh, d, v, exp);  // d outlives the delete: a different key
  s.dirty++;
  if (!(flags & PLINTH_MOVE_COPY)) s.KeyTouched(c->db, sk);
  s.KeyTouched(dst_db, dk);
  if (!d) s.KeyCreated(dst_db, dk);
  return 1;
}

uint64_t KeyScan(plinth_call_t* c, uint64_t cursor, uint64_t count, plinth_key_visit_fn visit,
                 void* arg) {
  return CallDb(c).Scan(cursor, count, [&](Entry* e) {
    if (EntryExpired(e, c->now_ms)) return;
    const std::string_view key = EntryKey(e);
    visit(arg, key.data(), key.size(), EntryValue(e));
  });
}

int32_t KeyRandom(plinth_call_t* c, plinth_key_visit_fn visit, void* arg) {
  Db& db = CallDb(c);
  for (int tries = 0; tries < 100 && db.Size() > 0; ++tries) {
    Entry* e = db.Random();
    const std::string_view key = EntryKey(e);
    if (EntryExpired(e, c->now_ms)) {
      if (db.Size() == db.ExpiringCount() && tries > 50) {
        visit(arg, key.data(), key.size(), EntryValue(e));  // all volatile: like Redis, give one
        return 1;
      }
      c->core->ExpireKey(c->db, std::string(key));
      continue;
    }
    visit(arg, key.data(), key.size(), EntryValue(e));
    return 1;
  }
  return 0;
}

char* KeyStringResize(plinth_call_t* c, const char* k, size_t n, size_t newlen) {
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);
  if (!e) {
    e = CallDb(c).SetString({k, n}, h, nullptr, "", 0, false);
    if (!e) return nullptr;
    c->core->KeyCreated(c->db, {k, n});
  } else if (EntryValue(e)->type != PLINTH_TYPE_STRING) {
    return nullptr;
  }
  char* d = CallDb(c).StringResize(e, newlen);
  if (d) {
    c->core->dirty++;
    c->core->KeyTouched(c->db, {k, n});
  }
  return d;
}

int32_t KeyStringSet(plinth_call_t* c, const char* k, size_t n, const char* s, size_t len,
                     uint32_t flags) {
  uint64_t h;
  Entry* e = LiveEntry(c, {k, n}, &h);  // an expired key is removed (and counted) first
  const bool created = !e;
  e = CallDb(c).SetString({k, n}, h, e, s, len, flags & PLINTH_SET_KEEPTTL);
  if (!e) return PLINTH_ERR;
  if (created) c->core->KeyCreated(c->db, {k, n});
  plinth_value* v = EntryValue(e);
  if ((flags & PLINTH_SET_NO_INT_ENCODING) && ValueEnc(v) == PLINTH_ENC_INT)
    SetValueEnc(v, StringLen(v) <= 44 ? PLINTH_ENC_EMBSTR : PLINTH_ENC_RAW);
  c->core->dirty++;
  c->core->KeyTouched(c->db, {k, n});
  return PLINTH_OK;
}

void KeyTouchedApi(plinth_call_t* c, const char* k, size_t n) {
  if (k) c->core->KeyTouched(c->db, {k, n});
}

uint64_t DbSize(plinth_call_t* c) { return CallDb(c).Size(); }

void DbFlush(plinth_call_t* c, int32_t db, int32_t async) {
  Core& s = *c->core;
  s.DbsFlushing(db < 0 ? -1 : db);
  for (size_t i = 0; i < s.dbs.size(); ++i) {
    if (db >= 0 && static_cast<size_t>(db) != i) continue;
    if (!s.watches.empty())
      s.watches.Replacing(static_cast<int32_t>(i), s.dbs[i], nullptr, c->now_ms);
    s.dbs[i].Clear(async != 0);
  }
  s.dirty++;
}

int32_t DbSwap(plinth_call_t* c, int32_t a, int32_t b) {
  Core& s = *c->core;
  int32_t n = static_cast<int32_t>(s.dbs.size());
  if (a < 0 || b < 0 || a >= n || b >= n) return PLINTH_ERR;
  if (a != b && !s.watches.empty()) {
    s.watches.Replacing(a, s.dbs[a], &s.dbs[b], c->now_ms);
    s.watches.Replacing(b, s.dbs[b], &s.dbs[a], c->now_ms);
  }
  if (a != b) std::swap(s.dbs[a], s.dbs[b]);
  s.dirty++;
  return PLINTH_OK;
}

int32_t DbCurrent(plinth_call_t* c) { return c->db; }
int32_t DbCount(plinth_call_t* c) { return static_cast<int32_t>(c->core->dbs.size()); }
int64_t CallTimeMs(plinth_call_t* c) { return c->now_ms; }

}  // namespace

void FillCallApi(plinth_host_api_t* t) {
  t->call_argc = CallArgc;
  t->call_arg = CallArg;
  t->reply_simple = ReplySimple;
  t->reply_error = ReplyError;
  t->reply_integer = ReplyInteger;
  t->reply_bulk = ReplyBulk;
  t->reply_null = ReplyNull;
  t->reply_null_array = ReplyNullArray;
  t->reply_array = ReplyArray;
  t->reply_map = ReplyMap;
  t->reply_set = ReplySet;
  t->reply_push = ReplyPush;
  t->reply_double = ReplyDouble;
  t->reply_bool = ReplyBool;
  t->reply_verbatim = ReplyVerbatim;
  t->reply_bignum = ReplyBignum;
  t->reply_value = ReplyValue;
  t->reply_bulk_ref = ReplyBulkRef;
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
  t->call_time_ms = CallTimeMs;
  t->key_string_resize = KeyStringResize;
  t->key_string_set = KeyStringSet;
  t->key_touched = KeyTouchedApi;
}

}  // namespace plinth::host
