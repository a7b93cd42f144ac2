// The server's shell around the core: the libuv loop, listeners and accepting, clients, the
// before-poll write pass, timers, signals, posted tasks and clean shutdown. It is the core's
// Env. One instance, made by main(); libuv callbacks reach it through their handles. Main
// thread only unless noted.
#pragma once

#include <uv.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/core/core.h"
#include "host/shell/config_file.h"
#include "host/shell/io_threads.h"

namespace plinth::host {

struct Client;

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

class Shell;

struct Listener {
  Shell* shell;
  int32_t transport_id;
  int32_t fd;
  std::string description;
  uv_poll_t poll;
};

class Shell final : public Env {
 public:
  Shell();
  ~Shell() override;

  Core core{this};
  uv_loop_t* loop = nullptr;
  std::unordered_map<uint64_t, Client*> clients;
  uint64_t next_client_id = 1;
  std::vector<Client*> pending_writes;
  // Clients whose write turn ended with the connection still taking bytes: they write again
  // after the next poll, without polling for writability.
  std::vector<Client*> yielded_writes;
  // Blocked clients that got their reply: resumed in the next Flush.
  std::vector<Client*> unblocked;
  // Clients to close once no command runs (ClientCloseAsync); an entry is nullptr once closed.
  std::vector<Client*> to_close;
  std::vector<Listener*> listeners;
  Limits limits;
  // What the clients' buffers hold, all and replicas', as the cron last counted (maxmemory does
  // not count replicas' output, as in Redis).
  int64_t client_buffers = 0;
  int64_t replica_buffers = 0;
  IoSettings io_settings;
  IoThreads io;
  bool started = false;
  bool shutting_down = false;

  // Registers the shell's options (maxclients, timeout, limits, logging, hz). Returns false
  // with *err when a configured value is invalid.
  bool RegisterOptions(std::string* err);
  // Starts the transports and runs the loop until shutdown. Returns the exit code.
  int Run();
  // Begins a clean shutdown (SIGTERM, SHUTDOWN): last writes, listeners and clients closed.
  // Safe inside a command. The plugins' shutdown and the loop stop follow at once, or, with IO
  // jobs in flight, in the Flush that brings them back.
  void Stop();
  // SIGTERM, SIGINT: runs the SHUTDOWN command when one is registered (its final save may fail
  // and keep the server running, as in Redis), else Stop.
  void StopOnSignal();
  // Runs the posted tasks.
  void RunPostedTasks();
  // Writes every client with pending output, inline or on IO threads.
  void WritePending();
  // Closes the clients on to_close, unless a command is running (then it does nothing): after
  // each top-level command and in every Flush.
  void CloseDeferred();
  // Brings the IO threads' jobs back and writes pending output until nothing is in flight;
  // after polling and before the next poll, so the loop never sleeps with a job out.
  void Flush();
  // After a poll: queues the yielded writers for another turn, then flushes.
  void FlushAfterPoll();
  // Before a poll: flushes, and keeps the poll from sleeping while writers yielded.
  void FlushBeforePoll();
  // Handles the connections transports notified (conn_notify, conn_released).
  void RunNotified();
  // Drops c from the notified connections (it is being freed).
  void ForgetNotified(Client* c);

  // -- Env --
  int64_t NowUs() override;
  void Log(LogLevel level, std::string_view plugin, std::string_view text) override;
  plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                             void* arg) override;
  void TimerStop(plinth_timer_t* timer) override;
  int32_t Post(plinth_task_fn fn, void* arg) override;
  int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description) override;
  void DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) override;
  std::string ClientAddr(uint64_t id) override;
  int64_t KillClients(Session* caller, uint32_t filter, std::string_view value) override;
  void RequestShutdown() override { Stop(); }
  void InfoFields(std::string_view section, std::string* out) override;
  int64_t UsedMemory() override;  // introspection.cc
  int64_t NotCountedMemory() override { return replica_buffers; }
  int64_t ClientMemory() override { return client_buffers; }
  int64_t RssMemory() override;
  void ReleaseFreeMemory() override;
  void AllocatorLimit(int64_t maxmemory) override;
  std::string AllocatorStats() override;
  void ConnNotify(plinth_conn_t* conn, uint32_t events) override;
  void ConnReleased(plinth_conn_t* conn, uint64_t total) override;
  void ClientUnblocked(Session& s) override;
  int32_t PushToClient(uint64_t id, const plinth_reply_item_t* items, size_t n) override;
  int32_t WriteRaw(uint64_t id, const char* data, size_t len) override;
  int64_t OutputPending(uint64_t id) override;
  int32_t CloseClient(uint64_t id, bool now) override;
  void ServeWhileBusy(uint64_t caller) override;  // busy.cc
  bool Stopping() override { return shutting_down || stop_after_busy_; }
  void ForEachSession(const std::function<void(Session&)>& fn) override;
  Session* FindSession(uint64_t id) override;
  bool RewriteConfig(const std::string& path, std::string* err) override {
    return RewriteConfigFile(path, core, err);
  }

  // Serves the blocked clients whose timeout passed (the block timer).
  void ServeBlockTimeouts();

 private:
  // The port of the first TCP listener a transport added (INFO tcp_port), 0 when none.
  int64_t TcpPort() const;  // introspection.cc
  void FinishStop();
  // Resumes the unblocked clients (ClientResume).
  void RunUnblocked();
  // Sets the block timer to the earliest blocked client's deadline.
  void ArmBlockTimer();

  bool stopped_ = false;
  bool serving_busy_ = false;     // in ServeWhileBusy: a command is still running
  bool stop_after_busy_ = false;  // Stop was asked for meanwhile: it runs once that returns
  uv_prepare_t before_poll_;
  uv_check_t after_poll_;
  uv_idle_t yielded_idle_;  // active while yielded_writes is not empty: the poll does not sleep
  uv_timer_t cron_;
  uv_timer_t block_timer_;
  int64_t block_timer_due_ = -1;  // the deadline it is set for, -1: stopped
  uv_signal_t sig_int_, sig_term_;
  uv_async_t post_async_;
  std::mutex post_mu_;
  std::vector<std::pair<plinth_task_fn, void*>> posted_;
  std::atomic<bool> accepting_posts_{false};
  uv_async_t notify_async_;
  std::mutex notify_mu_;
  std::deque<Client*> notified_;  // each at most once: queued when its events were 0
};

// Accepts the connections waiting on l (at most 64, so other work gets its turn).
void AcceptConnections(Listener* l);

// Wall clock in ms / us. Any thread.
int64_t WallUs();

}  // namespace plinth::host
