// Host API for persistence and replication plugins: the propagation stream's offset and
// consumers, the keyspace outside a command (a snapshot's visit, loading keys, typed values
// through their RDB forms), trusted internal clients, the loading state, the shutdown's flags,
// and the one snapshot child. Each call reaches its core through the plugin handle (self).
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "host/core/api.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

// -- the stream --

uint64_t StreamOffset(plinth_plugin_t* self) { return self->core->stream.Offset(); }
void StreamReselect(plinth_plugin_t* self) { self->core->stream.Reselect(); }

void StreamConsumerActive(plinth_plugin_t* self, int32_t on) {
  Core& core = *self->core;
  core.AssertMainThread("stream_consumer_active");
  for (StreamConsumer& sc : core.registry.consumers)
    if (sc.owner == self->name) sc.active = on != 0;
  core.CountActiveConsumers();
}

// -- the keyspace outside a command --

Db* DbAt(plinth_plugin_t* self, int32_t db) {
  auto& dbs = self->core->dbs;
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
  if (expires) *expires = d ? d->ExpiringCount() : 0;
  return d ? d->Size() : 0;
}

int32_t DbTotal(plinth_plugin_t* self) { return static_cast<int32_t>(self->core->dbs.size()); }

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
  const TypeEntry* t = self->core->types.FindRdb(rdb_type);
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
  const uint64_t h = Db::Hash(k);
  if (!d || !key || d->Find(k, h)) {
    ValueRelease(v);
    return PLINTH_ERR;
  }
  return d->Set(k, h, nullptr, v, expire_ms < 0 ? -1 : expire_ms) ? PLINTH_OK : PLINTH_ERR;
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

// -- the loading state, shutdown, dirty --

void ServerSetLoading(plinth_plugin_t* self, int32_t on) {
  int32_t& n = self->core->loaders;
  n = on ? n + 1 : (n > 0 ? n - 1 : 0);
}
int32_t ServerLoading(plinth_plugin_t* self) { return self->core->loaders > 0; }
uint32_t ServerShutdownFlags(plinth_plugin_t* self) { return self->core->shutdown_flags; }
uint64_t ServerDirty(plinth_plugin_t* self) { return self->core->dirty; }

// -- the snapshot child --

int32_t ForkChild(plinth_plugin_t* self) {
  Core& core = *self->core;
  core.AssertMainThread("fork_child");
  if (core.child_pid > 0) {
    errno = EBUSY;
    return -1;
  }
  const pid_t pid = fork();
  if (pid > 0) core.child_pid = pid;
  return pid;
}

void ForkDone(plinth_plugin_t* self, int32_t pid) {
  if (pid > 0 && self->core->child_pid == pid) self->core->child_pid = 0;
}

int32_t ForkActive(plinth_plugin_t* self) { return self->core->child_pid; }

}  // namespace

void FillPersistApi(plinth_host_api_t* t) {
  t->stream_offset = StreamOffset;
  t->stream_reselect = StreamReselect;
  t->stream_consumer_active = StreamConsumerActive;
  t->db_visit = DbVisit;
  t->db_keys = DbKeys;
  t->db_total = DbTotal;
  t->value_rdb_save = ValueRdbSave;
  t->value_rdb_load = ValueRdbLoad;
  t->value_rdb_type = ValueRdbType;
  t->key_load = KeyLoad;
  t->db_flush_all = DbFlushAll;
  t->server_set_loading = ServerSetLoading;
  t->server_loading = ServerLoading;
  t->server_shutdown_flags = ServerShutdownFlags;
  t->server_dirty = ServerDirty;
  t->fork_child = ForkChild;
  t->fork_done = ForkDone;
  t->fork_active = ForkActive;
}

}  // namespace plinth::host
