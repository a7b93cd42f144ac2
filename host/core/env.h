// What the core needs from the world around it: a clock, a log sink, timers, cross-thread
// tasks, listeners, the connected clients and a shutdown request. The server's shell implements
// it over libuv; the fake host implements it with a manual clock and captured logs. Main
// thread only unless noted.
#pragma once

#include <plinth/plugin.h>
#include <time.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace plinth::host {
class Env;
struct Session;
}  // namespace plinth::host

// A timer an env started; envs keep their own state in a struct derived from it.
struct plinth_timer {
  plinth::host::Env* env = nullptr;
  plinth_timer_fn fn = nullptr;
  void* arg = nullptr;
};

// The host's side of a transport connection: the env that drives it and that env's record of
// it (the shell's Client).
struct plinth_conn {
  plinth::host::Env* env = nullptr;
  void* owner = nullptr;
};

namespace plinth::host {

// The monotonic clock in microseconds (real time, also in the fake host). Any thread.
inline uint64_t MonoUs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

enum class LogLevel : uint32_t { kDebug = 0, kVerbose = 1, kNotice = 2, kWarning = 3 };

class Env {
 public:
  virtual ~Env() = default;

  // Wall clock in unix microseconds (the manual clock in the fake host). Any thread.
  virtual int64_t NowUs() = 0;
  // Writes one log line; plugin is the writer's name ("" for the host). Any thread.
  virtual void Log(LogLevel level, std::string_view plugin, std::string_view text) = 0;

  // Starts a timer that calls fn(arg) after ms, then every repeat_ms when repeat_ms > 0.
  // OWNERSHIP: the env owns the timer until TimerStop; its env field points back here.
  virtual plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                                     void* arg) = 0;
  virtual void TimerStop(plinth_timer_t* timer) = 0;
  // Queues fn(arg) to run on the main thread. PLINTH_ERR once shutdown began. Any thread.
  virtual int32_t Post(plinth_task_fn fn, void* arg) = 0;
  // A transport's listening fd (listener_add). PLINTH_ERR when there is no event loop.
  virtual int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description) = 0;

  // CLIENT LIST lines: the client id (0: every client, in id order), one emit per line.
  virtual void DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) = 0;
  // The peer address of client id as CLIENT LIST's addr= shows it, "" when unknown.
  virtual std::string ClientAddr(uint64_t /*id*/) { return std::string(); }
  // Closes the clients matching filter/value (PLINTH_KILL_*); caller, when it matches, closes
  // after its reply. Returns how many matched.
  virtual int64_t KillClients(Session* caller, uint32_t filter, std::string_view value) = 0;
  // SHUTDOWN: begins a clean stop once the current command returns.
  virtual void RequestShutdown() = 0;

  // Bytes the allocator has handed out and not taken back (INFO used_memory). Any thread.
  virtual int64_t UsedMemory() = 0;
  // Of those, what maxmemory does not count: replicas' output buffers (as Redis).
  virtual int64_t NotCountedMemory() { return 0; }
  // What the clients' query and output buffers hold, replicas' included.
  virtual int64_t ClientMemory() { return 0; }
  // The process's resident set (INFO used_memory_rss).
  virtual int64_t RssMemory() { return 0; }
  // MEMORY PURGE: returns the allocator's free pages to the system.
  virtual void ReleaseFreeMemory() {}
  // maxmemory changed (0: none): under a limit the allocator keeps less memory to itself.
  virtual void AllocatorLimit(int64_t /*maxmemory*/) {}
  // MEMORY MALLOC-STATS: the allocator's own report.
  virtual std::string AllocatorStats() { return "Stats not supported for the current allocator"; }

  // Appends the env's fields of an INFO section ("clients", "memory", "server", and
  // "listeners": tcp_port, the port of the first TCP listener a transport added) to out, in
  // INFO lines (InfoLine).
  virtual void InfoFields(std::string_view section, std::string* out) = 0;

  // conn_notify and conn_released of a transport connection (ABI contracts in plugin.h). Any
  // thread. An env without transports (the fake host) ignores them.
  virtual void ConnNotify(plinth_conn_t*, uint32_t) {}
  // A blocked session got its reply (or timed out): its later commands may run now. The core
  // calls it while serving, so the env only queues the session for its next pass.
  virtual void ClientUnblocked(Session&) {}
  // Sends one complete reply (client_push) to the client with that id. PLINTH_ERR when there
  // is none.
  virtual int32_t PushToClient(uint64_t, const plinth_reply_item_t*, size_t) { return PLINTH_ERR; }
  virtual void ConnReleased(plinth_conn_t*, uint64_t) {}
  // client_write_raw, client_output_pending and client_close (contracts in plugin.h) for the
  // client with that id. An env without connections has no such client.
  virtual int32_t WriteRaw(uint64_t, const char*, size_t) { return PLINTH_ERR; }
  virtual int64_t OutputPending(uint64_t) { return -1; }
  virtual int32_t CloseClient(uint64_t, bool) { return PLINTH_ERR; }
  // call_yield: serves the other clients once, without blocking, while the command running for
  // client caller goes on (Core::ServeBusy refuses what they run). A shutdown asked for
  // meanwhile waits until that command returns.
  virtual void ServeWhileBusy(uint64_t /*caller*/) {}
  // Whether a shutdown was asked for and has not finished yet (server_stopping).
  virtual bool Stopping() { return false; }
  // CONFIG REWRITE: writes the options back to the config file at path (config_rewrite's
  // contract in plugin.h). Returns false with a reason in *err; an env without config files
  // refuses.
  virtual bool RewriteConfig(const std::string& /*path*/, std::string* err) {
    *err = "this server cannot rewrite its config file";
    return false;
  }
  // Calls fn with the session of every connected client (acl_user_update).
  virtual void ForEachSession(const std::function<void(Session&)>& fn) = 0;
  // The session of the connected client with that id, or nullptr (client_info_int). The
  // default walks ForEachSession; an env with many clients finds it by id.
  virtual Session* FindSession(uint64_t id);
};

}  // namespace plinth::host
