// What the core needs from the world around it, as ports: one small interface per concept (the
// clock, the log, timers and tasks, the transports' connections, the connected clients, memory,
// the server process), and Env, the record of the ports a core uses. The server's shell
// implements them over libuv; the fake host implements them with a manual clock and captured
// logs. Main thread only unless noted.
#pragma once

#include <plinth/plugin.h>
#include <time.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace plinth::host {
class Scheduler;
class Connections;
struct Session;
}  // namespace plinth::host

// A timer a scheduler started; schedulers keep their own state in a struct derived from it.
struct plinth_timer {
  plinth::host::Scheduler* scheduler = nullptr;
  plinth_timer_fn fn = nullptr;
  void* arg = nullptr;
};

// The host's side of a transport connection: the connections port that drives it and that
// port's record of it (the shell's Client).
struct plinth_conn {
  plinth::host::Connections* connections = nullptr;
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

// The clock. Any thread.
class Clock {
 public:
  virtual ~Clock() = default;
  // Wall clock in unix microseconds (the manual clock in the fake host).
  virtual int64_t NowUs() = 0;
};

// Where log lines go. Any thread.
class LogSink {
 public:
  virtual ~LogSink() = default;
  // Writes one log line; plugin is the writer's name ("" for the host).
  virtual void Log(LogLevel level, std::string_view plugin, std::string_view text) = 0;
};

// Timers and tasks run on the main thread.
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Starts a timer that calls fn(arg) after ms, then every repeat_ms when repeat_ms > 0.
  // OWNERSHIP: the scheduler owns the timer until TimerStop; its scheduler field points back
  // here.
  virtual plinth_timer_t* TimerStart(uint64_t ms, uint64_t repeat_ms, plinth_timer_fn fn,
                                     void* arg) = 0;
  // Stops and frees a timer TimerStart returned.
  virtual void TimerStop(plinth_timer_t* timer) = 0;
  // Queues fn(arg) to run on the main thread. PLINTH_ERR once shutdown began. Any thread.
  virtual int32_t Post(plinth_task_fn fn, void* arg) = 0;
};

// The transports' side of the host (transport.h of the ABI): their listening sockets, their
// connections' events, and the raw output of a client by id. An env without transports (the
// fake host) refuses or ignores all of it.
class Connections {
 public:
  virtual ~Connections() = default;
  // A transport's listening fd (listener_add). PLINTH_ERR when there is no event loop.
  virtual int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description) = 0;
  // conn_notify of a transport connection (ABI contract in plugin.h). Any thread.
  virtual void ConnNotify(plinth_conn_t*, uint32_t) {}
  // conn_released of a transport connection (ABI contract in plugin.h). Any thread.
  virtual void ConnReleased(plinth_conn_t*, uint64_t) {}
  // client_write_raw (contract in plugin.h) for the client with that id.
  virtual int32_t WriteRaw(uint64_t, const char*, size_t) { return PLINTH_ERR; }
  // client_output_pending: the bytes queued for the client with that id, -1 when there is none.
  virtual int64_t OutputPending(uint64_t) { return -1; }
  // client_close for the client with that id: now, or once its output is written.
  virtual int32_t CloseClient(uint64_t, bool) { return PLINTH_ERR; }
};

// The connected clients as the core sees them: their sessions, CLIENT LIST and KILL, pushes.
class ClientDirectory {
 public:
  virtual ~ClientDirectory() = default;
  // CLIENT LIST lines: the client id (0: every client, in id order), one emit per line.
  virtual void DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) = 0;
  // The peer address of client id as CLIENT LIST's addr= shows it, "" when unknown.
  virtual std::string ClientAddr(uint64_t /*id*/) { return std::string(); }
  // Closes the clients matching filter/value (PLINTH_KILL_*); caller, when it matches, closes
  // after its reply. Returns how many matched.
  virtual int64_t KillClients(Session* caller, uint32_t filter, std::string_view value) = 0;
  // Calls fn with the session of every connected client (acl_user_update).
  virtual void ForEachSession(const std::function<void(Session&)>& fn) = 0;
  // The session of the connected client with that id, or nullptr (client_info_int). The
  // default walks ForEachSession; a directory with many clients finds it by id.
  virtual Session* FindSession(uint64_t id);
  // A blocked session got its reply (or timed out): its later commands may run now. The core
  // calls it while serving, so the directory only queues the session for its next pass.
  virtual void ClientUnblocked(Session&) {}
  // Sends one complete reply (client_push) to the client with that id. PLINTH_ERR when there
  // is none.
  virtual int32_t PushToClient(uint64_t, const plinth_reply_item_t*, size_t) { return PLINTH_ERR; }
};

// The process's memory as the allocator and the clients' buffers hold it.
class Memory {
 public:
  virtual ~Memory() = default;
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
};

// The server process around the core: its shutdown, its config file, its INFO fields, and
// serving the other clients while a command runs long.
class Process {
 public:
  virtual ~Process() = default;
  // SHUTDOWN: begins a clean stop once the current command returns.
  virtual void RequestShutdown() = 0;
  // Whether a shutdown was asked for and has not finished yet (server_stopping).
  virtual bool Stopping() { return false; }
  // call_yield: serves the other clients once, without blocking, while the command running for
  // client caller goes on (Dispatch::ServeBusy refuses what they run). A shutdown asked for
  // meanwhile waits until that command returns.
  virtual void ServeWhileBusy(uint64_t /*caller*/) {}
  // CONFIG REWRITE: writes the options back to the config file at path (config_rewrite's
  // contract in plugin.h). Returns false with a reason in *err; a process without config files
  // refuses.
  virtual bool RewriteConfig(const std::string& /*path*/, std::string* err) {
    *err = "this server cannot rewrite its config file";
    return false;
  }
  // Appends the process's fields of an INFO section ("clients", "memory", "server",
  // "io_threads", and "listeners": tcp_port, the port of the first TCP listener a transport
  // added) to out, in INFO lines (InfoLine).
  virtual void InfoFields(std::string_view section, std::string* out) = 0;
};

// The ports a core uses, none null. OWNERSHIP: borrowed; they outlive the core.
struct Env {
  Clock* clock;
  LogSink* log;
  Scheduler* scheduler;
  Connections* connections;
  ClientDirectory* clients;
  Memory* memory;
  Process* process;
};

}  // namespace plinth::host
