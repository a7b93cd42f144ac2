// The server's shell around the core: the libuv loop and its startup and clean shutdown, and
// the owner of the parts around the core: the clients, the listeners, the pass between polls,
// the IO threads, and the objects that are the core's ports (env.h). One instance, made by
// main(); libuv callbacks reach it through their handles. Main thread only unless noted.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>

#include "host/core/core.h"
#include "host/shell/io_threads.h"
#include "host/shell/listeners.h"
#include "host/shell/log.h"
#include "host/shell/loop_tasks.h"
#include "host/shell/shell_clients.h"
#include "host/shell/shell_connections.h"
#include "host/shell/shell_memory.h"
#include "host/shell/shell_process.h"
#include "host/shell/write_pass.h"

namespace plinth::host {

// Limits read from the shell's options, refreshed when one changes.
struct Limits {
  int64_t maxclients = 10000;
  int64_t timeout_s = 0;
  int64_t query_buffer = 1LL << 30;
  struct OutputLimit {
    int64_t hard = 0, soft = 0, soft_seconds = 0;  // bytes, bytes, seconds; 0: none
  };
  OutputLimit out_normal;
  OutputLimit out_pubsub{32 << 20, 8 << 20, 60};     // clients that subscribe
  OutputLimit out_replica{256 << 20, 64 << 20, 60};  // replicas (client_set_replica)
  // The least hard or soft limit of the three set (INT64_MAX: none): output below it is below
  // every class's limits, which the request path checks with one comparison.
  int64_t out_floor = INT64_MAX;
  // Sets out_floor from the three classes.
  void SetOutputFloor() {
    out_floor = INT64_MAX;
    for (const OutputLimit* l : {&out_normal, &out_pubsub, &out_replica})
      for (const int64_t v : {l->hard, l->soft})
        if (v > 0 && v < out_floor) out_floor = v;
  }
  Limits() { SetOutputFloor(); }
  bool protected_mode = true;
  int64_t hz = 10;
};

class Shell final {
  // The core's ports that need nothing of the shell's parts, made before the core: it reads
  // the clock as it is made.
  WallClock clock_;
  ShellLog log_;

 public:
  // Sets up the loop (uv_default_loop) and the core; nothing listens or runs yet.
  Shell();
  ~Shell();
  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  uv_loop_t* loop;
  Core core;
  ClientTable clients;
  ListenerSet listeners{*this};
  ShellConnections connections{loop, listeners, clients};  // the transports' port
  WritePass writes{*this};
  Limits limits;
  IoSettings io_settings;
  IoThreads io;

  // Starts the transports and runs the loop until shutdown. Returns the exit code.
  int Run();
  // Begins a clean shutdown (SIGTERM, SHUTDOWN): last writes, listeners and clients closed.
  // Safe inside a command; inside a busy command's ServeWhileBusy it waits for that command.
  // The plugins' shutdown and the loop stop follow at once, or, with IO jobs in flight, in the
  // pass that brings them back.
  void Stop();
  // Whether Stop began (and may still be waiting for IO jobs).
  bool ShuttingDown() const { return shutting_down_; }

 private:
  // The core's ports made of the shell's parts.
  Env Ports();
  // SIGTERM, SIGINT: runs the SHUTDOWN command when one is registered (its final save may fail
  // and keep the server running, as in Redis), else Stop.
  void StopOnSignal();
  // The rest of Stop once no IO job is in flight: plugins' shutdown, handles closed, loop stop.
  void FinishStop();
  // The loop's pass after a poll and before the next one (WritePass), then FinishStop when a
  // stop waited for it.
  void AfterPoll();
  void BeforePoll();
  // Sets the block timer to the earliest blocked client's deadline.
  void ArmBlockTimer();

  LoopTasks tasks_{loop};  // timers and posted tasks
  ShellMemory memory_{clients};
  ShellClients clients_port_{clients};
  ShellProcess process_{*this};
  bool started_ = false;  // Run set up the loop's handles
  bool shutting_down_ = false;
  bool stopped_ = false;
  uv_prepare_t before_poll_;
  uv_check_t after_poll_;
  uv_timer_t cron_;
  uv_timer_t block_timer_;
  int64_t block_timer_due_ = -1;  // the deadline it is set for, -1: stopped
  uv_signal_t sig_int_, sig_term_;
};

// Registers the shell's options (maxclients, timeout, limits, logging, hz, IO threads) on
// shell's core. Returns false with *err when a configured value is invalid
// (shell_options.cc).
bool RegisterShellOptions(Shell& shell, std::string* err);

}  // namespace plinth::host
