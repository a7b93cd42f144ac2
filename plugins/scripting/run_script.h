// Running one EVAL script or FCALL function to its reply: KEYS/ARGV (or the callback's two
// tables), the count hook that serves other clients and obeys SCRIPT/FUNCTION KILL, the
// error handler, and the reply (the return value converted, or Redis's error text).
// THREAD: main.
#ifndef PLINTH_SCRIPTING_RUN_SCRIPT_H
#define PLINTH_SCRIPTING_RUN_SCRIPT_H

#include <plinth/plugin.h>

#include <string>
#include <string_view>
#include <vector>

#include "scripting/lua_reply.h"
#include "scripting/runtime.h"

namespace plinth::scripting {

// The error texts both EVAL's and FCALL's families send.
inline constexpr std::string_view kErrOutOfMemory = "ERR out of memory";
inline constexpr std::string_view kErrBadNumkeys = "ERR Bad number of keys provided";
inline constexpr std::string_view kErrNumkeysNegative = "ERR Number of keys can't be negative";
inline constexpr std::string_view kErrWriteInReadOnly =
    "ERR Can not execute a script with write flag using *_ro command.";

// A ReplySink that answers a host call.
class CallSink : public ReplySink {
 public:
  explicit CallSink(plinth_call_t* call) : call_(call) {}
  void Simple(const char* s, size_t len) override;
  void Error(const char* s, size_t len) override;
  void Integer(int64_t v) override;
  void Bulk(const char* s, size_t len) override;
  void Null() override;
  void Array(int64_t n) override;
  void Map(int64_t n) override;
  void Set(int64_t n) override;
  void Double(double v) override;
  void Bool(bool v) override;
  void Verbatim(const char* fmt, const char* s, size_t len) override;
  void BigNumber(const char* s, size_t len) override;
  bool replied() const { return replied_; }

 private:
  plinth_call_t* call_;
  bool replied_ = false;
};

// What to run: an EVAL script (registry key "f_<sha>") or a library's function.
struct RunTarget {
  bool eval = true;
  std::string key;       // eval: "f_<sha>"; function: the library name
  std::string function;  // function: its registered name
};

// Runs target in run (set up by the caller: call, name, flags, db) with keys and args, and
// replies on sink. Sets rt's current run for the duration.
void RunScript(Runtime* rt, Run* run, const RunTarget& target,
               const std::vector<std::string_view>& keys, const std::vector<std::string_view>& args,
               ReplySink* sink);

// Formats a Lua error for the reply: Redis's luaCallFunction rules. Pure.
std::string ScriptErrorText(const std::string& name, bool is_table, const char* msg,
                            const char* source, const char* line);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_RUN_SCRIPT_H
