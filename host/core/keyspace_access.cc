// The keyspace as the host API's key and database functions reach it (api/types.cc): the live
// entry of a key (expiring it first when its time has come) and the operations on keys and
// databases that are more than one lookup. Main thread.
#include <string>

#include "host/core/access.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/keys.h"

namespace plinth::host {

Entry* LiveEntry(plinth_call_t* c, std::string_view key, uint64_t* hash, bool touch) {
  c->core->server.AssertMainThread("key_*");
  // The first key of a prefetched request was hashed already (the same bytes).
  *hash = key.data() == c->hashed_key && key.size() == c->hashed_len ? c->key_hash : KeyHash(key);
  Entry* e = CallDb(c).Find(key, *hash);
  if (e && EntryExpired(e, c->now_ms)) {
    // Passive expiry (a replica): the primary's DEL removes the key. Its stream (an internal
    // client) still sees it; a client's read misses; a client's write (a writable replica)
    // deletes it first, as it would anywhere.
    if (c->core->keyspace.expiry.passive && (!c->session || c->session->internal)) return e;
    if (c->core->keyspace.expiry.passive && !(c->cmd && (c->cmd->spec.flags & PLINTH_CMD_WRITE)))
      return nullptr;
    // While writes are paused an expired key reads as missing and stays until the pause ends.
    if (c->core->sessions.WritesPaused() && !(c->session && c->session->internal)) return nullptr;
    c->core->keyspace.expiry.ExpireKey(c->db, key);
    return nullptr;
  }
  // A key's use: not by commands that only inspect it (OBJECT, TYPE), nor while a snapshot
  // child shares the pages (a write would copy them), nor by a CLIENT NO-TOUCH client (TOUCH
  // lifts its flag for its own lookups).
  if (e && touch && !(c->cmd && (c->cmd->spec.flags & PLINTH_CMD_NO_TOUCH)) &&
      !c->core->server.state.child_pid && !(c->session && c->session->no_touch))
    AccessTouch(e, c->core->keyspace.evictor.access(), c->now_ms);
  return e;
}

Entry* LiveEntry(plinth_call_t* c, std::string_view key) {
  uint64_t h;
  return LiveEntry(c, key, &h);
}

int32_t KeyMove(plinth_call_t* c, const char* src, size_t sl, const char* dst, size_t dl,
                int32_t dst_db, uint32_t flags) {
  Core& s = *c->core;
  if (dst_db < 0) dst_db = c->db;
  if (dst_db >= static_cast<int32_t>(s.keyspace.dbs.size())) return -3;
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
    s.keyspace.dbs[c->db].Delete(sk);
  }
  s.keyspace.dbs[dst_db].Set(dk, dh, d, v, exp);  // d outlives the delete: a different key
  s.keyspace.dirty++;
  if (!(flags & PLINTH_MOVE_COPY)) s.keyspace.KeyTouched(c->db, sk);
  s.keyspace.KeyTouched(dst_db, dk);
  if (!d) s.keyspace.KeyCreated(dst_db, dk);
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
  for (int tries = 0; tries < 100 && db.Size().keys > 0; ++tries) {
    Entry* e = db.Sample(false);
    const std::string_view key = EntryKey(e);
    if (EntryExpired(e, c->now_ms)) {
      if (db.Size().keys == db.Size().expiring && tries > 50) {
        visit(arg, key.data(), key.size(), EntryValue(e));  // all volatile: like Redis, give one
        return 1;
      }
      c->core->keyspace.expiry.ExpireKey(c->db, std::string(key));
      continue;
    }
    visit(arg, key.data(), key.size(), EntryValue(e));
    return 1;
  }
  return 0;
}

void DbFlush(plinth_call_t* c, int32_t db, int32_t async) {
  Core& s = *c->core;
  s.keyspace.Flushing(db < 0 ? -1 : db);
  for (size_t i = 0; i < s.keyspace.dbs.size(); ++i) {
    if (db >= 0 && static_cast<size_t>(db) != i) continue;
    if (!s.keyspace.watches.empty())
      s.keyspace.watches.Replacing(static_cast<int32_t>(i), s.keyspace.dbs[i], nullptr, c->now_ms);
    s.keyspace.dbs[i].Clear(async != 0);
  }
  s.keyspace.dirty++;
}

int32_t DbSwap(plinth_call_t* c, int32_t a, int32_t b) {
  Core& s = *c->core;
  int32_t n = static_cast<int32_t>(s.keyspace.dbs.size());
  if (a < 0 || b < 0 || a >= n || b >= n) return PLINTH_ERR;
  if (a != b && !s.keyspace.watches.empty()) {
    s.keyspace.watches.Replacing(a, s.keyspace.dbs[a], &s.keyspace.dbs[b], c->now_ms);
    s.keyspace.watches.Replacing(b, s.keyspace.dbs[b], &s.keyspace.dbs[a], c->now_ms);
  }
  if (a != b) std::swap(s.keyspace.dbs[a], s.keyspace.dbs[b]);
  s.keyspace.dirty++;
  return PLINTH_OK;
}

void DbFlushAll(plinth_plugin_t* self) {
  Core& core = *self->core;
  core.server.AssertMainThread("db_flush_all");
  core.keyspace.Flushing(-1);
  for (size_t i = 0; i < core.keyspace.dbs.size(); ++i) {
    if (!core.keyspace.watches.empty())
      core.keyspace.watches.Replacing(static_cast<int32_t>(i), core.keyspace.dbs[i], nullptr,
                                      core.server.NowMs());
    core.keyspace.dbs[i].Clear(false);
  }
}

}  // namespace plinth::host
