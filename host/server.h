// The server's state: the main loop, registry, options, databases, clients and statistics.
// One instance, reached through Srv(); everything here is main-thread only unless noted.
#pragma once

#include <uv.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/db.h"
#include "host/options.h"
#include "host/registry.h"

namespace plinth::host {

struct Client;

struct Stats {
  uint64_t commands = 0;
  uint64_t connections_received = 0;
  uint64_t rejected_connections = 0;
  uint64_t expired_keys = 0;
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t net_input_bytes = 0;
  uint64_t net_output_bytes = 0;
  uint64_t error_replies = 0;
  uint64_t unknown_commands = 0;
  uint64_t query_buffer_disconnections = 0;
  uint64_t output_buffer_disconnections = 0;
  uint64_t timeout_disconnections = 0;
  std::unordered_map<std::string, uint64_t> errors;  // error code -> count
};

// Limits read from options, refreshed when one changes.
struct Limits {
  int64_t maxclients = 10000;
  int64_t timeout_s = 0;
  int64_t query_buffer = 1LL << 30;
  int64_t out_hard = 0, out_soft = 0, out_soft_seconds = 0;  // normal class
  bool protected_mode = true;
  bool has_password = false;
  int64_t hz = 10;
};

struct Listener {
  int32_t transport_id;
  int32_t fd;
  std::string description;
  uv_poll_t poll;
};

struct Server {
  uv_loop_t* loop = nullptr;
  Registry registry;
  Options options;
  std::vector<std::unique_ptr<plinth_plugin>> plugins;
  plinth_plugin* loading = nullptr;  // plugin whose init is running
  std::vector<Db> dbs;
  std::unordered_map<uint64_t, Client*> clients;
  uint64_t next_client_id = 1;
  std::vector<Client*> pending_writes;
  std::vector<Listener*> listeners;
  Stats stats;
  Limits limits;
  uint64_t dirty = 0;
  int64_t start_ms = 0;
  std::string executable;
  std::string config_file;
  bool started = false;
  bool shutting_down = false;

  uv_prepare_t before_poll;
  uv_timer_t cron;
  uv_signal_t sig_int, sig_term;
  uv_async_t post_async;
  std::mutex post_mu;
  std::vector<std::pair<plinth_task_fn, void*>> posted;
  std::atomic<bool> accepting_posts{false};
};

Server& Srv();

// Wall clock in ms / us. Any thread.
int64_t NowMs();
int64_t NowUs();

// Registers the host's own options (databases, maxclients, timeout, ...). Returns false with
// *err when a configured value is invalid.
bool RegisterHostOptions(std::string* err);

// Debug builds abort when a main-thread-only host function runs on another thread; release
// builds compile it away.
#ifndef NDEBUG
void AssertMainThread(const char* function);
#else
inline void AssertMainThread(const char*) {}
#endif

// Prepares the loop, databases and handles. Call once before loading plugins.
void ServerInit();
// Starts the transports and runs the loop until shutdown. Returns the exit code.
int ServerRun();
// Begins a clean shutdown from the main thread (SIGTERM, SHUTDOWN).
void ServerStop();
// Adds a listening fd of a transport. Returns PLINTH_OK or PLINTH_ERR.
int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description);
// Runs the posted tasks (main thread).
void RunPostedTasks();
// Runs the shutdown hooks of the loaded plugins in reverse load order.
void ShutdownPlugins();

}  // namespace plinth::host
