// The scripting plugin's state: the two Lua states (EVAL scripts, FUNCTION libraries), the
// script cache, the function libraries, the options and the run in progress; and what Lua's C
// functions need from the host (redis.call's nested command, the busy-script hook, logging).
// Its methods never call into Lua unless they say so. THREAD: main.
#ifndef PLINTH_SCRIPTING_RUNTIME_H
#define PLINTH_SCRIPTING_RUNTIME_H

#include <plinth/plugin.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scripting/lua_reply.h"
#include "scripting/lua_sandbox.h"

namespace plinth::scripting {

inline constexpr uint32_t kReplAof = 1;
inline constexpr uint32_t kReplReplica = 2;
inline constexpr uint32_t kReplAll = 3;

inline constexpr const char* kBusyEval =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
inline constexpr const char* kBusyFunction =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

// One EVAL or FCALL execution.
struct Run {
  plinth_call_t* call = nullptr;
  bool is_eval = true;
  std::string name;  // the script's sha1, or the function's name
  bool read_only = false;
  bool wrote = false;      // ran a write command (SCRIPT KILL refuses then)
  bool timed_out = false;  // past busy-reply-threshold: serving others between hooks
  bool killed = false;
  int resp = 2;              // redis.setresp
  uint32_t repl = kReplAll;  // redis.set_repl
  int32_t db = 0;            // the database redis.call runs in (SELECT changes it)
  int64_t start_us = 0;
  // Scratch for redis.call: the nested reply and a refusal's text.
  std::vector<ReplyItem> items;
  std::string arena;
  std::string error;
};

enum class CallOutcome { kRefused, kOk, kError };

// A script of the EVAL cache.
struct CachedScript {
  std::string body;
  uint32_t flags = 0;
};

// A function of a loaded library.
struct FunctionInfo {
  std::string name;
  std::string library;
  std::string description;
  bool has_description = false;
  uint32_t flags = 0;
};

struct LibraryInfo {
  std::string name;
  std::string code;
  std::vector<std::string> functions;  // in registration order
};

class Runtime {
 public:
  Runtime();
  ~Runtime();
  // Creates both Lua states. false when memory ran out.
  bool Init();

  lua_State* eval_vm() const { return eval_vm_; }
  lua_State* function_vm() const { return function_vm_; }
  Run* current() const { return current_; }
  void set_current(Run* run) { current_ = run; }
  LuaMemory& eval_memory() { return eval_mem_; }
  LuaMemory& function_memory() { return function_mem_; }

  // -- EVAL's script cache --
  const CachedScript* FindScript(const std::string& sha) const;
  // Compiles body (sha its SHA-1) into the EVAL state's registry and caches it. On a shebang
  // or compile error returns false with the reply text in *error. Calls into Lua.
  bool AddScript(const std::string& sha, const std::string& body, std::string* error);
  size_t ScriptCount() const { return scripts_.size(); }
  // Empties the cache and recreates the EVAL state (SCRIPT FLUSH). Calls into Lua.
  bool FlushScripts();

  // -- FUNCTION libraries --
  std::map<std::string, LibraryInfo>& libraries() { return libraries_; }
  // Functions by lower-cased name (FCALL is case-insensitive).
  std::map<std::string, FunctionInfo>& functions() { return functions_; }
  // Collects a function while FUNCTION LOAD runs a library's code. Returns an error text or
  // nullptr.
  const char* RegisterFunction(const char* name, size_t nlen, const char* desc, size_t dlen,
                               uint32_t flags);
  std::vector<FunctionInfo>& loading() { return loading_; }

  // -- what Lua's C functions call --

  // redis.call's checks and nested command: items go to run->items / run->arena, a refusal's
  // text (Redis's words) to run->error.
  CallOutcome Execute(Run* run, int argc, const char* const* argv, const size_t* lens) noexcept;
  bool CommandExists(const char* name, size_t len) noexcept;
  void Log(int level, const char* text, size_t len) noexcept;
  // The count hook's work: past the threshold, serves other clients once. Returns true when
  // the script must stop (SCRIPT KILL, FUNCTION KILL, shutdown).
  bool OnHook(Run* run) noexcept;

  // A run just ended: true once every kGcPeriod runs, when the caller takes an incremental
  // collection step of that many KB, so garbage stays bounded without a step on every call.
  static constexpr int kGcPeriod = 50;
  bool GcDue() {
    if (++runs_since_gc_ < kGcPeriod) return false;
    runs_since_gc_ = 0;
    return true;
  }
  // After a run or a library load in L (whose allocator counts into mem): a full collection
  // when more than half of scripting.max-memory is in use and a quarter of it was allocated
  // since the last one. Lua 5.1 does not collect when an allocation fails, so the garbage of
  // one large script would otherwise fail every later script (and SCRIPT FLUSH) with "not
  // enough memory"; the second condition keeps libraries that hold much live data from being
  // collected after every FCALL. Calls into Lua.
  static void CollectIfNearLimit(lua_State* L, LuaMemory& mem);

  // Lends run the redis.call scratch buffers of earlier runs (their capacity kept), and takes
  // them back once it ended, so a run allocates nothing for them.
  void LendScratch(Run* run) {
    run->items.swap(spare_items_);
    run->arena.swap(spare_arena_);
  }
  void TakeScratch(Run* run) {
    spare_items_.swap(run->items);
    spare_arena_.swap(run->arena);
  }

  // Options.
  int64_t busy_reply_ms = 5000;

 private:
  lua_State* eval_vm_ = nullptr;
  lua_State* function_vm_ = nullptr;
  LuaMemory eval_mem_;
  LuaMemory function_mem_;
  Run* current_ = nullptr;
  int runs_since_gc_ = 0;
  std::vector<ReplyItem> spare_items_;
  std::string spare_arena_;
  std::map<std::string, CachedScript> scripts_;
  std::map<std::string, LibraryInfo> libraries_;
  std::map<std::string, FunctionInfo> functions_;
  std::vector<FunctionInfo> loading_;
};

// The plugin's runtime (created at init, destroyed at shutdown), or nullptr.
Runtime* TheRuntime();
void SetRuntime(Runtime* rt);

// Monotonic microseconds.
int64_t NowUs();

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_RUNTIME_H
