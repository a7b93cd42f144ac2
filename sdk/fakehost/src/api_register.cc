// Host table, part 1: logging, memory, registration of commands, protocol, transports, reply
// path, stream consumers and value types, and timers and tasks. Registration is accepted only
// while the registering plugin's init runs, like the real host.
#include <cctype>
#include <cstdlib>
#include <string>

#include "internal.h"

namespace plinth::fakehost {

PluginRec* FakeHost::Impl::Registering(plinth_plugin_t* self, const char* what) {
  PluginRec* p = PluginOf(self);
  if (!p) {
    Log(nullptr, PLINTH_LOG_WARNING, std::string(what) + ": NULL plugin handle");
    return nullptr;
  }
  if (!p->in_init) {
    Log(p, PLINTH_LOG_WARNING, std::string(what) + ": only allowed during init");
    return nullptr;
  }
  return p;
}

PluginRec* RegisteringPlugin(plinth_plugin_t* self, const char* what) {
  FakeHost::Impl* h = PluginOf(self) ? PluginOf(self)->host : g_current.load();
  return h ? h->Registering(self, what) : nullptr;
}

namespace {

FakeHost::Impl* Current() { return g_current.load(); }
PluginRec* Reg(plinth_plugin_t* self, const char* what) { return RegisteringPlugin(self, what); }

// Refuses with a warning in the plugin's name; returns PLINTH_ERR for convenience.
int32_t Refuse(PluginRec* p, const std::string& why) {
  p->host->Log(p, PLINTH_LOG_WARNING, why);
  return PLINTH_ERR;
}

std::string Text(const char* s) { return s ? std::string(s) : std::string(); }

// Command names: printable, no spaces, at most 64 bytes.
bool ValidCommandName(const char* s) {
  if (!s || !*s) return false;
  size_t n = 0;
  for (; s[n]; ++n)
    if (!std::isgraph(static_cast<unsigned char>(s[n])) || n >= 64) return false;
  return true;
}

void LogWrite(plinth_plugin_t* self, uint32_t level, const char* msg, size_t len) {
  PluginRec* p = PluginOf(self);
  FakeHost::Impl* h = p ? p->host : Current();
  std::string text = msg ? std::string(msg, len) : std::string();
  if (!h) return;
  h->Log(p, level > PLINTH_LOG_WARNING ? PLINTH_LOG_WARNING : level, text);
}

void* MemAlloc(size_t size) { return std::malloc(size ? size : 1); }
void* MemRealloc(void* p, size_t size) { return std::realloc(p, size ? size : 1); }
void MemFree(void* p) { std::free(p); }

int32_t CommandRegister(plinth_plugin_t* self, const plinth_command_spec_t* spec) {
  PluginRec* p = Reg(self, "command_register");
  if (!p) return PLINTH_ERR;
  auto rec = std::make_unique<CommandRec>();
  if (!CopySpec(spec, &rec->spec)) return Refuse(p, "command_register: bad struct_size");
  plinth_command_spec_t& s = rec->spec;
  if (!ValidCommandName(s.name))
    return Refuse(p, "command_register: invalid command name '" + Text(s.name) + "'");
  const std::string name = Lower(s.name);
  if (p->host->FindCommand(name))
    return Refuse(p, "command_register: command '" + name + "' already exists");
  if (!s.handler) return Refuse(p, "command_register: '" + name + "' has no handler");
  if (s.arity == 0) return Refuse(p, "command_register: '" + name + "' has arity 0");
  if (s.first_key < 0 || (s.first_key > 0 && s.key_step <= 0) ||
      (s.first_key > 0 && s.last_key >= 0 && s.last_key < s.first_key))
    return Refuse(p, "command_register: '" + name + "' has invalid key positions");
  rec->name = name;
  rec->summary = Text(s.summary);
  rec->since = Text(s.since);
  rec->group = Text(s.group);
  rec->args = Text(s.args);
  s.name = rec->name.c_str();
  s.summary = s.summary ? rec->summary.c_str() : nullptr;
  s.since = s.since ? rec->since.c_str() : nullptr;
  s.group = s.group ? rec->group.c_str() : nullptr;
  s.args = s.args ? rec->args.c_str() : nullptr;
  rec->owner = p;
  p->host->commands.push_back(std::move(rec));
  return PLINTH_OK;
}

// Copies a named spec; fails on a bad size or a NULL name.
template <typename Spec>
std::unique_ptr<SpecRec<Spec>> CopyNamed(PluginRec* p, const Spec* spec, const char* what) {
  auto rec = std::make_unique<SpecRec<Spec>>();
  if (!CopySpec(spec, &rec->spec)) {
    Refuse(p, std::string(what) + ": bad struct_size");
    return nullptr;
  }
  if (!rec->spec.name || !*rec->spec.name) {
    Refuse(p, std::string(what) + ": missing name");
    return nullptr;
  }
  rec->name = rec->spec.name;
  rec->spec.name = rec->name.c_str();
  rec->owner = p;
  return rec;
}

int32_t ProtocolRegister(plinth_plugin_t* self, const plinth_protocol_spec_t* spec) {
  PluginRec* p = Reg(self, "protocol_register");
  if (!p) return PLINTH_ERR;
  if (p->host->protocol)
    return Refuse(p, "protocol_register: a protocol is already registered by " +
                         p->host->protocol->owner->name);
  auto rec = CopyNamed(p, spec, "protocol_register");
  if (!rec) return PLINTH_ERR;
  if (!rec->spec.parse || !rec->spec.encode)
    return Refuse(p, "protocol_register: parse and encode are required");
  p->host->protocol = std::move(rec);
  return PLINTH_OK;
}

int32_t TransportRegister(plinth_plugin_t* self, const plinth_transport_spec_t* spec) {
  PluginRec* p = Reg(self, "transport_register");
  if (!p) return PLINTH_ERR;
  auto rec = CopyNamed(p, spec, "transport_register");
  if (!rec) return PLINTH_ERR;
  for (const auto& t : p->host->transports)
    if (t->name == rec->name)
      return Refuse(p, "transport_register: transport '" + rec->name + "' already exists");
  p->host->transports.push_back(std::move(rec));
  return static_cast<int32_t>(p->host->transports.size() - 1);
}

int32_t ReplyPathRegister(plinth_plugin_t* self, const plinth_reply_path_spec_t* spec) {
  PluginRec* p = Reg(self, "reply_path_register");
  if (!p) return PLINTH_ERR;
  if (p->host->reply_path) return Refuse(p, "reply_path_register: a reply path is already set");
  auto rec = CopyNamed(p, spec, "reply_path_register");
  if (!rec) return PLINTH_ERR;
  p->host->reply_path = std::move(rec);
  return PLINTH_OK;
}

int32_t StreamConsumerRegister(plinth_plugin_t* self, const plinth_stream_consumer_spec_t* spec) {
  PluginRec* p = Reg(self, "stream_consumer_register");
  if (!p) return PLINTH_ERR;
  auto rec = CopyNamed(p, spec, "stream_consumer_register");
  if (!rec) return PLINTH_ERR;
  if (!rec->spec.on_command) return Refuse(p, "stream_consumer_register: on_command is required");
  p->host->consumers.push_back(std::move(rec));
  return PLINTH_OK;
}

uint32_t TypeRegister(plinth_plugin_t* self, const plinth_type_spec_t* spec) {
  PluginRec* p = Reg(self, "type_register");
  if (!p) return 0;
  auto rec = std::make_unique<TypeRec>();
  if (!CopySpec(spec, &rec->spec)) return Refuse(p, "type_register: bad struct_size"), 0;
  if (!rec->spec.name || !*rec->spec.name || !rec->spec.free_payload)
    return Refuse(p, "type_register: name and free_payload are required"), 0;
  rec->name = rec->spec.name;
  if (rec->name == "string" || rec->name == "none")
    return Refuse(p, "type_register: type '" + rec->name + "' already exists"), 0;
  for (const auto& t : p->host->types)
    if (t->name == rec->name)
      return Refuse(p, "type_register: type '" + rec->name + "' already exists"), 0;
  rec->spec.name = rec->name.c_str();
  rec->id = p->host->next_type_id++;
  rec->owner = p;
  p->host->types.push_back(std::move(rec));
  return p->host->types.back()->id;
}

plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn, void* arg) {
  FakeHost::Impl* h = Current();
  if (!h || !fn) return nullptr;
  auto t = std::make_unique<TimerRec>();
  t->seq = h->next_timer_seq++;
  t->due_ms = h->now_ms + static_cast<int64_t>(ms);
  t->repeat_ms = repeat_ms;
  t->fn = fn;
  t->arg = arg;
  t->owner = h->loading;
  TimerRec* raw = t.get();
  h->timers.emplace(raw->seq, std::move(t));
  return reinterpret_cast<plinth_timer_t*>(raw);
}

void TimerStop(plinth_timer_t* timer) {
  FakeHost::Impl* h = Current();
  if (!h || !timer) return;
  h->timers.erase(reinterpret_cast<TimerRec*>(timer)->seq);
}

int32_t LoopPost(plinth_task_fn fn, void* arg) {
  FakeHost::Impl* h = Current();
  if (!h || !fn) return PLINTH_ERR;
  std::lock_guard<std::mutex> lock(h->mu);
  if (h->shutdown_done) return PLINTH_ERR;
  h->posted.emplace_back(fn, arg);
  return PLINTH_OK;
}

int32_t ListenerAdd(int32_t, int32_t, const char*) {
  if (FakeHost::Impl* h = Current())
    h->Log(nullptr, PLINTH_LOG_WARNING, "listener_add: the fake host has no event loop");
  return PLINTH_ERR;
}

}  // namespace

void FillRegistrationApi(plinth_host_api_t* t) {
  t->log_write = LogWrite;
  t->mem_alloc = MemAlloc;
  t->mem_realloc = MemRealloc;
  t->mem_free = MemFree;
  t->command_register = CommandRegister;
  t->protocol_register = ProtocolRegister;
  t->transport_register = TransportRegister;
  t->reply_path_register = ReplyPathRegister;
  t->stream_consumer_register = StreamConsumerRegister;
  t->type_register = TypeRegister;
  t->timer_start = TimerStart;
  t->timer_stop = TimerStop;
  t->loop_post = LoopPost;
  t->listener_add = ListenerAdd;
}

}  // namespace plinth::fakehost
