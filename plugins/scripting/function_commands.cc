// FCALL, FCALL_RO and FUNCTION (Redis 7.0 functions.c behaviour and texts).
#include <plinth/errors.hpp>
#include <plinth/text.hpp>

#include "common/subcommand.h"
#include "scripting/function_dump.h"
#include "scripting/function_load.h"
#include "scripting/handlers.h"
#include "scripting/run_script.h"
#include "scripting/runtime.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

void FCallGeneric(sdk::Call& c, bool ro) {
  Runtime* rt = TheRuntime();
  auto it = rt->functions().find(text::ToLower(c.arg(1)));
  if (it == rt->functions().end()) {
    c.Error("ERR Function not found");
    return;
  }
  const FunctionInfo& f = it->second;
  int64_t numkeys = 0;
  if (!text::ParseInt64(c.arg(2), &numkeys)) {
    c.Error(kErrBadNumkeys);
    return;
  }
  if (numkeys > c.argc() - 3) {
    c.Error(errors::kNumkeysOverArgs);
    return;
  }
  if (numkeys < 0) {
    c.Error(kErrNumkeysNegative);
    return;
  }
  if (ro && !(f.flags & kFlagNoWrites)) {
    c.Error(kErrWriteInReadOnly);
    return;
  }
  Run run;
  run.call = c.raw();
  run.is_eval = false;
  run.name = f.name;
  run.read_only = ro || (f.flags & kFlagNoWrites);
  run.db = sdk::Api().db_current(c.raw());
  std::vector<std::string_view> keys, args;
  for (int i = 3; i < c.argc(); ++i) (i < 3 + numkeys ? keys : args).push_back(c.arg(i));
  RunTarget target{false, f.library, f.name};
  CallSink sink(c.raw());
  RunScript(rt, &run, target, keys, args, &sink);
}

const char* const kFunctionHelp[] = {
    "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "LOAD [REPLACE] <FUNCTION CODE>",
    "    Create a new library with the given library name and code.",
    "DELETE <LIBRARY NAME>",
    "    Delete the given library.",
    "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
    "    Return general information on all the libraries:",
    "    * Library name",
    "    * The engine used to run the Library",
    "    * Library description",
    "    * Functions list",
    "    * Library code (if WITHCODE is given)",
    "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
    "STATS",
    "    Return information about the current function running:",
    "    * Function name",
    "    * Command used to run the function",
    "    * Duration in MS that the function is running",
    "    If no function is running, return nil",
    "    In addition, returns a list of available engines.",
    "KILL",
    "    Kill the current running function.",
    "FLUSH [ASYNC|SYNC]",
    "    Delete all the libraries.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the libraries.",
    "    * SYNC: Synchronously flush the libraries.",
    "DUMP",
    "    Return a serialized payload representing the current libraries, can be restored using "
    "FUNCTION RESTORE command",
    "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
    "    Restore the libraries represented by the given payload, it is possible to give a "
    "restore policy to",
    "    control how to handle existing libraries (default APPEND):",
    "    * FLUSH: delete all existing libraries.",
    "    * APPEND: appends the restored libraries to the existing libraries. On collision, "
    "abort.",
    "    * REPLACE: appends the restored libraries to the existing libraries, On collision, "
    "replace the old",
    "      libraries with the new libraries (notice that even on this option there is a "
    "chance of failure",
    "      in case of functions name collision with another library).",
    "HELP",
    "    Prints this help.",
};

const common::SubcommandDef kFunctionSubs[] = {
    {"delete", 3}, {"dump", 2},  {"flush", -2},   {"help", 2},  {"kill", 2},
    {"list", -2},  {"load", -3}, {"restore", -3}, {"stats", 2},
};

void Load(sdk::Call& c) {
  bool replace = false;
  int pos = 2;
  while (pos < c.argc() - 1) {
    std::string_view a = c.arg(pos++);
    if (text::EqualsNoCase(a, "replace")) {
      replace = true;
      continue;
    }
    c.Error("ERR Unknown option given: " + common::ErrorArg(a, std::string::npos));
    return;
  }
  std::string name, error;
  if (!LoadLibrary(TheRuntime(), c.arg(pos), replace, &name, &error)) {
    c.Error(error);
    return;
  }
  sdk::Api().replicate_verbatim(c.raw());
  c.Bulk(name);
}

void ReplyLibrary(sdk::Call& c, const LibraryInfo& lib, bool with_code) {
  Runtime* rt = TheRuntime();
  c.Map(with_code ? 4 : 3);
  c.Bulk("library_name");
  c.Bulk(lib.name);
  c.Bulk("engine");
  c.Bulk("LUA");
  c.Bulk("functions");
  c.Array(static_cast<int64_t>(lib.functions.size()));
  for (const std::string& fname : lib.functions) {
    const FunctionInfo& f = rt->functions()[text::ToLower(fname)];
    c.Map(3);
    c.Bulk("name");
    c.Bulk(f.name);
    c.Bulk("description");
    if (f.has_description)
      c.Bulk(f.description);
    else
      c.Null();
    c.Bulk("flags");
    std::vector<std::string_view> flags = ScriptFlagNames(f.flags);
    c.Set(static_cast<int64_t>(flags.size()));
    for (std::string_view fl : flags) c.Simple(fl);
  }
  if (with_code) {
    c.Bulk("library_code");
    c.Bulk(lib.code);
  }
}

void List(sdk::Call& c) {
  bool with_code = false;
  bool have_pattern = false;
  std::string_view pattern;
  for (int i = 2; i < c.argc(); ++i) {
    std::string_view a = c.arg(i);
    if (!with_code && text::EqualsNoCase(a, "withcode")) {
      with_code = true;
      continue;
    }
    if (!have_pattern && text::EqualsNoCase(a, "libraryname")) {
      if (i >= c.argc() - 1) {
        c.Error("ERR library name argument was not given");
        return;
      }
      pattern = c.arg(++i);
      have_pattern = true;
      continue;
    }
    c.Error("ERR Unknown argument " + common::ErrorArg(a, std::string::npos));
    return;
  }
  std::vector<const LibraryInfo*> hits;
  for (const auto& [name, lib] : TheRuntime()->libraries())
    if (!have_pattern || text::GlobMatch(pattern, name, true)) hits.push_back(&lib);
  c.Array(static_cast<int64_t>(hits.size()));
  for (const LibraryInfo* lib : hits) ReplyLibrary(c, *lib, with_code);
}

void Stats(sdk::Call& c) {
  Runtime* rt = TheRuntime();
  Run* run = rt->current();
  if (run && run->is_eval) {
    c.Error(kBusyEval);
    return;
  }
  c.Map(2);
  c.Bulk("running_script");
  if (!run) {
    c.Null();
  } else {
    c.Map(3);
    c.Bulk("name");
    c.Bulk(run->name);
    c.Bulk("command");
    // The running command's arguments: its call is alive while it runs (it is suspended in
    // this call_yield).
    const plinth_host_api_t& api = sdk::Api();
    const int32_t argc = api.call_argc(run->call);
    c.Array(argc);
    for (int32_t i = 0; i < argc; ++i) {
      size_t len = 0;
      const char* a = api.call_arg(run->call, i, &len);
      c.Bulk(std::string_view(a, len));
    }
    c.Bulk("duration_ms");
    c.Integer((NowUs() - run->start_us) / 1000);
  }
  c.Bulk("engines");
  c.Map(1);
  c.Bulk("LUA");
  c.Map(2);
  c.Bulk("libraries_count");
  c.Integer(static_cast<int64_t>(rt->libraries().size()));
  c.Bulk("functions_count");
  c.Integer(static_cast<int64_t>(rt->functions().size()));
}

}  // namespace

void FCall(sdk::Call& c) { FCallGeneric(c, false); }
void FCallRo(sdk::Call& c) { FCallGeneric(c, true); }

void Function(sdk::Call& c) {
  std::string error;
  int sub = common::FindSubcommand("function", kFunctionSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) {
    if (!RefuseWhileBusy(c)) c.Error(error);
    return;
  }
  std::string_view name = kFunctionSubs[sub].name;
  if (name == "kill") return KillRunning(c, false);
  if (name == "stats") return Stats(c);
  if (RefuseWhileBusy(c)) return;
  Runtime* rt = TheRuntime();
  if (name == "help") {
    c.Array(static_cast<int64_t>(std::size(kFunctionHelp)));
    for (const char* line : kFunctionHelp) c.Simple(line);
  } else if (name == "load") {
    Load(c);
  } else if (name == "list") {
    List(c);
  } else if (name == "delete") {
    if (!DeleteLibrary(rt, std::string(c.arg(2)))) {
      c.Error("ERR Library not found");
      return;
    }
    sdk::Api().replicate_verbatim(c.raw());
    c.Ok();
  } else if (name == "flush") {
    bool ok = c.argc() == 2 || (c.argc() == 3 && (text::EqualsNoCase(c.arg(2), "sync") ||
                                                  text::EqualsNoCase(c.arg(2), "async")));
    if (!ok) {
      c.Error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
      return;
    }
    FlushLibraries(rt);
    sdk::Api().replicate_verbatim(c.raw());
    c.Ok();
  } else if (name == "dump") {
    c.Bulk(DumpLibraries(rt));
  } else {  // restore
    RestoreCommand(c);
  }
}

}  // namespace plinth::scripting
