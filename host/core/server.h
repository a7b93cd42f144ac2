// The server process as the core sees it: its env, clock and log, the main thread, the
// statistics and facts INFO reports, the memory figures, the core's own options, the cron's
// share and the before-sleep pass. Main thread only unless noted.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "host/core/env.h"

namespace plinth::host {

class Core;

struct Stats {
  uint64_t commands = 0;
  uint64_t connections_received = 0;
  uint64_t rejected_connections = 0;
  uint64_t expired_keys = 0;
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t net_input_bytes = 0;
  uint64_t net_output_bytes = 0;
  uint64_t reply_bytes_referenced = 0;  // string values replied by reference (the reply path)
  uint64_t reply_bytes_copied = 0;      // string values copied into output buffers
  uint64_t error_replies = 0;
  uint64_t unknown_commands = 0;
  uint64_t query_buffer_disconnections = 0;
  uint64_t output_buffer_disconnections = 0;
  uint64_t timeout_disconnections = 0;
  std::unordered_map<std::string, uint64_t> errors;  // error code -> count
};

// What the process is doing and was started as.
struct ServerState {
  int64_t start_ms = 0;
  int64_t startup_memory = 0;   // the allocator's figure once the server was up
  int64_t peak_memory = 0;      // the highest one MemoryNow saw
  int32_t loaders = 0;          // plugins loading now (server_set_loading): -LOADING
  uint32_t shutdown_flags = 0;  // the shutdown under way's PLINTH_SHUTDOWN_* flags
  int32_t child_pid = 0;        // the snapshot child fork_child made, 0: none
  // Ids of internal clients count down from the top, away from the network clients' ids.
  uint64_t next_internal_id = ~uint64_t{0};
  char run_id[41] = {};  // INFO run_id: random hex, set at construction
  std::string executable;
  std::string config_file;
};

class Server {
 public:
  Server(Core& core, const Env& env);

  // The ports the core reaches the world through (env.h).
  const Env& env() const { return env_; }
  // The env's wall clock in unix ms.
  int64_t NowMs() const { return env_.clock->NowUs() / 1000; }
  void Log(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
  // Debug builds abort when a main-thread-only host function runs on another thread; release
  // builds compile it away.
#ifndef NDEBUG
  void AssertMainThread(const char* function) const;
#else
  void AssertMainThread(const char*) const {}
#endif
  // Registers the core's own options (databases, requirepass, plugin-dir, maxmemory, ...).
  // Returns false with *err when a configured value is invalid.
  bool RegisterOptions(std::string* err);
  // Delivers the stream's pending batch to the active batch consumers, then runs the
  // before-sleep hooks. The shell calls it before it writes replies and before it polls; the
  // fake host after each command. Never inside a command (batches hold whole units).
  void BeforeSleep();
  // The core's share of a cron period of period_us (the server's cron, the fake host's clock):
  // the memory peak, the access clock, what eviction left to do, then active expiry within a
  // quarter of the period.
  void CronTick(int64_t period_us);
  // The INFO text for section ("" default set, "all", "everything", or one section name).
  std::string RenderInfo(std::string_view section);
  // The allocator's figure now (Memory::UsedMemory), kept in state.peak_memory when highest.
  int64_t MemoryNow() {
    const int64_t used = env_.memory->UsedMemory();
    if (used > state.peak_memory) state.peak_memory = used;
    return used;
  }

  Stats stats;
  ServerState state;

 private:
  Core& core_;
  Env env_;
  std::thread::id main_thread_;
};

}  // namespace plinth::host
