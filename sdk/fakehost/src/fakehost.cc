// FakeHost: the host's own core with a reply sink that builds reply trees, the fake env's
// manual clock and captured logs, and one client session. Main thread (the test's thread).
#include <algorithm>
#include <map>
#include <plinth/command_form.hpp>
#include <plinth/fakehost.hpp>
#include <stdexcept>
#include <utility>

#include "fake_env.h"
#include "host/core/core.h"
#include "reply_builder.h"

namespace plinth::fakehost {
namespace {

// Builds the reply tree of one command from its reply items.
class CaptureSink : public host::ReplySink {
 public:
  CaptureSink() {
    item = [](ReplySink* self, const plinth_reply_item_t& i) {
      static_cast<CaptureSink*>(self)->Add(i);
    };
    ref = [](ReplySink* self, const char* data, size_t len, plinth_release_fn release, void* arg) {
      static_cast<CaptureSink*>(self)->AddRef(data, len, release, arg);
    };
  }
  void Add(const plinth_reply_item_t& item) {
    Reply r;
    r.type = static_cast<ReplyType>(item.type);
    int64_t children = 0;
    switch (item.type) {
      case PLINTH_REPLY_INTEGER:
      case PLINTH_REPLY_BOOL:
        r.integer = item.integer;
        break;
      case PLINTH_REPLY_DOUBLE:
        r.dbl = item.dbl;
        break;
      case PLINTH_REPLY_ARRAY:
      case PLINTH_REPLY_SET:
      case PLINTH_REPLY_PUSH:
        children = item.integer;
        break;
      case PLINTH_REPLY_MAP:
        children = 2 * item.integer;
        break;
      case PLINTH_REPLY_VERBATIM:
        r.format = item.ext ? item.ext : "txt";
        r.str.assign(item.data, item.len);
        break;
      default:
        if (item.data) r.str.assign(item.data, item.len);
    }
    builder_.Add(std::move(r), children);
  }
  void AddRef(const char* data, size_t len, plinth_release_fn release, void* arg) {
    Reply r;
    r.type = ReplyType::kBulk;
    r.str.assign(data, len);
    builder_.Add(std::move(r));
    if (release) release(arg);
  }
  // The complete replies received so far, oldest first (taking empties the list).
  std::vector<Reply> TakeAll() {
    Reply r;
    while (builder_.TakeComplete(&r)) done_.push_back(std::move(r));
    return std::exchange(done_, {});
  }

 private:
  ReplyBuilder builder_;
  std::vector<Reply> done_;
};

// One client of the fake host: its session and the sink its replies (also later ones: a
// blocked command's, pushed messages) go to.
struct FakeClient {
  host::Session session;
  CaptureSink sink;
  std::vector<Reply> later;  // received outside the client's own Call, not yet taken
};

// The propagation stream as Propagated() shows it: each batch's RESP commands decoded, SELECTs
// folded into the database of the commands after them.
struct StreamRecord {
  std::vector<PropagatedCommand> commands;
  int32_t db = 0;
};

// The stream the host encoded is well formed: a batch that does not parse whole is a host bug.
void OnBatch(void* ctx, const plinth_stream_batch_t* batch) {
  auto* rec = static_cast<StreamRecord*>(ctx);
  form::Limits limits;
  limits.max_args = UINT64_MAX;
  limits.max_bulk = UINT64_MAX;
  form::CommandParser parser(limits);
  std::vector<std::string_view> argv;
  std::string_view data(batch->data, batch->len);
  while (!data.empty()) {
    if (parser.Parse(data, &argv) != form::CommandParser::Status::kCommand) {
      throw std::logic_error("fakehost: a stream batch does not hold whole commands");
    }
    data.remove_prefix(parser.size());
    if (argv.size() == 2 && argv[0] == "SELECT") {
      rec->db = std::stoi(std::string(argv[1]));
      continue;
    }
    rec->commands.push_back(PropagatedCommand{rec->db, {argv.begin(), argv.end()}});
  }
}

}  // namespace

struct FakeHost::Impl {
  Impl() {
    env.session = &session;
    test_plugin.core = &core;
    test_plugin.name = "test";
    session.id = 1;
    session.authenticated = true;
    clients[1].reset(&main_client);
    env.sessions = [this](const std::function<void(host::Session&)>& fn) {
      for (auto& [id, client] : clients) fn(client->session);
    };
    env.push = [this](uint64_t id, const plinth_reply_item_t* items, size_t n) {
      auto it = clients.find(id);
      if (it == clients.end()) return PLINTH_ERR;
      for (size_t i = 0; i < n; ++i) it->second->sink.Item(items[i]);
      return PLINTH_OK;
    };
    table = *core.plugins.api;
    core.plugins.api = &table;
    std::string err;
    // A test runs DEBUG subcommands as Redis's test suite does (PLINTH_CMD_PROTECTED).
    core.options.SetPending("enable-debug-command", "yes");
    // Protected options: a client's CONFIG SET only from a local client (SetClientLocal).
    core.options.SetPending("enable-protected-configs", "local");
    core.server.RegisterOptions(&err);
    core.keyspace.Create();
    plinth_stream_consumer_spec_t spec{};
    spec.struct_size = sizeof spec;
    spec.name = "fakehost";
    spec.ctx = &propagated;
    spec.on_batch = OnBatch;
    core.listeners.AddConsumer(&spec, "");
    core.propagation.CountActiveConsumers();
  }

  ~Impl() { static_cast<void>(clients[1].release()); }  // main_client is a member, not owned

  FakeEnv env;
  host::Core core{env.Ports()};
  FakeClient main_client;
  host::Session& session = main_client.session;
  std::map<uint64_t, std::unique_ptr<FakeClient>> clients;  // by id; 1 is main_client
  uint64_t next_client = 2;
  plinth_plugin test_plugin;
  plinth_host_api_t table{};
  StreamRecord propagated;
  std::string load_error;
  bool shutdown_done = false;

  int32_t Db(int32_t db) const { return db < 0 ? session.db : db; }
  host::Entry* Find(std::string_view key, int32_t db) const {
    int32_t d = Db(db);
    if (d >= static_cast<int32_t>(core.keyspace.dbs.size())) return nullptr;
    return core.keyspace.dbs[d].Find(key);
  }
  bool Live(const host::Entry* e) const { return e && !host::EntryExpired(e, env.now_ms); }
};

FakeHost::FakeHost() : impl_(std::make_unique<Impl>()) {}

FakeHost::~FakeHost() { Shutdown(); }

const plinth_host_api_t* FakeHost::Api() const { return &impl_->table; }
plinth_host_api_t* FakeHost::MutableApi() { return &impl_->table; }

bool FakeHost::Load(plinth_plugin_entry_v1_fn entry, std::string_view path) {
  impl_->load_error.clear();
  return impl_->core.plugins.LoadEntry(entry, std::string(path), nullptr, host::PluginRequest{},
                                       &impl_->load_error);
}

bool FakeHost::Load(const plinth_plugin_descriptor_t* descriptor, std::string_view path) {
  impl_->load_error.clear();
  return impl_->core.plugins.LoadDescriptor(descriptor, std::string(path), nullptr,
                                            host::PluginRequest{}, &impl_->load_error);
}

bool FakeHost::LoadFile(const std::string& path) {
  impl_->load_error.clear();
  host::PluginRequest req;
  req.spec = path;
  return impl_->core.plugins.Load(req, ".", &impl_->load_error);
}

const std::string& FakeHost::LoadError() const { return impl_->load_error; }

void FakeHost::Shutdown() {
  if (impl_->shutdown_done) return;
  impl_->shutdown_done = true;
  impl_->core.plugins.Shutdown();
  for (size_t n = impl_->env.DropTimers(); n > 0; --n)
    impl_->env.Log(host::LogLevel::kWarning, "", "a timer was not stopped before shutdown");
  for (host::Db& db : impl_->core.keyspace.dbs) db.Clear(false);
}

Reply FakeHost::Call(const std::vector<std::string>& argv) {
  std::optional<Reply> r = CallAs(1, argv);
  return r ? std::move(*r) : Reply{};
}

std::optional<Reply> FakeHost::CallAs(uint64_t client, const std::vector<std::string>& argv) {
  auto it = impl_->clients.find(client);
  if (argv.empty() || it == impl_->clients.end() || it->second->session.block) return Reply{};
  FakeClient& c = *it->second;
  for (Reply& r : c.sink.TakeAll()) c.later.push_back(std::move(r));
  std::vector<const char*> av;
  std::vector<size_t> al;
  for (const std::string& a : argv) {
    av.push_back(a.data());
    al.push_back(a.size());
  }
  impl_->core.dispatch.Execute(c.session, c.sink, static_cast<int32_t>(av.size()), av.data(),
                               al.data());
  impl_->core.server.BeforeSleep();  // as the server does before it writes the replies
  std::vector<Reply> got = c.sink.TakeAll();
  if (got.empty()) {
    if (c.session.block) return std::nullopt;
    return Reply{};  // nothing was sent (SHUTDOWN)
  }
  Reply own = std::move(got.back());  // pushes it caused come before it
  got.pop_back();
  for (Reply& r : got) c.later.push_back(std::move(r));
  return own;
}

uint64_t FakeHost::AddClient() {
  const uint64_t id = impl_->next_client++;
  auto c = std::make_unique<FakeClient>();
  c->session.id = id;
  c->session.authenticated = true;
  impl_->clients.emplace(id, std::move(c));
  return id;
}

std::vector<Reply> FakeHost::TakeReplies(uint64_t client) {
  auto it = impl_->clients.find(client);
  if (it == impl_->clients.end()) return {};
  FakeClient& c = *it->second;
  for (Reply& r : c.sink.TakeAll()) c.later.push_back(std::move(r));
  return std::exchange(c.later, {});
}

bool FakeHost::Blocked(uint64_t client) const {
  auto it = impl_->clients.find(client);
  return it != impl_->clients.end() && it->second->session.block != nullptr;
}

void FakeHost::CloseClient(uint64_t client) {
  auto it = impl_->clients.find(client);
  if (client == 1 || it == impl_->clients.end()) return;
  impl_->core.sessions.SessionClosed(it->second->session);
  impl_->clients.erase(it);
}

void FakeHost::SetClientProtocol(uint64_t client, int32_t version) {
  auto it = impl_->clients.find(client);
  if (it != impl_->clients.end()) it->second->session.proto = version == 3 ? 3 : 2;
}

void FakeHost::SetClientLocal(uint64_t client, bool local) {
  auto it = impl_->clients.find(client);
  if (it != impl_->clients.end()) it->second->session.local = local;
}

bool FakeHost::HasCommand(std::string_view name) const {
  return impl_->core.registry.FindCommand(name) != nullptr;
}

const plinth_command_spec_t* FakeHost::FindCommand(std::string_view name) const {
  const host::Command* c = impl_->core.registry.FindCommand(name);
  return c ? &c->spec : nullptr;
}

plinth_plugin_t* FakeHost::TestPlugin() { return &impl_->test_plugin; }

const std::vector<PropagatedCommand>& FakeHost::Propagated() const {
  impl_->core.server.BeforeSleep();  // effects outside a command (active expiry) wait for it
  return impl_->propagated.commands;
}
void FakeHost::ClearPropagated() {
  impl_->core.server.BeforeSleep();
  impl_->propagated.commands.clear();
}
uint64_t FakeHost::Dirty() const { return impl_->core.keyspace.dirty; }

void FakeHost::Select(int32_t db) {
  if (db >= 0 && db < static_cast<int32_t>(impl_->core.keyspace.dbs.size())) impl_->session.db = db;
}
int32_t FakeHost::CurrentDb() const { return impl_->session.db; }

void FakeHost::PutString(std::string_view key, std::string_view value, int32_t db) {
  int32_t d = impl_->Db(db);
  if (d >= static_cast<int32_t>(impl_->core.keyspace.dbs.size())) return;
  plinth_value_t* v = host::ValueCreateString(value.data(), value.size());
  if (v) impl_->core.keyspace.dbs[d].Set(key, v, false);
}

std::optional<std::string> FakeHost::GetString(std::string_view key, int32_t db) const {
  host::Entry* e = impl_->Find(key, db);
  if (!impl_->Live(e)) return std::nullopt;
  const plinth_value_t* v = host::EntryValue(e);
  if (v->type != PLINTH_TYPE_STRING) return std::nullopt;
  return std::string(host::StringData(v), host::StringLen(v));
}

int64_t FakeHost::ExpireAtMs(std::string_view key, int32_t db) const {
  host::Entry* e = impl_->Find(key, db);
  return impl_->Live(e) ? host::EntryExpireMs(e) : -2;
}

bool FakeHost::SetExpireAtMs(std::string_view key, int64_t when_ms, int32_t db) {
  host::Entry* e = impl_->Find(key, db);
  if (!e) return false;
  return impl_->core.keyspace.dbs[impl_->Db(db)].SetExpire(e, when_ms < 0 ? -1 : when_ms) !=
         nullptr;
}

uint64_t FakeHost::KeyCount(int32_t db) const {
  int32_t d = impl_->Db(db);
  return d < static_cast<int32_t>(impl_->core.keyspace.dbs.size())
             ? impl_->core.keyspace.dbs[d].Size().keys
             : 0;
}

int64_t FakeHost::LiveValues() { return host::ValuesAlive(); }

void FakeHost::SetTimeMs(int64_t unix_ms) {
  impl_->env.now_ms = unix_ms;
  impl_->core.keyspace.RefreshAccessClock();
}
int64_t FakeHost::TimeMs() const { return impl_->env.now_ms; }
void FakeHost::SetUsedMemory(int64_t bytes) {
  impl_->env.used_memory = bytes;
  impl_->core.keyspace.evictor.ForgetSample();
}

// The clock moves in cron periods (hz 10, as the server's default): at each period's end the
// core's active expiry runs, as the server's cron runs it, after the timers due by then.
void FakeHost::AdvanceTimeMs(int64_t ms) {
  constexpr int64_t kCronMs = 100;
  const int64_t target = impl_->env.now_ms + (ms > 0 ? ms : 0);
  host::Core& core = impl_->core;
  while (impl_->env.now_ms < target) {
    int64_t tick = (impl_->env.now_ms / kCronMs + 1) * kCronMs;
    int64_t stop = std::min(tick, target);
    const int64_t deadline = core.sessions.blocking.NextDeadline();
    if (deadline > impl_->env.now_ms && deadline < stop) stop = deadline;
    impl_->env.Advance(stop - impl_->env.now_ms);
    core.sessions.ServeTimeouts(impl_->env.now_ms);  // blocked commands whose timeout passed
    if (impl_->env.now_ms == tick) core.server.CronTick(kCronMs * 1000);  // the server's cron
    core.server.BeforeSleep();
  }
}
size_t FakeHost::ActiveTimers() const { return impl_->env.ActiveTimers(); }
int FakeHost::RunPosted() { return impl_->env.RunPosted(); }

bool FakeHost::SetOption(std::string_view name, std::string_view value, std::string* error) {
  std::string why;
  host::Options& o = impl_->core.options;
  if (!o.Find(name)) {
    o.SetPending(std::string(name), std::string(value));
    return true;
  }
  if (o.Set(name, value, true, &why, /*protected_ok=*/true)) return true;
  if (error) *error = why;
  return false;
}

std::optional<std::string> FakeHost::GetOption(std::string_view name) const {
  if (const host::Option* o = impl_->core.options.Find(name)) return o->value;
  return std::nullopt;
}

std::string FakeHost::Info(std::string_view section) {
  return impl_->core.server.RenderInfo(section);
}

std::vector<LogLine> FakeHost::Logs() const { return impl_->env.Logs(); }

bool FakeHost::LogContains(std::string_view text) const {
  for (const LogLine& l : impl_->env.Logs())
    if (l.text.find(text) != std::string::npos) return true;
  return false;
}

void FakeHost::ClearLogs() { impl_->env.ClearLogs(); }
void FakeHost::SetLogEcho(bool echo) { impl_->env.SetLogEcho(echo); }

void FakeHost::SetProtocol(int32_t version) { impl_->session.proto = version == 3 ? 3 : 2; }
int32_t FakeHost::Protocol() const { return impl_->session.proto; }
void FakeHost::SetAuthenticated(bool yes) { impl_->session.authenticated = yes; }
bool FakeHost::CloseRequested() const { return impl_->session.close_after_reply; }
bool FakeHost::ShutdownRequested() const { return impl_->env.shutdown_requested; }

const plinth_protocol_spec_t* FakeHost::RegisteredProtocol() const {
  const auto& p = impl_->core.endpoints.protocol;
  return p ? &p->spec : nullptr;
}

const plinth_reply_path_spec_t* FakeHost::RegisteredReplyPath() const {
  const auto& r = impl_->core.endpoints.reply_path;
  return r ? &r->spec : nullptr;
}

std::vector<const plinth_transport_spec_t*> FakeHost::RegisteredTransports() const {
  std::vector<const plinth_transport_spec_t*> out;
  for (const auto& t : impl_->core.endpoints.transports)
    if (t) out.push_back(&t->spec);
  return out;
}

}  // namespace plinth::fakehost
