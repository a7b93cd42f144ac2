// The host's core: keyspace, values and types, the command registry and dispatch, options,
// the propagation stream, INFO and the plugin loader. It knows no event loop and no process
// global: one instance, reached through the call, plugin and timer handles it hands out, talks
// to the outside through its Env and each command's ReplySink. Main thread only unless noted.
#pragma once

#include <plinth/plugin.h>

#include <cstdarg>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "host/core/auth.h"
#include "host/core/blocking.h"
#include "host/core/db.h"
#include "host/core/env.h"
#include "host/core/evict.h"
#include "host/core/hooks.h"
#include "host/core/options.h"
#include "host/core/plugins.h"
#include "host/core/propagation.h"
#include "host/core/registry.h"
#include "host/core/session.h"
#include "host/core/stream.h"
#include "host/core/transaction.h"
#include "host/core/value.h"

namespace plinth::host {

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

// One parsed request: argv[0..argc) with lengths, borrowed for the call. cmd is its command
// once Prefetch looked it up, nullptr before (Execute then looks it up). No initializers: an
// array of them for a batch costs nothing until filled.
// A plugin's refusal of a class of commands (server_refuse).
struct Refusal {
  const plinth_plugin* owner;
  uint32_t what;  // PLINTH_REFUSE_*
  std::string error;
};

struct ParsedRequest {
  int32_t argc;
  const char* const* argv;
  const size_t* argvlen;
  Command* cmd;
  // Prefetch hashed the first key, argv[cmd's first_key], to key_hash: the command's lookup of
  // that key reuses it. key_hashed is false until then.
  bool key_hashed;
  uint64_t key_hash;
};

class Core {
 public:
  // A core with no databases yet (CreateDatabases), no plugins and the host's options.
  explicit Core(Env* env);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  Env& env() const { return *env_; }

  // -- options and startup --

  // Registers the core's own options (databases, requirepass, plugin-dir, ...). Returns false
  // with *err when a configured value is invalid.
  bool RegisterOptions(std::string* err);
  // Creates the databases the "databases" option asks for (empty ones replace any present).
  void CreateDatabases();
  // Drops everything owner (a plugin whose init failed) registered, everywhere.
  void Unregister(const std::string& owner);

  // -- commands (dispatch.cc) --

  // Runs one request for session s, its replies going to sink: lookup, arity, auth, the
  // handler, reply checks, statistics and propagation. argv is borrowed for the call.
  void Execute(Session& s, ReplySink& sink, int32_t argc, const char* const* argv,
               const size_t* argvlen);
  void Execute(Session& s, ReplySink& sink, ParsedRequest& r);
  // Looks up the commands of requests [0, n) that s is about to run back to back, filling each
  // cmd, and prefetches their first keys in s's database (Db::Prefetch) so the cache misses of
  // executing them overlap; with bytes, string values' bytes too (for replies copied now).
  // kPrefetchBatch requests at a time is what Db::Prefetch takes.
  static constexpr size_t kPrefetchBatch = Db::kPrefetchKeys;
  void Prefetch(const Session& s, ParsedRequest* reqs, size_t n, bool bytes);
  // call_yield: lets the env serve the other clients once while caller's command runs on;
  // every command they send without PLINTH_CMD_ALLOW_BUSY gets error. Not re-entered.
  void ServeBusy(const Session& caller, std::string_view error);
  // Whether the env asked for a shutdown that waits for the running command (server_stopping).
  bool Stopping() { return env_->Stopping(); }
  // Between BeginRun and EndRun, Execute reads the clock once per command: a command's end is
  // the next one's start, and its wall time is the run's start plus the monotonic time since.
  // For requests executed back to back, such as a pipelined batch.
  void BeginRun();
  void EndRun() { run_ = false; }
  // Whether a command's handler is running (at any depth): a client closed now may have its
  // arguments in use, or sit in a plugin's loop, so the shell closes it after it returns.
  bool Executing() const { return exec_depth_ > 0; }
  // Delivers the stream's pending batch to the active batch consumers, then runs the
  // before-sleep hooks. The shell calls it before it writes replies and before it polls; the
  // fake host after each command. Never inside a command (batches hold whole units).
  void BeforeSleep();
  // Sets the access stamp new keys get (access.h) to now's; each command does it too.
  void RefreshAccessClock() { SetNewEntryStamp(AccessStampAt(evictor.access(), NowMs())); }
  // Deletes key in db because it expired, counting and propagating it as DEL.
  void ExpireKey(int32_t db, std::string_view key);
  // Signals that key in db changed (WATCH and the key change listeners hear it); expiry: it
  // was deleted for its expiry.
  void KeyTouched(int32_t db, std::string_view key, bool expiry = false) {
    if (!watches.empty()) watches.Touched(db, key, dbs[db], expiry);
    if (key_listeners_on != 0) KeyChanged(db, key.data(), key.size());
  }
  // A key was created in db (by any key_* write): wakes the clients blocked on it and raises
  // the "new" keyspace event.
  void KeyCreated(int32_t db, std::string_view key) {
    blocking.Signal(db, key);
    if (!listeners.keyspace_listeners.empty()) Notify(db, PLINTH_NOTIFY_NEW, "new", key);
  }
  // Raises a keyspace event (keyspace_event) for every keyspace listener.
  void Notify(int32_t db, uint32_t type, const char* event, std::string_view key);
  // The core's share of a cron period of period_us (the server's cron, the fake host's clock):
  // the memory peak, the access clock, what eviction left to do, then active expiry within a
  // quarter of the period.
  void CronTick(int64_t period_us);
  // One active-expiry pass over every database within budget_us. Returns keys expired.
  uint64_t ActiveExpireCycle(int64_t budget_us);
  // Moves resizes in progress along for up to budget_us (like Redis's activerehashing), so an
  // idle server finishes them too.
  void ActiveRehash(int64_t budget_us);
  // Counts one error reply ("CODE message") in INFO's stats and errorstats.
  void CountErrorReply(std::string_view msg);
  // Sends an error reply of the host itself ("CODE message": unknown command, arity, auth, a
  // protocol error) to sink and counts it.
  void SendError(ReplySink& sink, std::string_view msg);

  // -- access control (auth.h, acl.cc) --

  Auth auth;

  // -- blocking commands (blocking.cc) --

  // Runs the commands of sessions blocked on the keys signalled ready, in blocking order, until
  // no key is ready. Execute calls it after each top-level command.
  void ServeBlocked();
  // Runs the commands of blocked sessions whose deadline is at or before now_ms with
  // PLINTH_BLOCK_TIMEOUT, then serves ready keys.
  void ServeTimeouts(int64_t now_ms);
  // A session's client went away: forget its wait, tell the client listeners.
  void SessionClosed(Session& s);
  // Tells the client listeners PLINTH_CLIENT_* event of s.
  void ClientEvent(const Session& s, uint32_t event);
  // client_wake: the session with that id, blocked (on no key or any), runs its command again
  // with PLINTH_BLOCK_WOKEN, now or, inside a command, once the top-level one returns. False
  // when no blocked session has that id.
  bool Wake(uint64_t id);
  // call_block from a woken run: the session stays blocked.
  void NoteReblocked() { rerun_reblocked_ = true; }

  // -- client pauses (pause.cc) --

  // Sets owner's pause (clients_pause); when less is held than before, the held commands run
  // again in the order they were held.
  void SetPause(const std::string& owner, uint32_t what, int64_t end_ms);
  // A pause holds writes now: keys neither expire nor get evicted.
  bool WritesPaused();

  // -- command observers (observe.cc) --

  // Recomputes the lowest threshold of the observers that are on.
  void CountObservers();
  int64_t next_observer_id = 0;

  // -- key change listeners (key_changes.cc) --

  // Tells the key change listeners that are on that key in db changed (key nullptr: db was
  // emptied, -1 every db), during running_client's command.
  void KeyChanged(int32_t db, const char* key, size_t klen);
  // Database db (-1: all) is being emptied: the key change listeners hear it (WATCH hears it
  // through Watches::Replacing).
  void DbsFlushing(int32_t db) {
    if (key_listeners_on != 0) KeyChanged(db, nullptr, 0);
  }
  int32_t key_listeners_on = 0;  // listeners that are on
  int64_t next_key_listener_id = 0;
  uint64_t running_client = 0;  // the client whose command runs now, 0: none

  // -- INFO (info.cc) --

  // The INFO text for section ("" default set, "all", "everything", or one section name).
  std::string RenderInfo(std::string_view section);

  // -- time and logging --

  int64_t NowUs() const { return env_->NowUs(); }
  int64_t NowMs() const { return env_->NowUs() / 1000; }
  void Log(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
  // Debug builds abort when a main-thread-only host function runs on another thread; release
  // builds compile it away.
#ifndef NDEBUG
  void AssertMainThread(const char* function) const;
#else
  void AssertMainThread(const char*) const {}
#endif

  // -- state (main thread) --

  Registry registry;    // the command table
  Endpoints endpoints;  // the protocol, the transports, the reply path
  Listeners listeners;  // stream consumers, hooks, INFO sections, listeners, observers
  Options options;
  Types types;
  Plugins plugins{*this};  // loaded in load order (plugins.h)
  std::vector<Db> dbs;
  Stats stats;
  Evictor evictor{*this};  // maxmemory
  uint64_t dirty = 0;
  Watches watches;
  Blocking blocking;
  int64_t start_ms = 0;
  int64_t startup_memory = 0;  // the allocator's figure once the server was up
  int64_t peak_memory = 0;     // the highest one MemoryNow saw
  // The allocator's figure now (Env::UsedMemory), kept in peak_memory when highest.
  int64_t MemoryNow() {
    const int64_t used = env_->UsedMemory();
    if (used > peak_memory) peak_memory = used;
    return used;
  }
  Propagation propagation{listeners};  // the stream and the units of the commands feeding it
  int32_t loaders = 0;                 // plugins loading now (server_set_loading): -LOADING
  uint32_t shutdown_flags = 0;         // the shutdown under way's PLINTH_SHUTDOWN_* flags
  int32_t child_pid = 0;               // the snapshot child fork_child made, 0: none
  // Ids of internal clients count down from the top, away from the network clients' ids.
  uint64_t next_internal_id = ~uint64_t{0};
  std::vector<Refusal> refusals;  // server_refuse: checked for clients' commands when non-empty
  bool expiry_passive = false;    // server_expiry_passive: keys expire by the stream's DEL only
  bool active_expire = true;      // server_active_expire (DEBUG SET-ACTIVE-EXPIRE)
  char run_id[41] = {};           // INFO run_id: random hex, set at construction
  std::string executable;
  std::string config_file;

 private:
  Env* env_;
  std::thread::id main_thread_;
  bool run_ = false;
  // Answers a command refused before it ran (arity, auth, subscriber mode) with msg; inside
  // MULTI it aborts the transaction, and a refused EXEC ends it with EXECABORT.
  void Reject(Session& s, ReplySink& sink, Command* cmd, const std::string& msg);
  // The refusals of a session call_command made (s.run_flags): NOSCRIPT commands from a
  // script, writes from a read-only one. Rejects cmd and returns false when one applies.
  bool RunAllowed(Session& s, ReplySink& sink, Command* cmd);
  // Runs s's blocked command again with call_block_state state; unblocks s unless it blocked
  // again from a woken run.
  void Rerun(Session& s, int32_t state);
  Command* exec_cmd_ = nullptr;              // the host's EXEC
  int32_t exec_depth_ = 0;                   // Execute calls in progress
  int32_t rerun_state_ = PLINTH_BLOCK_NONE;  // the next Execute is a rerun of a blocked one
  bool rerun_reblocked_ = false;
  bool serving_ = false;    // in ServeBlocked
  bool busy_ = false;       // in ServeBusy: commands without PLINTH_CMD_ALLOW_BUSY refused
  std::string busy_error_;  // what they get
  bool oom_ = false;        // the last client command found memory over maxmemory
  // The plugins' pauses, by plugin.
  struct Pause {
    uint32_t what;
    int64_t end_ms;
  };
  std::map<std::string, Pause> pauses_;
  // The strictest pause in force at now_ms and the latest end of those in force (*end_ms),
  // forgetting the pauses that ended.
  uint32_t PauseInForce(int64_t now_ms, int64_t* end_ms);
  // Whether a pause holds cmd from s now, and until when (*end_ms).
  bool PauseHolds(const Session& s, const Command* cmd, int64_t* end_ms);
  // Holds s's command r until end_ms (a blocked command with no key).
  void Hold(Session& s, ReplySink& sink, const ParsedRequest& r, int64_t end_ms);
  // Commands that ran at least this long are observed (the lowest threshold of the observers
  // that are on; INT64_MAX: none is).
  int64_t observe_min_us_ = INT64_MAX;
  // Tells the observers whose threshold duration_us reaches that call ran.
  void Observe(const Session& s, const plinth_call& call, int64_t duration_us);
  // Evicts before a client's command (evict.h); rejects it with Redis's OOM error and returns
  // false when memory stays over maxmemory and cmd may grow it.
  bool MemoryAllows(Session& s, ReplySink& sink, Command* cmd);
  int64_t run_wall_us_ = 0;    // wall clock at BeginRun
  uint64_t run_start_us_ = 0;  // monotonic clock at BeginRun
  uint64_t run_last_us_ = 0;   // monotonic clock at the end of the run's last command
};

}  // namespace plinth::host

// A plugin as the host knows it; plinth_plugin_t* points to one.
struct plinth_plugin {
  plinth::host::Core* core = nullptr;
  std::string path;
  std::string name;
  plinth_plugin_descriptor_t descriptor{};  // the host's zero-filled copy of the plugin's
  void* handle = nullptr;
  bool optional = false;
  std::vector<plinth_timer_t*> init_timers;  // started during init: stopped if init fails
  std::string init_warning;                  // the last warning it logged during init
};
