// Server lifecycle: loop setup, listeners and accepting, the before-poll write pass, signals,
// posted tasks, and clean shutdown.
#include "host/server.h"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "host/client.h"
#include "host/cron.h"
#include "host/log.h"

namespace plinth::host {
namespace {

void OnAccept(uv_poll_t* h, int status, int) {
  auto* l = static_cast<Listener*>(h->data);
  Server& s = Srv();
  if (status < 0) return;
  const Transport* t = s.registry.transports[l->transport_id].get();
  for (int i = 0; i < 64 && t; ++i) {  // bounded: other work gets its turn
    void* conn = nullptr;
    int32_t fd = -1;
    char peer[128] = "", local[128] = "";
    uint32_t flags = 0;
    int32_t rc = t->spec.accept(t->spec.ctx, l->fd, &conn, &fd, peer, sizeof peer, local,
                                sizeof local, &flags);
    if (rc != PLINTH_OK) return;
    s.stats.connections_received++;
    const char* refuse = nullptr;
    if (static_cast<int64_t>(s.clients.size()) >= s.limits.maxclients) {
      refuse = "-ERR max number of clients reached\r\n";
    } else if (s.limits.protected_mode && !s.limits.has_password && !(flags & PLINTH_CONN_LOCAL)) {
      refuse =
          "-DENIED Running in protected mode because protected mode is enabled and no password "
          "is set for the default user. In this mode connections are only accepted from the "
          "loopback interface. If you want to connect from external computers, you may set a "
          "password with requirepass, or disable protected mode with "
          "'CONFIG SET protected-mode no'.\r\n";
    }
    if (refuse) {
      s.stats.rejected_connections++;
      plinth_iovec_t iov{refuse, std::strlen(refuse)};
      t->spec.writev(t->spec.ctx, conn, &iov, 1);
      t->spec.close(t->spec.ctx, conn);
      continue;
    }
    ClientCreate(l->transport_id, conn, fd, peer, local, flags);
  }
}

// Writes pending replies once per loop iteration, after all reads were processed.
void BeforePoll(uv_prepare_t*) {
  Server& s = Srv();
  while (!s.pending_writes.empty()) {
    std::vector<Client*> batch;
    batch.swap(s.pending_writes);
    for (Client* c : batch) {
      if (!c) continue;
      c->in_pending_writes = false;
      ClientWrite(c);
    }
  }
}

void OnSignal(uv_signal_t* h, int signum) {
  Log(LogLevel::kWarning, "Received %s scheduling shutdown...",
      signum == SIGINT ? "SIGINT" : "SIGTERM");
  (void)h;
  ServerStop();
}

void OnPosted(uv_async_t*) { RunPostedTasks(); }

}  // namespace

Server& Srv() {
  static Server* s = new Server();  // never destroyed: plugins may still post at exit
  return *s;
}

int64_t NowUs() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<int64_t>(tv.tv_sec) * 1000000 + tv.tv_usec;
}
int64_t NowMs() { return NowUs() / 1000; }

#ifndef NDEBUG
namespace {
std::thread::id g_main_thread;
}
void AssertMainThread(const char* function) {
  if (std::this_thread::get_id() == g_main_thread) return;
  Log(LogLevel::kWarning, "%s called off the main thread: this is a plugin bug", function);
  std::abort();
}
#endif

void ServerInit() {
  Server& s = Srv();
#ifndef NDEBUG
  g_main_thread = std::this_thread::get_id();
#endif
  s.loop = uv_default_loop();
  s.start_ms = NowMs();
  signal(SIGPIPE, SIG_IGN);
  uv_async_init(s.loop, &s.post_async, OnPosted);
  s.accepting_posts = true;
}

int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description) {
  Server& s = Srv();
  if (transport_id < 0 || static_cast<size_t>(transport_id) >= s.registry.transports.size() ||
      !s.registry.transports[transport_id] || fd < 0)
    return PLINTH_ERR;
  auto* l = new Listener();
  l->transport_id = transport_id;
  l->fd = fd;
  l->description = description ? description : "";
  if (uv_poll_init(s.loop, &l->poll, fd) != 0) {
    delete l;
    return PLINTH_ERR;
  }
  l->poll.data = l;
  uv_poll_start(&l->poll, UV_READABLE, OnAccept);
  s.listeners.push_back(l);
  return PLINTH_OK;
}

int ServerRun() {
  Server& s = Srv();
  if (!s.registry.protocol) {
    Log(LogLevel::kWarning, "No protocol plugin is loaded (load 'resp'); refusing to start");
    return 1;
  }
  s.dbs.clear();
  s.dbs.resize(static_cast<size_t>(s.options.Find("databases")->int_value));
  for (auto& t : s.registry.transports) {
    if (!t) continue;
    if (t->spec.start(t->spec.ctx) != PLINTH_OK) {
      Log(LogLevel::kWarning, "Transport '%s' failed to start", t->name.c_str());
      return 1;
    }
    t->started = true;
  }
  uv_prepare_init(s.loop, &s.before_poll);
  uv_prepare_start(&s.before_poll, BeforePoll);
  CronStart();
  uv_signal_init(s.loop, &s.sig_int);
  uv_signal_start(&s.sig_int, OnSignal, SIGINT);
  uv_signal_init(s.loop, &s.sig_term);
  uv_signal_start(&s.sig_term, OnSignal, SIGTERM);
  s.started = true;
  Log(LogLevel::kNotice, "Server initialized, %zu plugins loaded", s.plugins.size());
  Log(LogLevel::kNotice, "Ready to accept connections");
  uv_run(s.loop, UV_RUN_DEFAULT);
  return 0;
}

void ServerStop() {
  Server& s = Srv();
  if (s.shutting_down) return;
  s.shutting_down = true;
  // Replies already queued (SHUTDOWN's own, for instance) get one last write attempt.
  BeforePoll(nullptr);
  for (Listener* l : s.listeners) {
    uv_poll_stop(&l->poll);
    uv_close(reinterpret_cast<uv_handle_t*>(&l->poll),
             [](uv_handle_t* h) { delete static_cast<Listener*>(h->data); });
  }
  s.listeners.clear();
  for (auto& t : s.registry.transports)
    if (t && t->started && t->spec.stop) t->spec.stop(t->spec.ctx);
  std::vector<Client*> all;
  for (auto& [id, c] : s.clients) all.push_back(c);
  for (Client* c : all) ClientClose(c);
  ShutdownPlugins();
  {
    std::lock_guard<std::mutex> lock(s.post_mu);
    s.accepting_posts = false;
  }
  RunPostedTasks();
  CronStop();
  uv_prepare_stop(&s.before_poll);
  uv_signal_stop(&s.sig_int);
  uv_signal_stop(&s.sig_term);
  uv_close(reinterpret_cast<uv_handle_t*>(&s.post_async), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&s.before_poll), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&s.sig_int), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&s.sig_term), nullptr);
  uv_stop(s.loop);
}

void RunPostedTasks() {
  Server& s = Srv();
  std::vector<std::pair<plinth_task_fn, void*>> tasks;
  {
    std::lock_guard<std::mutex> lock(s.post_mu);
    tasks.swap(s.posted);
  }
  for (auto& [fn, arg] : tasks) fn(arg);
}

void ShutdownPlugins() {
  Server& s = Srv();
  for (auto it = s.plugins.rbegin(); it != s.plugins.rend(); ++it) {
    const plinth_plugin_descriptor_t* d = (*it)->descriptor;
    if (d->shutdown) d->shutdown(it->get());
  }
}

}  // namespace plinth::host
