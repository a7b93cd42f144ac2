// The server's lifecycle: the loop's setup, the pass around each poll, the block timer,
// signals, and clean shutdown.
#include "host/shell/server.h"

#include <signal.h>

#include <vector>

#include "host/core/api.h"
#include "host/shell/client.h"
#include "host/shell/cron.h"

namespace plinth::host {

Shell::Shell() : loop(uv_default_loop()), core(Ports()) {
  signal(SIGPIPE, SIG_IGN);
  uv_loop_configure(loop, UV_METRICS_IDLE_TIME);  // the IO threads' load policy reads it
}

Shell::~Shell() = default;

Env Shell::Ports() {
  return Env{&clock_, &log_, &tasks_, &connections, &clients_port_, &memory_, &process_};
}

void Shell::ArmBlockTimer() {
  const int64_t due = core.sessions.blocking.NextDeadline();
  if (due == block_timer_due_ || stopped_) return;
  block_timer_due_ = due;
  if (due < 0) {
    uv_timer_stop(&block_timer_);
    return;
  }
  const int64_t wait = due - core.server.NowMs();
  uv_timer_start(
      &block_timer_,
      [](uv_timer_t* t) {  // serves the blocked clients whose timeout passed
        auto* s = static_cast<Shell*>(t->data);
        s->block_timer_due_ = -1;
        s->core.sessions.ServeTimeouts(s->core.server.NowMs());
      },
      static_cast<uint64_t>(wait > 0 ? wait : 0), 0);
}

void Shell::AfterPoll() {
  writes.RequeueYielded();
  writes.Flush();
  if (shutting_down_ && !stopped_) FinishStop();
}

void Shell::BeforePoll() {
  writes.Flush();
  if (shutting_down_ && !stopped_) FinishStop();
  if (stopped_) return;
  ArmBlockTimer();
  writes.KeepAwakeWhileYielded();
}

int Shell::Run() {
  if (!core.endpoints.protocol) {
    core.server.Log(LogLevel::kWarning,
                    "No protocol plugin is loaded (load 'resp'); refusing to start");
    return 1;
  }
  core.keyspace.Create();
  // Before any listener opens: a SIGTERM from a client that saw the port must stop cleanly.
  const uv_signal_cb on_signal = [](uv_signal_t* h, int signum) {
    auto* s = static_cast<Shell*>(h->data);
    s->core.server.Log(LogLevel::kWarning, "Received %s scheduling shutdown...",
                       signum == SIGINT ? "SIGINT" : "SIGTERM");
    s->StopOnSignal();
  };
  uv_signal_init(loop, &sig_int_);
  sig_int_.data = this;
  uv_signal_start(&sig_int_, on_signal, SIGINT);
  uv_signal_init(loop, &sig_term_);
  sig_term_.data = this;
  uv_signal_start(&sig_term_, on_signal, SIGTERM);
  for (auto& t : core.endpoints.transports) {
    if (!t) continue;
    if (t->spec.start(t->spec.ctx) != PLINTH_OK) {
      core.server.Log(LogLevel::kWarning, "Transport '%s' failed to start", t->name.c_str());
      return 1;
    }
    t->started = true;
  }
  io.Configure(io_settings);
  io.Start();
  uv_prepare_init(loop, &before_poll_);
  before_poll_.data = this;
  uv_prepare_start(&before_poll_,
                   [](uv_prepare_t* h) { static_cast<Shell*>(h->data)->BeforePoll(); });
  uv_check_init(loop, &after_poll_);
  after_poll_.data = this;
  uv_check_start(&after_poll_, [](uv_check_t* h) { static_cast<Shell*>(h->data)->AfterPoll(); });
  writes.Start(loop);
  uv_timer_init(loop, &block_timer_);
  block_timer_.data = this;
  CronStart(*this, &cron_);
  started_ = true;
  core.server.state.startup_memory = memory_.UsedMemory();
  core.server.Log(LogLevel::kNotice, "Server initialized, %zu plugins loaded",
                  core.plugins.loaded().size());
  core.server.Log(LogLevel::kNotice, "Ready to accept connections");
  uv_run(loop, UV_RUN_DEFAULT);
  io.Shutdown();  // nothing is in flight any more: this joins the threads
  return 0;
}

void Shell::StopOnSignal() {
  Command* shutdown = core.registry.FindCommand("shutdown");
  if (process_.Busy() || shutting_down_ || !shutdown || !shutdown->spec.handler) {
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
  session.id = core.server.state.next_internal_id--;
  session.internal = true;
  session.authenticated = true;
  static const char* const kArgv[] = {"shutdown"};
  static const size_t kLen[] = {8};
  core.dispatch.Execute(session, sink, 1, kArgv, kLen);
  if (shutting_down_) return;
  core.sessions.SessionClosed(session);
  // Only a failed final save keeps the server up; any other refusal still stops it.
  if (sink.error.find("Errors trying to SHUTDOWN") == std::string::npos) Stop();
}

void Shell::Stop() {
  if (shutting_down_ || process_.DeferStop()) return;
  shutting_down_ = true;
  io.Drain();
  // Replies already queued (SHUTDOWN's own, for instance) get one last write attempt.
  writes.WritePending();
  listeners.CloseAll();
  for (auto& t : core.endpoints.transports)
    if (t && t->started && t->spec.stop) t->spec.stop(t->spec.ctx);
  std::vector<Client*> all;
  for (auto& [id, c] : clients.by_id) all.push_back(c);
  // At once, even inside SHUTDOWN: the plugins hear of every client before their shutdown (the
  // caller's arguments stay valid: a client's query buffer goes with the Client itself).
  for (Client* c : all) ClientCloseNow(c);
  // With IO jobs in flight the rest waits for the pass: those clients close when their jobs come
  // back, and the transports must still be up then.
  if (!io.InFlight()) FinishStop();
}

void Shell::FinishStop() {
  stopped_ = true;
  core.plugins.Shutdown();
  connections.Close();  // transports' notifications are ignored from now on
  tasks_.Close();       // runs the tasks queued so far, refuses more
  if (started_) {
    CronStop(&cron_);
    uv_prepare_stop(&before_poll_);
    uv_check_stop(&after_poll_);
    writes.Stop();
    uv_timer_stop(&block_timer_);
    uv_signal_stop(&sig_int_);
    uv_signal_stop(&sig_term_);
    uv_close(reinterpret_cast<uv_handle_t*>(&before_poll_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&after_poll_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&block_timer_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sig_int_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sig_term_), nullptr);
  }
  uv_stop(loop);
}

}  // namespace plinth::host
