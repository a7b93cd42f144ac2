// Host API for plugin lifecycle: logging, memory, registration during init, options, INFO
// fields, timers and cross-thread posting.
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/api.h"
#include "host/info.h"
#include "host/log.h"
#include "host/server.h"
#include "host/value.h"

namespace plinth::host {
namespace {

void LogWrite(plinth_plugin_t* self, uint32_t level, const char* msg, size_t len) {
  if (level > PLINTH_LOG_WARNING) level = PLINTH_LOG_WARNING;
  std::string line;
  if (self) line = self->name + ": ";
  line.append(msg, len);
  LogLine(static_cast<LogLevel>(level), line);
}

void* MemAlloc(size_t n) { return std::malloc(n); }
void* MemRealloc(void* p, size_t n) { return std::realloc(p, n); }
void MemFree(void* p) { std::free(p); }

// Registration is allowed only from the plugin's own init.
bool InInit(plinth_plugin_t* self, const char* what) {
  AssertMainThread(what);
  if (self && Srv().loading == self) return true;
  Log(LogLevel::kWarning, "%s: %s refused: registration is only allowed during init",
      self ? self->name.c_str() : "?", what);
  return false;
}

int32_t Refused(plinth_plugin_t* self, const std::string& why) {
  if (why.empty()) return PLINTH_OK;
  Log(LogLevel::kWarning, "%s: %s", self->name.c_str(), why.c_str());
  return PLINTH_ERR;
}

int32_t CommandRegister(plinth_plugin_t* self, const plinth_command_spec_t* spec) {
  if (!InInit(self, "command_register")) return PLINTH_ERR;
  return Refused(self, Srv().registry.AddCommand(spec, self->name));
}
int32_t ProtocolRegister(plinth_plugin_t* self, const plinth_protocol_spec_t* spec) {
  if (!InInit(self, "protocol_register")) return PLINTH_ERR;
  return Refused(self, Srv().registry.SetProtocol(spec, self->name));
}
int32_t TransportRegister(plinth_plugin_t* self, const plinth_transport_spec_t* spec) {
  if (!InInit(self, "transport_register")) return PLINTH_ERR;
  std::string err;
  int32_t id = Srv().registry.AddTransport(spec, self->name, &err);
  if (id < 0) Refused(self, err);
  return id < 0 ? PLINTH_ERR : id;
}
int32_t ReplyPathRegister(plinth_plugin_t* self, const plinth_reply_path_spec_t* spec) {
  if (!InInit(self, "reply_path_register")) return PLINTH_ERR;
  return Refused(self, Srv().registry.SetReplyPath(spec, self->name));
}
int32_t ConsumerRegister(plinth_plugin_t* self, const plinth_stream_consumer_spec_t* spec) {
  if (!InInit(self, "stream_consumer_register")) return PLINTH_ERR;
  return Refused(self, Srv().registry.AddConsumer(spec, self->name));
}
int32_t OptionRegister(plinth_plugin_t* self, const plinth_option_spec_t* spec) {
  if (!InInit(self, "option_register")) return PLINTH_ERR;
  std::string err;
  if (Srv().options.Register(spec, self->name, &err)) return PLINTH_OK;
  return Refused(self, err);
}
int32_t InfoRegister(plinth_plugin_t* self, const char* section, plinth_info_fn fn, void* ctx) {
  if (!InInit(self, "info_register")) return PLINTH_ERR;
  return Refused(self, Srv().registry.AddInfoSection(section, fn, ctx, self->name));
}
uint32_t TypeRegisterApi(plinth_plugin_t* self, const plinth_type_spec_t* spec) {
  if (!InInit(self, "type_register")) return 0;
  uint32_t id = TypeRegister(spec, self->name);
  if (!id) Refused(self, "type_register: invalid or duplicate type");
  return id;
}

int64_t OptionGetInt(const char* name, int64_t def) {
  const Option* o = name ? Srv().options.Find(name) : nullptr;
  return o ? o->int_value : def;
}
int64_t OptionGetString(const char* name, char* buf, size_t buflen) {
  const Option* o = name ? Srv().options.Find(name) : nullptr;
  if (!o) return -1;
  if (buf && buflen) {
    size_t n = std::min(buflen - 1, o->value.size());
    std::memcpy(buf, o->value.data(), n);
    buf[n] = 0;
  }
  return static_cast<int64_t>(o->value.size());
}

// -- timers --
struct TimerBox {
  uv_timer_t handle;
  plinth_timer_fn fn;
  void* arg;
};
}  // namespace
}  // namespace plinth::host

struct plinth_timer : plinth::host::TimerBox {};

namespace plinth::host {
namespace {

void OnTimer(uv_timer_t* h) {
  auto* t = static_cast<plinth_timer*>(h->data);
  t->fn(t->arg);
}
plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn, void* arg) {
  if (!fn) return nullptr;
  auto* t = new plinth_timer();
  t->fn = fn;
  t->arg = arg;
  uv_timer_init(Srv().loop, &t->handle);
  t->handle.data = t;
  uv_timer_start(&t->handle, OnTimer, ms, repeat_ms);
  if (Srv().loading) Srv().loading->init_timers.push_back(t);
  return t;
}
}  // namespace

void TimerStop(plinth_timer_t* t) {
  if (!t) return;
  uv_timer_stop(&t->handle);
  uv_close(reinterpret_cast<uv_handle_t*>(&t->handle),
           [](uv_handle_t* h) { delete static_cast<plinth_timer*>(h->data); });
}

namespace {

int32_t LoopPost(plinth_task_fn fn, void* arg) {
  Server& s = Srv();
  if (!fn) return PLINTH_ERR;
  {
    std::lock_guard<std::mutex> lock(s.post_mu);
    if (!s.accepting_posts.load()) return PLINTH_ERR;
    s.posted.emplace_back(fn, arg);
  }
  uv_async_send(&s.post_async);
  return PLINTH_OK;
}

int64_t TimeUs() { return NowUs(); }

}  // namespace

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
  t->type_register = TypeRegisterApi;
  t->option_get_int = OptionGetInt;
  t->option_get_string = OptionGetString;
  t->info_field = InfoField;
  t->info_field_int = InfoFieldInt;
  t->timer_start = TimerStart;
  t->timer_stop = TimerStop;
  t->loop_post = LoopPost;
  t->listener_add = ListenerAdd;
  t->time_us = TimeUs;
}

const plinth_host_api_t* HostApi() {
  static plinth_host_api_t table = [] {
    plinth_host_api_t t{};
    t.struct_size = sizeof t;
    t.abi_major = PLINTH_ABI_MAJOR;
    t.abi_minor = PLINTH_ABI_MINOR;
    FillServerApi(&t);
    FillCallApi(&t);
    FillClientApi(&t);
    return t;
  }();
  return &table;
}

}  // namespace plinth::host
