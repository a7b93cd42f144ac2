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
  c->core->AssertMainThread("key_*");
  // The first key of a prefetched request was hashed already (the same bytes).
  *hash = key.data() == c->hashed_key && key.size() == c->hashed_len ? c->key_hash : Db::Hash(key);
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
  // child shares the pages (a write would copy them), nor by a CLIENT NO-TOUCH client (TOUCH
  // lifts its flag for its own lookups).
  if (e && touch && !(c->cmd && (c->cmd->spec.flags & PLINTH_CMD_NO_TOUCH)) &&
      !c->core->child_pid && !(c->session && c->session->no_touch))
    AccessTouch(e, c->core->evictor.access(), c->now_ms);
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

void DbFlushAll(plinth_plugin_t* self) {
  Core& core = *self->core;
  core.AssertMainThread("db_flush_all");
  core.DbsFlushing(-1);
  for (size_t i = 0; i < core.dbs.size(); ++i) {
    if (!core.watches.empty())
      core.watches.Replacing(static_cast<int32_t>(i), core.dbs[i], nullptr, core.NowMs());
    core.dbs[i].Clear(false);
  }
}

}  // namespace plinth::host
