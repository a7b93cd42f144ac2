// FakeHost's public methods and the Impl helpers shared by the table functions.
// Main thread (the test's thread) unless a comment says otherwise.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "internal.h"
#include "options.h"

namespace plinth::fakehost {

std::atomic<FakeHost::Impl*> g_current{nullptr};

namespace {
// Makes impl the current host for the context-free table functions.
FakeHost::Impl* Enter(const std::unique_ptr<FakeHost::Impl>& impl) {
  g_current.store(impl.get());
  return impl.get();
}
}  // namespace

bool CopySpec(const void* in, size_t out_size, void* out) {
  uint32_t size = 0;
  std::memcpy(&size, in, sizeof size);
  if (size < sizeof(uint32_t)) return false;
  const auto* bytes = static_cast<const unsigned char*>(in);
  for (size_t i = out_size; i < size; ++i)
    if (bytes[i] != 0) return false;
  std::memset(out, 0, out_size);
  std::memcpy(out, in, size < out_size ? size : out_size);
  return true;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && Lower(a) == Lower(b);
}

FakeHost::Impl::Impl() {
  table.struct_size = sizeof(plinth_host_api_t);
  table.abi_major = PLINTH_ABI_MAJOR;
  table.abi_minor = PLINTH_ABI_MINOR;
  FillRegistrationApi(&table);
  FillConfigApi(&table);
  FillCallApi(&table);
  FillKeyApi(&table);
  FillServerApi(&table);
}

void FakeHost::Impl::Log(const PluginRec* plugin, uint32_t level, std::string_view text) {
  LogLine line{level, plugin ? plugin->name : std::string(), std::string(text)};
  if (plugin && plugin->in_init && level >= PLINTH_LOG_WARNING) plugin->last_warning = line.text;
  std::lock_guard<std::mutex> lock(mu);
  if (log_echo) {
    std::fprintf(stderr, "[%s] %u %s\n", line.plugin.empty() ? "fakehost" : line.plugin.c_str(),
                 level, line.text.c_str());
  }
  logs.push_back(std::move(line));
}

const CommandRec* FakeHost::Impl::FindCommand(std::string_view name) const {
  for (const auto& c : commands)
    if (EqualsNoCase(c->name, name)) return c.get();
  return nullptr;
}

OptionRec* FakeHost::Impl::FindOption(std::string_view full_name) const {
  for (const auto& o : options)
    if (EqualsNoCase(o->full_name, full_name)) return o.get();
  return nullptr;
}

const TypeRec* FakeHost::Impl::FindType(uint32_t id) const {
  for (const auto& t : types)
    if (t->id == id) return t.get();
  return nullptr;
}

Entry* FakeHost::Impl::Lookup(CallRec* call, int32_t db, std::string_view key) {
  Entry* e = keyspace.Find(db, key);
  if (!e || e->expire_at_ms < 0 || e->expire_at_ms > (call ? call->time_ms : now_ms)) return e;
  keyspace.Delete(db, key);
  ++expired_keys;
  PropagatedCommand del{db, {"DEL", std::string(key)}};
  if (call) {
    call->pending.push_back(std::move(del));
  } else {
    Emit(del);
  }
  return nullptr;
}

void FakeHost::Impl::Emit(const PropagatedCommand& cmd) {
  propagated.push_back(cmd);
  if (consumers.empty()) return;
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : cmd.argv) {
    argv.push_back(a.c_str());
    lens.push_back(a.size());
  }
  for (const auto& c : consumers)
    if (c->spec.on_command)
      c->spec.on_command(c->spec.ctx, cmd.db, static_cast<int32_t>(argv.size()), argv.data(),
                         lens.data());
}

void FakeHost::Impl::Rollback(const PluginRec* plugin) {
  auto owned = [plugin](const auto& rec) { return rec->owner == plugin; };
  commands.erase(std::remove_if(commands.begin(), commands.end(), owned), commands.end());
  options.erase(std::remove_if(options.begin(), options.end(), owned), options.end());
  infos.erase(std::remove_if(infos.begin(), infos.end(), owned), infos.end());
  types.erase(std::remove_if(types.begin(), types.end(), owned), types.end());
  transports.erase(std::remove_if(transports.begin(), transports.end(), owned), transports.end());
  consumers.erase(std::remove_if(consumers.begin(), consumers.end(), owned), consumers.end());
  if (protocol && protocol->owner == plugin) protocol.reset();
  if (reply_path && reply_path->owner == plugin) reply_path.reset();
  for (auto it = timers.begin(); it != timers.end();)
    it = it->second->owner == plugin ? timers.erase(it) : std::next(it);
}

// ---- FakeHost ----------------------------------------------------------------------------

FakeHost::FakeHost() : impl_(std::make_unique<Impl>()) { Enter(impl_); }

FakeHost::~FakeHost() {
  Enter(impl_);
  Shutdown();
  impl_->keyspace.Flush(-1);
  g_current.store(nullptr);
}

const plinth_host_api_t* FakeHost::Api() const { return &impl_->table; }
plinth_host_api_t* FakeHost::MutableApi() { return &impl_->table; }

bool FakeHost::Load(plinth_plugin_entry_v1_fn entry, std::string_view path) {
  Impl* h = Enter(impl_);
  if (!entry) return h->FailLoad(path, "entry", "no symbol " PLINTH_ENTRY_SYMBOL);
  const plinth_plugin_descriptor_t* d = entry();
  if (!d) return h->FailLoad(path, "entry", PLINTH_ENTRY_SYMBOL " returned NULL");
  return h->LoadDescriptor(d, path);
}

bool FakeHost::Load(const plinth_plugin_descriptor_t* descriptor, std::string_view path) {
  return Enter(impl_)->LoadDescriptor(descriptor, path);
}

const std::string& FakeHost::LoadError() const { return impl_->load_error; }

void FakeHost::Shutdown() {
  Impl* h = Enter(impl_);
  if (h->shutdown_done) return;
  h->shutdown_done = true;
  for (auto it = h->plugins.rbegin(); it != h->plugins.rend(); ++it) {
    PluginRec* p = it->get();
    if (p->shut_down || !p->desc.shutdown) continue;
    p->shut_down = true;
    p->desc.shutdown(reinterpret_cast<plinth_plugin_t*>(p));
  }
  for (auto& t : h->timers) {
    (void)t;
    h->Log(nullptr, PLINTH_LOG_WARNING, "a timer was not stopped before shutdown");
  }
  h->timers.clear();
  h->keyspace.Flush(-1);
}

Reply FakeHost::Call(const std::vector<std::string>& argv) { return Enter(impl_)->Execute(argv); }

bool FakeHost::HasCommand(std::string_view name) const {
  return impl_->FindCommand(name) != nullptr;
}

const std::vector<PropagatedCommand>& FakeHost::Propagated() const { return impl_->propagated; }
void FakeHost::ClearPropagated() { impl_->propagated.clear(); }
uint64_t FakeHost::Dirty() const { return impl_->dirty; }

void FakeHost::Select(int32_t db) {
  if (impl_->keyspace.ValidDb(db)) impl_->client_db = db;
}
int32_t FakeHost::CurrentDb() const { return impl_->client_db; }

void FakeHost::PutString(std::string_view key, std::string_view value, int32_t db) {
  impl_->keyspace.Set(db < 0 ? impl_->client_db : db, key, NewStringValue(value), false);
}

std::optional<std::string> FakeHost::GetString(std::string_view key, int32_t db) const {
  Entry* e = impl_->keyspace.Find(db < 0 ? impl_->client_db : db, key);
  if (!e || (e->expire_at_ms >= 0 && e->expire_at_ms <= impl_->now_ms)) return std::nullopt;
  if (e->value->type != PLINTH_TYPE_STRING) return std::nullopt;
  return e->value->str;
}

int64_t FakeHost::ExpireAtMs(std::string_view key, int32_t db) const {
  Entry* e = impl_->keyspace.Find(db < 0 ? impl_->client_db : db, key);
  if (!e || (e->expire_at_ms >= 0 && e->expire_at_ms <= impl_->now_ms)) return -2;
  return e->expire_at_ms;
}

bool FakeHost::SetExpireAtMs(std::string_view key, int64_t when_ms, int32_t db) {
  Entry* e = impl_->keyspace.Find(db < 0 ? impl_->client_db : db, key);
  if (!e) return false;
  e->expire_at_ms = when_ms < 0 ? -1 : when_ms;
  return true;
}

uint64_t FakeHost::KeyCount(int32_t db) const {
  return impl_->keyspace.Size(db < 0 ? impl_->client_db : db);
}

int64_t FakeHost::LiveValues() { return LiveValueCount(); }

void FakeHost::SetTimeMs(int64_t unix_ms) { impl_->now_ms = unix_ms; }
int64_t FakeHost::TimeMs() const { return impl_->now_ms; }

void FakeHost::AdvanceTimeMs(int64_t ms) {
  Impl* h = Enter(impl_);
  const int64_t target = h->now_ms + (ms > 0 ? ms : 0);
  for (;;) {
    TimerRec* next = nullptr;
    for (auto& kv : h->timers)
      if (kv.second->due_ms <= target && (!next || kv.second->due_ms < next->due_ms))
        next = kv.second.get();
    if (!next) break;
    const uint64_t seq = next->seq;
    if (next->due_ms > h->now_ms) h->now_ms = next->due_ms;
    if (next->repeat_ms > 0) next->due_ms += static_cast<int64_t>(next->repeat_ms);
    plinth_timer_fn fn = next->fn;
    void* arg = next->arg;
    const bool one_shot = next->repeat_ms == 0;
    fn(arg);
    // A one-shot timer stays allocated until timer_stop, like a handle, but never fires again.
    if (one_shot) {
      auto it = h->timers.find(seq);
      if (it != h->timers.end()) it->second->due_ms = INT64_MAX;
    }
  }
  h->now_ms = target;
}

size_t FakeHost::ActiveTimers() const {
  size_t n = 0;
  for (const auto& kv : impl_->timers) n += kv.second->due_ms != INT64_MAX ? 1 : 0;
  return n;
}

int FakeHost::RunPosted() {
  Impl* h = Enter(impl_);
  int ran = 0;
  for (;;) {
    std::vector<std::pair<plinth_task_fn, void*>> batch;
    {
      std::lock_guard<std::mutex> lock(h->mu);
      batch.swap(h->posted);
    }
    if (batch.empty()) return ran;
    for (auto& task : batch) {
      task.first(task.second);
      ++ran;
    }
  }
}

std::optional<std::string> FakeHost::GetOption(std::string_view name) const {
  if (const OptionRec* o = impl_->FindOption(name)) return o->value;
  auto it = impl_->configured.find(Lower(name));
  if (it != impl_->configured.end()) return it->second;
  return std::nullopt;
}

std::string FakeHost::Info(std::string_view section) {
  std::string out;
  Enter(impl_)->RenderInfo(section, &out);
  return out;
}

std::vector<LogLine> FakeHost::Logs() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->logs;
}

bool FakeHost::LogContains(std::string_view text) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (const LogLine& l : impl_->logs)
    if (l.text.find(text) != std::string::npos) return true;
  return false;
}

void FakeHost::ClearLogs() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->logs.clear();
}

void FakeHost::SetLogEcho(bool echo) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->log_echo = echo;
}

void FakeHost::SetProtocol(int32_t version) { impl_->client_protocol = version == 3 ? 3 : 2; }
int32_t FakeHost::Protocol() const { return impl_->client_protocol; }
void FakeHost::SetAuthenticated(bool yes) { impl_->authenticated = yes; }
bool FakeHost::CloseRequested() const { return impl_->close_requested; }
bool FakeHost::ShutdownRequested() const { return impl_->shutdown_requested; }

const plinth_protocol_spec_t* FakeHost::RegisteredProtocol() const {
  return impl_->protocol ? &impl_->protocol->spec : nullptr;
}

const plinth_reply_path_spec_t* FakeHost::RegisteredReplyPath() const {
  return impl_->reply_path ? &impl_->reply_path->spec : nullptr;
}

std::vector<const plinth_transport_spec_t*> FakeHost::RegisteredTransports() const {
  std::vector<const plinth_transport_spec_t*> out;
  for (const auto& t : impl_->transports) out.push_back(&t->spec);
  return out;
}

}  // namespace plinth::fakehost
