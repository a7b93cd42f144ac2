// Host API for plugin lifecycle: logging, memory, registration during init, options, INFO
// fields, timers, cross-thread posting and listeners. Each call reaches its core through the
// plugin handle (self).
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/core/api.h"
#include "host/core/core.h"
#include "host/core/info.h"

namespace plinth::host {

bool InInit(plinth_plugin_t* self, const char* what) {
  if (!self) return false;
  self->core->AssertMainThread(what);
  if (self->core->loading == self) return true;
  self->core->Log(LogLevel::kWarning, "%s: %s refused: registration is only allowed during init",
                  self->name.c_str(), what);
  return false;
}

namespace {

void LogWrite(plinth_plugin_t* self, uint32_t level, const char* msg, size_t len) {
  if (level > PLINTH_LOG_WARNING) level = PLINTH_LOG_WARNING;
  if (!self) return;  // no host to write to
  if (level == PLINTH_LOG_WARNING && self->core->loading == self)
    self->init_warning.assign(msg, len);
  self->core->env().Log(static_cast<LogLevel>(level), self->name, std::string_view(msg, len));
}

void* MemAlloc(size_t n) { return std::malloc(n); }
void* MemRealloc(void* p, size_t n) { return std::realloc(p, n); }
void MemFree(void* p) { std::free(p); }

int32_t Refused(plinth_plugin_t* self, const std::string& why) {
  if (why.empty()) return PLINTH_OK;
  if (self->core->loading == self) self->init_warning = why;
  self->core->Log(LogLevel::kWarning, "%s: %s", self->name.c_str(), why.c_str());
  return PLINTH_ERR;
}

int32_t CommandRegister(plinth_plugin_t* self, const plinth_command_spec_t* spec) {
  if (!InInit(self, "command_register")) return PLINTH_ERR;
  return Refused(self, self->core->registry.AddCommand(spec, self->name));
}
int32_t ProtocolRegister(plinth_plugin_t* self, const plinth_protocol_spec_t* spec) {
  if (!InInit(self, "protocol_register")) return PLINTH_ERR;
  return Refused(self,
                 self->core->registry.SetProtocol(spec, self->name, self->descriptor.abi_minor));
}
int32_t TransportRegister(plinth_plugin_t* self, const plinth_transport_spec_t* spec) {
  if (!InInit(self, "transport_register")) return PLINTH_ERR;
  std::string err;
  int32_t id = self->core->registry.AddTransport(spec, self->name, &err);
  if (id < 0) Refused(self, err);
  return id < 0 ? PLINTH_ERR : id;
}
int32_t ReplyPathRegister(plinth_plugin_t* self, const plinth_reply_path_spec_t* spec) {
  if (!InInit(self, "reply_path_register")) return PLINTH_ERR;
  return Refused(self, self->core->registry.SetReplyPath(spec, self->name));
}
int32_t ConsumerRegister(plinth_plugin_t* self, const plinth_stream_consumer_spec_t* spec) {
  if (!InInit(self, "stream_consumer_register")) return PLINTH_ERR;
  const int32_t r = Refused(self, self->core->registry.AddConsumer(spec, self->name));
  self->core->CountActiveConsumers();
  return r;
}
int32_t BeforeSleepRegister(plinth_plugin_t* self, plinth_task_fn fn, void* ctx) {
  if (!InInit(self, "before_sleep_register") || !fn) return PLINTH_ERR;
  self->core->registry.before_sleep.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}
const plinth_option_t* OptionRegister(plinth_plugin_t* self, const plinth_option_spec_t* spec) {
  if (!InInit(self, "option_register")) return nullptr;
  std::string err;
  if (Option* o = self->core->options.Register(spec, self->name, &err)) return o;
  Refused(self, err);
  return nullptr;
}
int32_t InfoRegister(plinth_plugin_t* self, const char* section, plinth_info_fn fn, void* ctx) {
  if (!InInit(self, "info_register")) return PLINTH_ERR;
  return Refused(self, self->core->registry.AddInfoSection(section, fn, ctx, self->name));
}
uint32_t TypeRegister(plinth_plugin_t* self, const plinth_type_spec_t* spec) {
  if (!InInit(self, "type_register")) return 0;
  std::string why;
  uint32_t id = self->core->types.Register(spec, self->name, &why);
  if (!id) Refused(self, why);
  return id;
}
int32_t KeyspaceListenerRegister(plinth_plugin_t* self, plinth_keyspace_listener_fn fn, void* ctx) {
  if (!InInit(self, "keyspace_listener_register") || !fn) return PLINTH_ERR;
  self->core->registry.keyspace_listeners.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}

int32_t ClientListenerRegister(plinth_plugin_t* self, plinth_client_event_fn fn, void* ctx) {
  if (!InInit(self, "client_listener_register") || !fn) return PLINTH_ERR;
  self->core->registry.client_listeners.push_back({fn, ctx, self->name});
  return PLINTH_OK;
}

const plinth_option_t* OptionFind(plinth_plugin_t* self, const char* name) {
  return self && name ? self->core->options.Find(name) : nullptr;
}
int64_t OptionInt(const plinth_option_t* o) { return o ? o->int_value : 0; }
const char* OptionString(const plinth_option_t* o, size_t* len) {
  if (len) *len = o ? o->value.size() : 0;
  return o ? o->value.c_str() : nullptr;
}

plinth_timer_t* TimerStart(plinth_plugin_t* self, uint64_t ms, uint64_t repeat_ms,
                           plinth_timer_fn fn, void* arg) {
  if (!self || !fn) return nullptr;
  Core& core = *self->core;
  core.AssertMainThread("timer_start");
  plinth_timer_t* t = core.env().TimerStart(ms, repeat_ms, fn, arg);
  if (t && core.loading) core.loading->init_timers.emplace_back(t);
  return t;
}

int32_t LoopPost(plinth_plugin_t* self, plinth_task_fn fn, void* arg) {
  if (!self || !fn) return PLINTH_ERR;
  return self->core->env().Post(fn, arg);
}

int32_t ListenerAdd(plinth_plugin_t* self, int32_t transport_id, int32_t fd, const char* desc) {
  if (!self) return PLINTH_ERR;
  const auto& ts = self->core->registry.transports;
  if (transport_id < 0 || static_cast<size_t>(transport_id) >= ts.size() || !ts[transport_id] ||
      fd < 0)
    return PLINTH_ERR;
  return self->core->env().ListenerAdd(transport_id, fd, desc);
}

int64_t TimeUs(plinth_plugin_t* self) { return self ? self->core->NowUs() : 0; }

void ConnNotify(plinth_conn_t* conn, uint32_t events) {
  if (conn && conn->env) conn->env->ConnNotify(conn, events);
}

void ConnReleased(plinth_conn_t* conn, uint64_t total) {
  if (conn && conn->env) conn->env->ConnReleased(conn, total);
}

}  // namespace

void TimerStop(plinth_timer_t* t) {
  if (t) t->env->TimerStop(t);
}

void FillServerApi(plinth_host_api_t* t) {
  t->log_write = LogWrite;
  t->mem_alloc = MemAlloc;
  t->mem_realloc = MemRealloc;
  t->mem_free = MemFree;
  t->command_register = CommandRegister;
  t->protocol_register = ProtocolRegister;
  t->transport_register = TransportRegister;
  t->reply_path_register = ReplyPathRegister;
  t->stream_consumer_register = ConsumerRegister;
  t->option_register = OptionRegister;
  t->info_register = InfoRegister;
  t->type_register = TypeRegister;
  t->keyspace_listener_register = KeyspaceListenerRegister;
  t->client_listener_register = ClientListenerRegister;
  t->option_find = OptionFind;
  t->option_int = OptionInt;
  t->option_string = OptionString;
  t->info_field = InfoField;
  t->info_field_int = InfoFieldInt;
  t->timer_start = TimerStart;
  t->timer_stop = TimerStop;
  t->loop_post = LoopPost;
  t->listener_add = ListenerAdd;
  t->time_us = TimeUs;
  t->conn_notify = ConnNotify;
  t->conn_released = ConnReleased;
}

const plinth_host_api_t* HostApi() {
  static const plinth_host_api_t table = [] {
    plinth_host_api_t t{};
    t.struct_size = sizeof t;
    t.abi_major = PLINTH_ABI_MAJOR;
    t.abi_minor = PLINTH_ABI_MINOR;
    FillServerApi(&t);
    FillCallApi(&t);
    FillClientApi(&t);
    FillTypeApi(&t);
    FillBlockingApi(&t);
    FillPubsubApi(&t);
    FillPersistApi(&t);
    FillInternalClientApi(&t);
    FillReplicationApi(&t);
    FillRunApi(&t);
    FillMemoryApi(&t);
    FillObserveApi(&t);
    FillPauseApi(&t);
    FillAclApi(&t);
    FillKeyChangeApi(&t);
    t.before_sleep_register = BeforeSleepRegister;
    return t;
  }();
  return &table;
}

}  // namespace plinth::host
