// EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (Redis 7.0 eval.c behaviour and texts).
#include <plinth/errors.hpp>
#include <plinth/text.hpp>

#include "common/subcommand.h"
#include "scripting/handlers.h"
#include "scripting/run_script.h"
#include "scripting/runtime.h"
#include "scripting/sha1.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

constexpr std::string_view kNoScript = "NOSCRIPT No matching script. Please use EVAL.";

// Reads numkeys (argument 2) with EVAL's texts; FCALL's non-integer text differs.
bool ReadNumKeys(sdk::Call& c, bool fcall, int64_t* numkeys) {
  if (!text::ParseInt64(c.arg(2), numkeys)) {
    c.Error(fcall ? kErrBadNumkeys : errors::kNotInteger);
    return false;
  }
  if (*numkeys > c.argc() - 3) {
    c.Error(errors::kNumkeysOverArgs);
    return false;
  }
  if (*numkeys < 0) {
    c.Error(kErrNumkeysNegative);
    return false;
  }
  return true;
}

void EvalGeneric(sdk::Call& c, bool evalsha, bool ro) {
  Runtime* rt = TheRuntime();
  std::string_view a1 = c.arg(1);
  if (evalsha && a1.size() != 40) {
    c.Error(kNoScript);
    return;
  }
  int64_t numkeys = 0;
  if (!ReadNumKeys(c, false, &numkeys)) return;
  std::string sha = evalsha ? text::ToLower(a1) : Sha1Hex(a1);
  const CachedScript* s = rt->FindScript(sha);
  if (!s) {
    if (evalsha) {
      c.Error(kNoScript);
      return;
    }
    std::string error;
    if (!rt->AddScript(sha, std::string(a1), &error)) {
      c.Error(error);
      return;
    }
    s = rt->FindScript(sha);
  }
  bool compat = s->flags & kFlagEvalCompat;
  if (!compat && !(s->flags & kFlagNoWrites) && ro) {
    c.Error(kErrWriteInReadOnly);
    return;
  }
  Run run;
  run.call = c.raw();
  run.is_eval = true;
  run.name = sha;
  run.read_only = ro || (!compat && (s->flags & kFlagNoWrites));
  run.db = sdk::Api().db_current(c.raw());
  std::vector<std::string_view> keys, args;
  keys.reserve(static_cast<size_t>(numkeys));
  args.reserve(static_cast<size_t>(c.argc() - 3 - numkeys));
  for (int i = 3; i < c.argc(); ++i) (i < 3 + numkeys ? keys : args).push_back(c.arg(i));
  RunTarget target{true, "f_" + sha, ""};
  CallSink sink(c.raw());
  RunScript(rt, &run, target, keys, args, &sink);
}

const char* const kScriptHelp[] = {
    "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "DEBUG (YES|SYNC|NO)",
    "    Set the debug mode for subsequent scripts executed.",
    "EXISTS <sha1> [<sha1> ...]",
    "    Return information about the existence of the scripts in the script cache.",
    "FLUSH [ASYNC|SYNC]",
    "    Flush the Lua scripts cache. Very dangerous on replicas.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the scripts cache.",
    "    * SYNC: Synchronously flush the scripts cache.",
    "KILL",
    "    Kill the currently executing Lua script.",
    "LOAD <script>",
    "    Load a script into the scripts cache without executing it.",
    "HELP",
    "    Prints this help.",
};

const common::SubcommandDef kScriptSubs[] = {
    {"debug", 3}, {"exists", -3}, {"flush", -2}, {"help", 2}, {"kill", 2}, {"load", 3},
};

}  // namespace

void Eval(sdk::Call& c) { EvalGeneric(c, false, false); }
void EvalSha(sdk::Call& c) { EvalGeneric(c, true, false); }
void EvalRo(sdk::Call& c) { EvalGeneric(c, false, true); }
void EvalShaRo(sdk::Call& c) { EvalGeneric(c, true, true); }

bool RefuseWhileBusy(sdk::Call& c) {
  Run* run = TheRuntime()->current();
  if (!run) return false;
  c.Error(run->is_eval ? kBusyEval : kBusyFunction);
  return true;
}

void KillRunning(sdk::Call& c, bool is_eval) {
  Run* run = TheRuntime()->current();
  if (!run) {
    c.Error("NOTBUSY No scripts in execution right now.");
  } else if (run->wrote) {
    c.Error(
        "UNKILLABLE Sorry the script already executed write commands against the dataset. You "
        "can either wait the script termination or kill the server in a hard way using the "
        "SHUTDOWN NOSAVE command.");
  } else if (is_eval != run->is_eval) {
    c.Error(run->is_eval ? kBusyEval : kBusyFunction);
  } else {
    run->killed = true;
    c.Ok();
  }
}

void Script(sdk::Call& c) {
  std::string error;
  int sub = common::FindSubcommand("script", kScriptSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) {
    if (!RefuseWhileBusy(c)) c.Error(error);
    return;
  }
  std::string_view name = kScriptSubs[sub].name;
  if (name == "kill") {
    KillRunning(c, true);
    return;
  }
  if (RefuseWhileBusy(c)) return;
  Runtime* rt = TheRuntime();
  if (name == "help") {
    c.Array(static_cast<int64_t>(std::size(kScriptHelp)));
    for (const char* line : kScriptHelp) c.Simple(line);
  } else if (name == "load") {
    std::string body(c.arg(2));
    std::string sha = Sha1Hex(body);
    if (!rt->AddScript(sha, body, &error)) {
      c.Error(error);
      return;
    }
    c.Bulk(sha);
  } else if (name == "exists") {
    c.Array(c.argc() - 2);
    for (int i = 2; i < c.argc(); ++i) c.Integer(rt->FindScript(text::ToLower(c.arg(i))) ? 1 : 0);
  } else if (name == "flush") {
    bool ok = c.argc() == 2 || (c.argc() == 3 && (text::EqualsNoCase(c.arg(2), "sync") ||
                                                  text::EqualsNoCase(c.arg(2), "async")));
    if (!ok) {
      c.Error("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
      return;
    }
    if (!rt->FlushScripts()) {
      c.Error(kErrOutOfMemory);
      return;
    }
    c.Ok();
  } else {  // debug
    if (text::EqualsNoCase(c.arg(2), "no")) {
      c.Ok();
    } else if (text::EqualsNoCase(c.arg(2), "yes") || text::EqualsNoCase(c.arg(2), "sync")) {
      c.Error("ERR SCRIPT DEBUG is not supported by this server");
    } else {
      c.Error("ERR Use SCRIPT DEBUG YES/SYNC/NO");
    }
  }
}

}  // namespace plinth::scripting
