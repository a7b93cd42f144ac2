// Server lifecycle: loop setup, listeners and accepting, the before-poll write pass, timers,
// signals, posted tasks, and clean shutdown.
#include "host/shell/server.h"

#include <signal.h>
#include <sys/time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "host/core/api.h"
#include "host/shell/client.h"
#include "host/shell/cron.h"
#include "host/shell/log.h"

namespace plinth::host {
namespace {

const char kProtectedMode[] =
    "DENIED Running in protected mode because protected mode is enabled and no password is set "
    "for the default user. In this mode connections are only accepted from the loopback "
    "interface. If you want to connect from external computers, you may set a password with "
    "requirepass, or disable protected mode with 'CONFIG SET protected-mode no'.";

// Answers a refused connection with an error reply in the protocol's encoding, then closes it.
void Refuse(Shell& s, const Transport* t, void* conn, std::string_view msg) {
  s.core.stats.rejected_connections++;
  const Protocol* proto = s.core.endpoints.protocol.get();
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_ERROR;
  item.data = msg.data();
  item.len = msg.size();
  plinth_outbuf_t out{sizeof out, nullptr, 0, 0, ClientGrowOut, nullptr};
  if (proto->spec.encode(proto->spec.ctx, 2, &item, &out) == PLINTH_OK) {
    plinth_iovec_t iov{out.data, out.len};
    t->spec.writev(t->spec.ctx, conn, &iov, 1);
  }
  std::free(out.data);
  t->spec.close(t->spec.ctx, conn);
}

void OnAccept(uv_poll_t* h, int status, int) {
  if (status >= 0) AcceptConnections(static_cast<Listener*>(h->data));
}

void BeforePoll(uv_prepare_t* h) { static_cast<Shell*>(h->data)->FlushBeforePoll(); }
void AfterPoll(uv_check_t* h) { static_cast<Shell*>(h->data)->FlushAfterPoll(); }
void OnYieldedIdle(uv_idle_t*) {}
void OnNotified(uv_async_t* h) { static_cast<Shell*>(h->data)->RunNotified(); }

void OnSignal(uv_signal_t* h, int signum) {
  auto* s = static_cast<Shell*>(h->data);
  s->core.Log(LogLevel::kWarning, "Received %s scheduling shutdown...",
              signum == SIGINT ? "SIGINT" : "SIGTERM");
  s->StopOnSignal();
}

void OnPosted(uv_async_t* h) { static_cast<Shell*>(h->data)->RunPostedTasks(); }

struct UvTimer : plinth_timer {
  uv_timer_t handle;
};

void OnTimer(uv_timer_t* h) {
  auto* t = static_cast<UvTimer*>(h->data);
  t->fn(t->arg);
}

}  // namespace

void AcceptConnections(Listener* l) {
  Shell& s = *l->shell;
  const Transport* t = s.core.endpoints.transports[l->transport_id].get();
  for (int i = 0; i < 64 && t; ++i) {  // bounded: other work gets its turn
    void* conn = nullptr;
    int32_t fd = -1;
    char peer[128] = "", local[128] = "";
    uint32_t flags = 0;
    int32_t rc = t->spec.accept(t->spec.ctx, l->fd, &conn, &fd, peer, sizeof peer, local,
                                sizeof local, &flags);
    if (rc != PLINTH_OK) return;
    s.core.stats.connections_received++;
    if (static_cast<int64_t>(s.clients.size()) >= s.limits.maxclients)
      Refuse(s, t, conn, "ERR max number of clients reached");
    else if (s.limits.protected_mode && !s.core.auth.DefaultNeedsAuth() &&
             !(flags & PLINTH_CONN_LOCAL))
      Refuse(s, t, conn, kProtectedMode);
    else
      ClientCreate(s, l->transport_id, conn, fd, peer, local, flags);
  }
}

int64_t WallUs() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<int64_t>(tv.tv_sec) * 1000000 + tv.tv_usec;
}

Shell::Shell() {
  loop = uv_default_loop();
  signal(SIGPIPE, SIG_IGN);
  uv_loop_configure(loop, UV_METRICS_IDLE_TIME);  // the IO threads' load policy reads it
  uv_async_init(loop, &post_async_, OnPosted);
  post_async_.data = this;
  uv_async_init(loop, &notify_async_, OnNotified);
  notify_async_.data = this;
  accepting_posts_ = true;
}

Shell::~Shell() = default;

int64_t Shell::NowUs() { return WallUs(); }

void Shell::Log(LogLevel level, std::string_view plugin, std::string_view text) {
  if (plugin.empty()) {
    LogLine(level, text);
    return;
  }
  std::string line(plugin);
  line += ": ";
  line += text;
  LogLine(level, line);
}

plinth_timer_t* Shell::TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn, void* arg) {
  auto* t = new UvTimer();
  t->env = this;
  t->fn = fn;
  t->arg = arg;
  uv_timer_init(loop, &t->handle);
  t->handle.data = t;
  uv_timer_start(&t->handle, OnTimer, ms, repeat_ms);
  return t;
}

void Shell::TimerStop(plinth_timer_t* timer) {
  auto* t = static_cast<UvTimer*>(timer);
  uv_timer_stop(&t->handle);
  uv_close(reinterpret_cast<uv_handle_t*>(&t->handle),
           [](uv_handle_t* h) { delete static_cast<UvTimer*>(h->data); });
}

int32_t Shell::Post(plinth_task_fn fn, void* arg) {
  {
    std::lock_guard<std::mutex> lock(post_mu_);
    if (!accepting_posts_.load()) return PLINTH_ERR;
    posted_.emplace_back(fn, arg);
  }
  uv_async_send(&post_async_);
  return PLINTH_OK;
}

int32_t Shell::ListenerAdd(int32_t transport_id, int32_t fd, const char* description) {
  auto* l = new Listener();
  l->shell = this;
  l->transport_id = transport_id;
  l->fd = fd;
  l->description = description ? description : "";
  if (uv_poll_init(loop, &l->poll, fd) != 0) {
    delete l;
    return PLINTH_ERR;
  }
  l->poll.data = l;
  uv_poll_start(&l->poll, UV_READABLE, OnAccept);
  listeners.push_back(l);
  return PLINTH_OK;
}

void Shell::WritePending() {
  while (!pending_writes.empty()) {
    std::vector<Client*> batch;
    batch.swap(pending_writes);
    for (Client* c : batch) {
      if (!c) continue;
      c->state.in_pending_writes = false;
      ClientFlushOutput(c);
    }
  }
}

void Shell::CloseDeferred() {
  while (!to_close.empty() && !core.Executing()) {
    std::vector<Client*> batch;
    batch.swap(to_close);
    for (Client* c : batch)
      if (c) ClientClose(c);  // may close others (a plugin's CLOSED event): they join to_close
  }
}

void Shell::ClientUnblocked(Session& s) {
  auto it = clients.find(s.id);
  if (it == clients.end() || it->second->state.in_unblocked) return;
  it->second->state.in_unblocked = true;
  unblocked.push_back(it->second);
}

int32_t Shell::PushToClient(uint64_t id, const plinth_reply_item_t* items, size_t n) {
  auto it = clients.find(id);
  if (it == clients.end() || it->second->state.closed || it->second->state.close_asap)
    return PLINTH_ERR;
  Client* c = it->second;
  for (size_t i = 0; i < n; ++i) c->sink.Item(items[i]);
  if (ClientCheckOutputLimits(c)) ClientQueueWrite(c);
  return PLINTH_OK;
}

int32_t Shell::WriteRaw(uint64_t id, const char* data, size_t len) {
  auto it = clients.find(id);
  if (it == clients.end() || it->second->state.closed || it->second->state.close_asap)
    return PLINTH_ERR;
  Client* c = it->second;
  if (!ClientAppendRaw(c, data, len) || !ClientCheckOutputLimits(c)) return PLINTH_ERR;
  ClientQueueWrite(c);
  return PLINTH_OK;
}

int64_t Shell::OutputPending(uint64_t id) {
  auto it = clients.find(id);
  if (it == clients.end() || it->second->state.closed) return -1;
  return static_cast<int64_t>(it->second->out.bytes);
}

int32_t Shell::CloseClient(uint64_t id, bool now) {
  auto it = clients.find(id);
  if (it == clients.end() || it->second->state.closed) return PLINTH_ERR;
  Client* c = it->second;
  if (now || c->out.bytes == 0) {
    ClientClose(c);
  } else {
    c->session.close_after_reply = true;
    ClientQueueWrite(c);
  }
  return PLINTH_OK;
}

void Shell::RunUnblocked() {
  while (!unblocked.empty()) {
    std::vector<Client*> batch;
    batch.swap(unblocked);
    for (Client* c : batch) {
      if (!c) continue;
      c->state.in_unblocked = false;
      ClientResume(c);
    }
  }
}

void Shell::ServeBlockTimeouts() {
  block_timer_due_ = -1;
  core.ServeTimeouts(core.NowMs());
}

void Shell::ArmBlockTimer() {
  const int64_t due = core.blocking.NextDeadline();
  if (due == block_timer_due_ || stopped_) return;
  block_timer_due_ = due;
  if (due < 0) {
    uv_timer_stop(&block_timer_);
    return;
  }
  const int64_t wait = due - core.NowMs();
  uv_timer_start(
      &block_timer_, [](uv_timer_t* t) { static_cast<Shell*>(t->data)->ServeBlockTimeouts(); },
      static_cast<uint64_t>(wait > 0 ? wait : 0), 0);
}

void Shell::Flush() {
  core.BeforeSleep();  // the stream's consumers first: no reply goes out before its effects
  for (;;) {
    CloseDeferred();
    if (io.InFlight()) io.Complete();
    RunUnblocked();
    CloseDeferred();
    WritePending();
    if (!io.InFlight() && unblocked.empty() && to_close.empty()) break;
    if (io.InFlight()) io.WaitForCompletion();
  }
  if (shutting_down && !stopped_) FinishStop();
}

void Shell::FlushAfterPoll() {
  std::vector<Client*> batch;
  batch.swap(yielded_writes);
  for (Client* c : batch) {
    if (!c) continue;
    c->state.in_yielded_writes = false;
    ClientQueueWrite(c);
  }
  Flush();
}

void Shell::FlushBeforePoll() {
  Flush();
  if (!stopped_) ArmBlockTimer();
  if (yielded_writes.empty() || stopped_)
    uv_idle_stop(&yielded_idle_);
  else
    uv_idle_start(&yielded_idle_, OnYieldedIdle);
}

void Shell::ConnNotify(plinth_conn_t* conn, uint32_t events) {
  auto* c = static_cast<Client*>(conn->owner);
  if (!accepting_posts_.load(std::memory_order_acquire)) return;  // shut down: nobody reads
  if (c->io.notified.fetch_or(events, std::memory_order_acq_rel) != 0) return;  // queued already
  {
    std::lock_guard<std::mutex> lock(notify_mu_);
    notified_.push_back(c);
  }
  uv_async_send(&notify_async_);
}

void Shell::ConnReleased(plinth_conn_t* conn, uint64_t total) {
  auto* c = static_cast<Client*>(conn->owner);
  uint64_t seen = c->io.released.load(std::memory_order_relaxed);
  while (seen < total &&
         !c->io.released.compare_exchange_weak(seen, total, std::memory_order_acq_rel)) {
  }
  ConnNotify(conn, kConnReleasedEvent);
}

void Shell::RunNotified() {
  size_t n;
  {
    std::lock_guard<std::mutex> lock(notify_mu_);
    n = notified_.size();
  }
  // One at a time: handling one connection may free another, which then leaves the list.
  for (; n > 0; --n) {
    Client* c;
    {
      std::lock_guard<std::mutex> lock(notify_mu_);
      if (notified_.empty()) return;
      c = notified_.front();
      notified_.pop_front();
    }
    ClientHandleEvents(c, c->io.notified.exchange(0, std::memory_order_acq_rel));
  }
}

void Shell::ForgetNotified(Client* c) {
  std::lock_guard<std::mutex> lock(notify_mu_);
  auto it = std::find(notified_.begin(), notified_.end(), c);
  if (it != notified_.end()) notified_.erase(it);
}

int Shell::Run() {
  if (!core.endpoints.protocol) {
    core.Log(LogLevel::kWarning, "No protocol plugin is loaded (load 'resp'); refusing to start");
    return 1;
  }
  core.CreateDatabases();
  // Before any listener opens: a SIGTERM from a client that saw the port must stop cleanly.
  uv_signal_init(loop, &sig_int_);
  sig_int_.data = this;
  uv_signal_start(&sig_int_, OnSignal, SIGINT);
  uv_signal_init(loop, &sig_term_);
  sig_term_.data = this;
  uv_signal_start(&sig_term_, OnSignal, SIGTERM);
  for (auto& t : core.endpoints.transports) {
    if (!t) continue;
    if (t->spec.start(t->spec.ctx) != PLINTH_OK) {
      core.Log(LogLevel::kWarning, "Transport '%s' failed to start", t->name.c_str());
      return 1;
    }
    t->started = true;
  }
  io.Configure(io_settings);
  io.Start();
  uv_prepare_init(loop, &before_poll_);
  before_poll_.data = this;
  uv_prepare_start(&before_poll_, BeforePoll);
  uv_check_init(loop, &after_poll_);
  after_poll_.data = this;
  uv_check_start(&after_poll_, AfterPoll);
  uv_idle_init(loop, &yielded_idle_);
  uv_timer_init(loop, &block_timer_);
  block_timer_.data = this;
  CronStart(*this, &cron_);
  started = true;
  core.startup_memory = UsedMemory();
  core.Log(LogLevel::kNotice, "Server initialized, %zu plugins loaded",
           core.plugins.loaded().size());
  core.Log(LogLevel::kNotice, "Ready to accept connections");
  uv_run(loop, UV_RUN_DEFAULT);
  io.Shutdown();  // nothing is in flight any more: this joins the threads
  return 0;
}

void Shell::StopOnSignal() {
  Command* shutdown = core.registry.FindCommand("shutdown");
  if (serving_busy_ || shutting_down || stop_after_busy_ || !shutdown || !shutdown->spec.handler) {
    Stop();
    return;
  }
  // Redis treats the signal as SHUTDOWN with no arguments: the command's final save runs first
  // and, when it fails, the server logs why and keeps running instead of losing the data.
  struct Sink : ReplySink {
    bool first = true;
    std::string error;
  } sink;
  sink.item = [](ReplySink* self, const plinth_reply_item_t& item) {
    auto* k = static_cast<Sink*>(self);
    if (k->first && item.type == PLINTH_REPLY_ERROR) k->error.assign(item.data, item.len);
    k->first = false;
  };
  sink.ref = [](ReplySink* self, const char*, size_t, plinth_release_fn release, void* arg) {
    static_cast<Sink*>(self)->first = false;
    if (release) release(arg);
  };
  Session session;
  session.id = core.next_internal_id--;
  session.internal = true;
  session.authenticated = true;
  static const char* const kArgv[] = {"shutdown"};
  static const size_t kLen[] = {8};
  core.Execute(session, sink, 1, kArgv, kLen);
  if (shutting_down) return;
  core.SessionClosed(session);
  // Only a failed final save keeps the server up; any other refusal still stops it.
  if (sink.error.find("Errors trying to SHUTDOWN") == std::string::npos) Stop();
}

void Shell::Stop() {
  if (shutting_down || stop_after_busy_) return;
  if (serving_busy_) {  // the busy command (a script) still runs: stop once it has returned
    stop_after_busy_ = true;
    Post(
        [](void* arg) {
          auto* s = static_cast<Shell*>(arg);
          s->stop_after_busy_ = false;
          s->Stop();
        },
        this);
    return;
  }
  shutting_down = true;
  io.Drain();
  // Replies already queued (SHUTDOWN's own, for instance) get one last write attempt.
  WritePending();
  for (Listener* l : listeners) {
    uv_poll_stop(&l->poll);
    uv_close(reinterpret_cast<uv_handle_t*>(&l->poll),
             [](uv_handle_t* h) { delete static_cast<Listener*>(h->data); });
  }
  listeners.clear();
  for (auto& t : core.endpoints.transports)
    if (t && t->started && t->spec.stop) t->spec.stop(t->spec.ctx);
  std::vector<Client*> all;
  for (auto& [id, c] : clients) all.push_back(c);
  // At once, even inside SHUTDOWN: the plugins hear of every client before their shutdown (the
  // caller's arguments stay valid: a client's query buffer goes with the Client itself).
  for (Client* c : all) ClientCloseNow(c);
  // With IO jobs in flight the rest waits for Flush: those clients close when their jobs come
  // back, and the transports must still be up then.
  if (!io.InFlight()) FinishStop();
}

void Shell::FinishStop() {
  stopped_ = true;
  core.plugins.Shutdown();
  {
    std::lock_guard<std::mutex> lock(post_mu_);
    accepting_posts_ = false;
  }
  RunPostedTasks();
  if (started) {
    CronStop(&cron_);
    uv_prepare_stop(&before_poll_);
    uv_check_stop(&after_poll_);
    uv_idle_stop(&yielded_idle_);
    uv_timer_stop(&block_timer_);
    uv_signal_stop(&sig_int_);
    uv_signal_stop(&sig_term_);
    uv_close(reinterpret_cast<uv_handle_t*>(&before_poll_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&after_poll_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&yielded_idle_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&block_timer_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sig_int_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sig_term_), nullptr);
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&post_async_), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&notify_async_), nullptr);
  uv_stop(loop);
}

void Shell::RunPostedTasks() {
  std::vector<std::pair<plinth_task_fn, void*>> tasks;
  {
    std::lock_guard<std::mutex> lock(post_mu_);
    tasks.swap(posted_);
  }
  for (auto& [fn, arg] : tasks) fn(arg);
}

}  // namespace plinth::host
