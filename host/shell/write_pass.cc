// The pass between polls: unblocked clients, deferred closes, IO jobs and pending writes.
#include "host/shell/write_pass.h"

#include <vector>

#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {

void WritePass::Start(uv_loop_t* loop) { uv_idle_init(loop, &yielded_idle_); }

void WritePass::Stop() {
  uv_idle_stop(&yielded_idle_);
  uv_close(reinterpret_cast<uv_handle_t*>(&yielded_idle_), nullptr);
}

void WritePass::WritePending() {
  std::vector<Client*>& pending = shell_.clients.pending_writes;
  while (!pending.empty()) {
    std::vector<Client*> batch;
    batch.swap(pending);
    for (Client* c : batch) {
      if (!c) continue;
      c->state.in_pending_writes = false;
      ClientFlushOutput(c);
    }
  }
}

void WritePass::CloseDeferred() {
  std::vector<Client*>& to_close = shell_.clients.to_close;
  while (!to_close.empty() && !shell_.core.dispatch.Executing()) {
    std::vector<Client*> batch;
    batch.swap(to_close);
    for (Client* c : batch)
      if (c) ClientClose(c);  // may close others (a plugin's CLOSED event): they join to_close
  }
}

void WritePass::RunUnblocked() {
  std::vector<Client*>& unblocked = shell_.clients.unblocked;
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

void WritePass::Flush() {
  IoThreads& io = shell_.io;
  // The stream's consumers first: no reply goes out before its effects.
  shell_.core.server.BeforeSleep();
  for (;;) {
    CloseDeferred();
    if (io.InFlight()) io.Complete();
    RunUnblocked();
    CloseDeferred();
    WritePending();
    if (!io.InFlight() && shell_.clients.unblocked.empty() && shell_.clients.to_close.empty())
      break;
    if (io.InFlight()) io.WaitForCompletion();
  }
}

void WritePass::RequeueYielded() {
  std::vector<Client*> batch;
  batch.swap(shell_.clients.yielded_writes);
  for (Client* c : batch) {
    if (!c) continue;
    c->state.in_yielded_writes = false;
    ClientQueueWrite(c);
  }
}

void WritePass::KeepAwakeWhileYielded() {
  if (shell_.clients.yielded_writes.empty())
    uv_idle_stop(&yielded_idle_);
  else
    uv_idle_start(&yielded_idle_, [](uv_idle_t*) {});
}

}  // namespace plinth::host
