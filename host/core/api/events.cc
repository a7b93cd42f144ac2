// Host API of abi/events.h: keyspace events and their listeners, client listeners, key change
// listeners, command observers and before-sleep hooks. Main thread.
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t BeforeSleepRegister(plinth_plugin_t* self, plinth_task_fn fn, void* ctx) {
  if (!InInit(self, "before_sleep_register") || !fn) return PLINTH_ERR;
  self->core->listeners.before_sleep.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}

int32_t KeyspaceListenerRegister(plinth_plugin_t* self, plinth_keyspace_listener_fn fn, void* ctx) {
  if (!InInit(self, "keyspace_listener_register") || !fn) return PLINTH_ERR;
  self->core->events.keyspace_listeners.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}

int32_t ClientListenerRegister(plinth_plugin_t* self, plinth_client_event_fn fn, void* ctx) {
  if (!InInit(self, "client_listener_register") || !fn) return PLINTH_ERR;
  self->core->events.client_listeners.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}

void KeyspaceEvent(plinth_call_t* c, uint32_t type, const char* event, const char* k, size_t n) {
  if (event && k) c->core->events.Notify(c->db, type, event, {k, n});
}

int64_t KeyChangeListenerRegister(plinth_plugin_t* self, plinth_key_change_fn fn, void* ctx) {
  if (!InInit(self, "key_change_listener_register") || !fn) return PLINTH_ERR;
  Core& core = *self->core;
  const int64_t id = core.events.next_id++;
  core.events.key_change_listeners.push_back({fn, ctx, false, id, self->name});
  return id;
}

int32_t KeyChangeListenerSet(plinth_plugin_t* self, int64_t id, int32_t on) {
  if (!self) return PLINTH_ERR;
  Core& core = *self->core;
  core.server.AssertMainThread("key_change_listener_set");
  for (KeyChangeListener& l : core.events.key_change_listeners) {
    if (l.id != id || l.owner != self->name) continue;
    l.on = on != 0;
    core.events.Recount();
    return PLINTH_OK;
  }
  return PLINTH_ERR;
}

int64_t ObserverRegister(plinth_plugin_t* self, plinth_command_observer_fn fn, void* ctx,
                         int64_t min_us) {
  if (!InInit(self, "command_observer_register") || !fn) return PLINTH_ERR;
  Core& core = *self->core;
  const int64_t id = core.events.next_id++;
  core.events.observers.push_back({fn, ctx, min_us < 0 ? -1 : min_us, id, self->name});
  core.events.Recount();
  return id;
}

int32_t ObserverSet(plinth_plugin_t* self, int64_t id, int64_t min_us) {
  if (!self) return PLINTH_ERR;
  Core& core = *self->core;
  core.server.AssertMainThread("command_observer_set");
  for (CommandObserver& o : core.events.observers) {
    if (o.id != id || o.owner != self->name) continue;
    o.min_us = min_us < 0 ? -1 : min_us;
    core.events.Recount();
    return PLINTH_OK;
  }
  return PLINTH_ERR;
}

}  // namespace

void FillEventsApi(plinth_host_api_t* t) {
  t->keyspace_event = KeyspaceEvent;
  t->keyspace_listener_register = KeyspaceListenerRegister;
  t->client_listener_register = ClientListenerRegister;
  t->before_sleep_register = BeforeSleepRegister;
  t->command_observer_register = ObserverRegister;
  t->command_observer_set = ObserverSet;
  t->key_change_listener_register = KeyChangeListenerRegister;
  t->key_change_listener_set = KeyChangeListenerSet;
}

}  // namespace plinth::host
