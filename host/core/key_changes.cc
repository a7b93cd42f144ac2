// Key change listeners: plugins that hear every change of the keyspace the way WATCH does
// (Core::KeyTouched) and every flush, with the client whose command made it (client-side
// caching's invalidations). Off until a plugin turns its listener on, so with none on a change
// pays one comparison. Also client_info_int, the facts of another client such a plugin needs
// to address it. Main thread.
#include <functional>

#include "host/core/api.h"
#include "host/core/core.h"

namespace plinth::host {

Session* Env::FindSession(uint64_t id) {
  Session* found = nullptr;
  ForEachSession([&](Session& s) {
    if (s.id == id) found = &s;
  });
  return found;
}

void Core::KeyChanged(int32_t db, const char* key, size_t klen) {
  // A listener registered by a plugin loading now may be added meanwhile: index, not iterate.
  for (size_t i = 0; i < registry.key_change_listeners.size(); ++i) {
    const KeyChangeListener& l = registry.key_change_listeners[i];
    if (l.on) l.fn(l.ctx, db, key, key ? klen : 0, running_client);
  }
}

namespace {

int64_t KeyChangeListenerRegister(plinth_plugin_t* self, plinth_key_change_fn fn, void* ctx) {
  if (!InInit(self, "key_change_listener_register") || !fn) return PLINTH_ERR;
  Core& core = *self->core;
  const int64_t id = core.next_key_listener_id++;
  core.registry.key_change_listeners.push_back({fn, ctx, false, id, self->name});
  return id;
}

int32_t KeyChangeListenerSet(plinth_plugin_t* self, int64_t id, int32_t on) {
  if (!self) return PLINTH_ERR;
  Core& core = *self->core;
  core.AssertMainThread("key_change_listener_set");
  for (KeyChangeListener& l : core.registry.key_change_listeners) {
    if (l.id != id || l.owner != self->name) continue;
    if (l.on != (on != 0)) core.key_listeners_on += on != 0 ? 1 : -1;
    l.on = on != 0;
    return PLINTH_OK;
  }
  return PLINTH_ERR;
}

int64_t ClientInfoInt(plinth_plugin_t* self, uint64_t id, uint32_t what) {
  if (!self) return -1;
  self->core->AssertMainThread("client_info_int");
  const Session* s = self->core->env().FindSession(id);
  if (!s) return -1;
  switch (what) {
    case PLINTH_CLIENT_INFO_PROTOCOL:
      return s->proto;
    case PLINTH_CLIENT_INFO_SUBSCRIPTIONS:
      return s->sub_channels + s->sub_patterns;
    default:
      return -1;
  }
}

}  // namespace

void FillKeyChangeApi(plinth_host_api_t* t) {
  t->key_change_listener_register = KeyChangeListenerRegister;
  t->key_change_listener_set = KeyChangeListenerSet;
  t->client_info_int = ClientInfoInt;
}

}  // namespace plinth::host
