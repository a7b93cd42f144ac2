// The scripting plugin: Lua scripts (EVAL, EVALSHA, their _RO forms, SCRIPT) and functions
// (FUNCTION, FCALL, FCALL_RO) with Redis 7.0 semantics. This file declares the commands and
// options and owns the Runtime's lifetime.
#include <limits>

#include "common/acl_keys.h"
#include "common/options.h"
#include "scripting/handlers.h"
#include "scripting/runtime.h"

namespace plinth::scripting {
namespace {

constexpr uint32_t kScriptCmd = PLINTH_CMD_NOSCRIPT | PLINTH_CMD_STALE | PLINTH_CMD_NOPROPAGATE;
constexpr uint32_t kAdmin = PLINTH_CMD_NOSCRIPT | PLINTH_CMD_ALLOW_BUSY | PLINTH_CMD_STALE;

// EVAL's keys are counted by its numkeys argument; the host's fixed key positions cannot say
// that, so the specs declare none.
const sdk::CommandDef kCommands[] = {
    {"eval", -3, kScriptCmd | PLINTH_CMD_DENYOOM | PLINTH_CMD_MAY_REPLICATE, 0, 0, 0, Eval,
     "scripting", "script numkeys [key [key ...]] [arg [arg ...]]",
     "Execute a Lua script server side", "2.6.0", PLINTH_ACL_SCRIPTING, 0,
     &common::KeysAfterNumkeys<2, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
    {"evalsha", -3, kScriptCmd | PLINTH_CMD_DENYOOM | PLINTH_CMD_MAY_REPLICATE, 0, 0, 0, EvalSha,
     "scripting", "sha1 numkeys [key [key ...]] [arg [arg ...]]",
     "Execute a Lua script server side", "2.6.0", PLINTH_ACL_SCRIPTING, 0,
     &common::KeysAfterNumkeys<2, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
    {"eval_ro", -3, kScriptCmd | PLINTH_CMD_READONLY, 0, 0, 0, EvalRo, "scripting",
     "script numkeys [key [key ...]] [arg [arg ...]]", "Execute a read-only Lua script server side",
     "7.0.0", PLINTH_ACL_SCRIPTING, 0, &common::KeysAfterNumkeys<2, PLINTH_KEY_READ>},
    {"evalsha_ro", -3, kScriptCmd | PLINTH_CMD_READONLY, 0, 0, 0, EvalShaRo, "scripting",
     "sha1 numkeys [key [key ...]] [arg [arg ...]]", "Execute a read-only Lua script server side",
     "7.0.0", PLINTH_ACL_SCRIPTING, 0, &common::KeysAfterNumkeys<2, PLINTH_KEY_READ>},
    {"fcall", -3, kScriptCmd | PLINTH_CMD_DENYOOM | PLINTH_CMD_MAY_REPLICATE, 0, 0, 0, FCall,
     "scripting", "function numkeys [key [key ...]] [arg [arg ...]]", "Invoke a function", "7.0.0",
     PLINTH_ACL_SCRIPTING, 0, &common::KeysAfterNumkeys<2, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
    {"fcall_ro", -3, kScriptCmd | PLINTH_CMD_READONLY, 0, 0, 0, FCallRo, "scripting",
     "function numkeys [key [key ...]] [arg [arg ...]]", "Invoke a read-only function", "7.0.0",
     PLINTH_ACL_SCRIPTING, 0, &common::KeysAfterNumkeys<2, PLINTH_KEY_READ>},
    {"script", -2, kAdmin | PLINTH_CMD_NOPROPAGATE, 0, 0, 0, Script, "scripting",
     "<DEBUG YES|SYNC|NO|EXISTS sha1 [sha1 ...]|FLUSH [ASYNC|SYNC]|KILL|LOAD script|HELP>",
     "A container for Lua scripts management commands", "2.6.0"},
    {"function", -2, kAdmin, 0, 0, 0, Function, "scripting",
     "<LOAD [REPLACE] function-code|DELETE library-name|LIST [LIBRARYNAME pattern] "
     "[WITHCODE]|FLUSH [ASYNC|SYNC]|DUMP|RESTORE serialized-value [FLUSH|APPEND|REPLACE]|STATS|"
     "KILL|HELP>",
     "A container for function commands", "7.0.0"},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"function|delete", 3, PLINTH_CMD_WRITE | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|dump", 2, PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_SCRIPTING},
    {"function|flush", -2, PLINTH_CMD_WRITE | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|kill", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_ALLOW_BUSY, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|list", -2, PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_SCRIPTING},
    {"function|load", -3, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_NOSCRIPT, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|restore", -3, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_NOSCRIPT, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"function|stats", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_ALLOW_BUSY, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"script|debug", 3, PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_SCRIPTING},
    {"script|exists", -3, PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_SCRIPTING},
    {"script|flush", -2, PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_SCRIPTING},
    {"script|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"script|kill", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_ALLOW_BUSY, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_SCRIPTING},
    {"script|load", 3, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_SCRIPTING},
};

Runtime* g_owned = nullptr;

int32_t ApplyBusy(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  if (Runtime* rt = TheRuntime()) rt->busy_reply_ms = number;
  return PLINTH_OK;
}

int32_t ApplyMemory(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  if (Runtime* rt = TheRuntime()) {
    rt->eval_memory().limit = static_cast<size_t>(number);
    rt->function_memory().limit = static_cast<size_t>(number);
  }
  return PLINTH_OK;
}

bool Init() {
  g_owned = new Runtime();
  SetRuntime(g_owned);
  if (!g_owned->Init()) {
    sdk::Log(PLINTH_LOG_WARNING, "scripting: could not create the Lua states");
    return false;
  }
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const plinth_option_t* busy = nullptr;
  const plinth_option_t* alias = nullptr;
  if (!common::RegisterGlobalOption(&busy, "busy-reply-threshold", PLINTH_OPT_INT,
                                    PLINTH_OPT_MUTABLE, "5000", 0, kMax,
                                    "ms a script runs before other clients get -BUSY", ApplyBusy) ||
      !common::RegisterGlobalOption(&alias, "lua-time-limit", PLINTH_OPT_INT, PLINTH_OPT_MUTABLE,
                                    "5000", 0, kMax, "alias of busy-reply-threshold", ApplyBusy))
    return false;
  const plinth_option_t* mem = sdk::RegisterOption(
      "max-memory", PLINTH_OPT_MEMORY, PLINTH_OPT_MUTABLE, "1gb", 0, kMax,
      "bytes each Lua state may allocate (0: no limit); past it a script fails cleanly",
      ApplyMemory);
  if (!mem) return false;
  // A configured lua-time-limit wins over the default of busy-reply-threshold.
  int64_t b = sdk::OptionInt(busy, 5000), a = sdk::OptionInt(alias, 5000);
  g_owned->busy_reply_ms = b != 5000 ? b : a;
  ApplyMemory(nullptr, nullptr, nullptr, 0, sdk::OptionInt(mem, 0), nullptr, 0);
  return sdk::RegisterCommands(kCommands);
}

void Shutdown() {
  SetRuntime(nullptr);
  delete g_owned;
  g_owned = nullptr;
}

}  // namespace
}  // namespace plinth::scripting

PLINTH_PLUGIN("scripting", "0.1.0",
              "Lua scripting and functions: EVAL, EVALSHA, SCRIPT, FUNCTION, FCALL",
              plinth::scripting::Init, plinth::scripting::Shutdown)
