// Dispatch: the request path from a parsed request to its reply. The lookup, the arity, auth
// and ACL checks, the refusals of the server's state (busy, loading, plugins' refusals,
// subscriber mode, pauses, memory), MULTI queueing, the handler, the reply's checks, the
// statistics, the observers and the propagation of the command's effects. Main thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/core/db.h"

struct plinth_plugin;

namespace plinth::host {

class Core;
struct Command;
struct ReplySink;
struct Session;

// A plugin's refusal of a class of commands (server_refuse).
struct Refusal {
  const plinth_plugin* owner;
  uint32_t what;  // PLINTH_REFUSE_*
  std::string error;
};

// One parsed request: argv[0..argc) with lengths, borrowed for the call. cmd is its command
// once Prefetch looked it up, nullptr before (Execute then looks it up). No initializers: an
// array of them for a batch costs nothing until filled.
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

class Dispatch {
 public:
  explicit Dispatch(Core& core) : core_(core) {}

  // Runs one request for session s, its replies going to sink: lookup, arity, auth, the
  // handler, reply checks, statistics and propagation. argv is borrowed for the call.
  void Execute(Session& s, ReplySink& sink, int32_t argc, const char* const* argv,
               const size_t* argvlen);
  void Execute(Session& s, ReplySink& sink, ParsedRequest& r);
  // Looks up the commands of requests [0, n) that s is about to run back to back, filling each
  // cmd, and prefetches their first keys in s's database (Db::Prefetch) so the cache misses of
  // executing them overlap; with bytes, string values' bytes too (for replies copied now).
  // kPrefetchBatch requests at a time is what Db::Prefetch takes.
  static constexpr size_t kPrefetchBatch = kPrefetchKeys;
  void Prefetch(const Session& s, ParsedRequest* reqs, size_t n, bool bytes);
  // Between BeginRun and EndRun, Execute reads the clock once per command: a command's end is
  // the next one's start, and its wall time is the run's start plus the monotonic time since.
  // For requests executed back to back, such as a pipelined batch.
  void BeginRun();
  void EndRun() { run_ = false; }
  // Whether a command's handler is running (at any depth): a client closed now may have its
  // arguments in use, or sit in a plugin's loop, so the shell closes it after it returns.
  bool Executing() const { return exec_depth_ > 0; }
  // The client whose command runs now, 0: none.
  uint64_t running_client() const { return running_client_; }
  // call_yield: lets the env serve the other clients once while caller's command runs on;
  // every command they send without PLINTH_CMD_ALLOW_BUSY gets error. Not re-entered.
  void ServeBusy(const Session& caller, std::string_view error);
  // Sends an error reply of the host itself ("CODE message": unknown command, arity, auth, a
  // protocol error) to sink and counts it.
  void SendError(ReplySink& sink, std::string_view msg);
  // Counts one error reply ("CODE message") in INFO's stats and errorstats.
  void CountErrorReply(std::string_view msg);

  std::vector<Refusal> refusals;  // server_refuse: checked for clients' commands when non-empty

 private:
  // Answers a command refused before it ran (arity, auth, subscriber mode) with msg; inside
  // MULTI it aborts the transaction, and a refused EXEC ends it with EXECABORT.
  void Reject(Session& s, ReplySink& sink, Command* cmd, const std::string& msg);
  // The refusals of a session call_command made (s.run_flags): NOSCRIPT commands from a
  // script, writes from a read-only one. Rejects cmd and returns false when one applies.
  bool RunAllowed(Session& s, ReplySink& sink, Command* cmd);
  // Evicts before a client's command (evict.h); rejects it with Redis's OOM error and returns
  // false when memory stays over maxmemory and cmd may grow it.
  bool MemoryAllows(Session& s, ReplySink& sink, Command* cmd);

  Core& core_;
  int32_t exec_depth_ = 0;       // Execute calls in progress
  uint64_t running_client_ = 0;  // the client whose command runs now
  bool run_ = false;
  bool busy_ = false;          // in ServeBusy: commands without PLINTH_CMD_ALLOW_BUSY refused
  std::string busy_error_;     // what they get
  bool oom_ = false;           // the last client command found memory over maxmemory
  int64_t run_wall_us_ = 0;    // wall clock at BeginRun
  uint64_t run_start_us_ = 0;  // monotonic clock at BeginRun
  uint64_t run_last_us_ = 0;   // monotonic clock at the end of the run's last command
};

}  // namespace plinth::host
