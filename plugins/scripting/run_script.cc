// RunScript: the protected part runs inside lua_cpcall (RunEntry), with plain C-style frames.
#include "scripting/run_script.h"

#include <cstring>
#include <plinth/plugin.hpp>

#include "scripting/lua_api.h"
#include "scripting/lua_sandbox.h"

namespace plinth::scripting {
namespace {

constexpr const char* kKilled = "Script killed by user with SCRIPT KILL...";
constexpr const char* kRegLibs = "plinth.libs";

struct RunRequest {
  Runtime* rt;
  Run* run;
  const RunTarget* target;
  const std::vector<std::string_view>* keys;
  const std::vector<std::string_view>* args;
  ReplySink* sink;
};

void Hook(lua_State* L, lua_Debug*) {
  Runtime* rt = TheRuntime();
  Run* run = rt ? rt->current() : nullptr;
  if (!run || !rt->OnHook(run)) return;
  // Every line from now on raises again, so a pcall in the script cannot swallow the kill.
  lua_sethook(L, Hook, LUA_MASKLINE, 0);
  PushErrorTable(L, kKilled, std::strlen(kKilled));
  lua_error(L);
}

void PushArray(lua_State* L, const std::vector<std::string_view>& v) {
  lua_createtable(L, static_cast<int>(v.size()), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    lua_pushlstring(L, v[i].data(), v[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

void EmitError(RunRequest* r, bool is_table, const char* msg, const char* source,
               const char* line) noexcept {
  try {
    std::string text = ScriptErrorText(r->run->name, is_table, msg, source, line);
    r->sink->Error(text.data(), text.size());
  } catch (...) {
    r->sink->Error(kErrOutOfMemory.data(), kErrOutOfMemory.size());
  }
}

void ReplyLuaError(lua_State* L, RunRequest* r) {
  if (!lua_istable(L, -1)) {
    const char* msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "execution failure";
    EmitError(r, false, msg, nullptr, nullptr);
    return;
  }
  lua_getfield(L, -1, "err");
  lua_getfield(L, -2, "source");
  lua_getfield(L, -3, "line");
  const char* msg = lua_isstring(L, -3) ? lua_tostring(L, -3) : nullptr;
  const char* source = lua_isstring(L, -2) ? lua_tostring(L, -2) : nullptr;
  const char* line = lua_isstring(L, -1) ? lua_tostring(L, -1) : nullptr;
  EmitError(r, true, msg, source, line);
  lua_pop(L, 3);
}

int RunEntry(lua_State* L) {
  auto* r = static_cast<RunRequest*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  lua_getfield(L, LUA_REGISTRYINDEX, kRegHandler);  // 1
  const RunTarget& t = *r->target;
  if (t.eval) {
    lua_getfield(L, LUA_REGISTRYINDEX, t.key.c_str());  // 2
  } else {
    lua_getfield(L, LUA_REGISTRYINDEX, kRegLibs);
    lua_getfield(L, -1, t.key.c_str());
    lua_getfield(L, -1, t.function.c_str());
    lua_replace(L, 2);
    lua_settop(L, 2);
  }
  if (!lua_isfunction(L, 2)) {
    const char* m = "ERR the script's function is missing";
    r->sink->Error(m, std::strlen(m));
    return 0;
  }
  PushArray(L, *r->keys);
  PushArray(L, *r->args);
  int nargs = 2;
  if (t.eval) {
    lua_getfield(L, LUA_REGISTRYINDEX, kRegGlobals);
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, "KEYS");
    lua_pushvalue(L, 4);
    lua_setfield(L, -2, "ARGV");
    lua_settop(L, 2);
    nargs = 0;
  }
  if (r->rt->busy_reply_ms > 0) lua_sethook(L, Hook, LUA_MASKCOUNT, 100000);
  int err = lua_pcall(L, nargs, 1, 1);
  lua_sethook(L, nullptr, 0, 0);
  if (err)
    ReplyLuaError(L, r);
  else
    EmitLuaValue(L, r->sink, r->run->resp == 3);
  return 0;
}

}  // namespace

void CallSink::Simple(const char* s, size_t len) {
  replied_ = true;
  sdk::Api().reply_simple(call_, s, len);
}
void CallSink::Error(const char* s, size_t len) {
  replied_ = true;
  sdk::Api().reply_error(call_, s, len);
}
void CallSink::Integer(int64_t v) {
  replied_ = true;
  sdk::Api().reply_integer(call_, v);
}
void CallSink::Bulk(const char* s, size_t len) {
  replied_ = true;
  sdk::Api().reply_bulk(call_, s, len);
}
void CallSink::Null() {
  replied_ = true;
  sdk::Api().reply_null(call_);
}
void CallSink::Array(int64_t n) {
  replied_ = true;
  sdk::Api().reply_array(call_, n);
}
void CallSink::Map(int64_t n) {
  replied_ = true;
  sdk::Api().reply_map(call_, n);
}
void CallSink::Set(int64_t n) {
  replied_ = true;
  sdk::Api().reply_set(call_, n);
}
void CallSink::Double(double v) {
  replied_ = true;
  sdk::Api().reply_double(call_, v);
}
void CallSink::Bool(bool v) {
  replied_ = true;
  sdk::Api().reply_bool(call_, v ? 1 : 0);
}
void CallSink::Verbatim(const char* fmt, const char* s, size_t len) {
  replied_ = true;
  char f[4] = {' ', ' ', ' ', 0};
  for (int i = 0; i < 3 && fmt[i]; ++i) f[i] = fmt[i];
  sdk::Api().reply_verbatim(call_, f, s, len);
}
void CallSink::BigNumber(const char* s, size_t len) {
  replied_ = true;
  sdk::Api().reply_bignum(call_, s, len);
}

std::string ScriptErrorText(const std::string& name, bool is_table, const char* msg,
                            const char* source, const char* line) {
  std::string out;
  if (!is_table) {
    std::string m(msg ? msg : "");
    if (m.size() > 100) m.resize(100);
    out = "ERR Error running script " + name + ", " + m;
    while (!out.empty() && (out.back() == '\r' || out.back() == '\n')) out.pop_back();
  } else {
    out = msg ? msg : "ERR unknown error";
    if (source && line)
      out += std::string(" script: ") + name + ", on " + source + ":" + line + ".";
  }
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

void RunScript(Runtime* rt, Run* run, const RunTarget& target,
               const std::vector<std::string_view>& keys, const std::vector<std::string_view>& args,
               ReplySink* sink) {
  lua_State* L = target.eval ? rt->eval_vm() : rt->function_vm();
  run->start_us = NowUs();
  RunRequest req{rt, run, &target, &keys, &args, sink};
  rt->set_current(run);
  rt->LendScratch(run);
  int rc = lua_cpcall(L, RunEntry, &req);
  rt->TakeScratch(run);
  rt->set_current(nullptr);
  if (rc != 0) {
    lua_pop(L, 1);
    if (auto* cs = dynamic_cast<CallSink*>(sink); !cs || !cs->replied()) {
      std::string text = ScriptErrorText(run->name, false, "not enough memory", nullptr, nullptr);
      sink->Error(text.data(), text.size());
    }
  }
  if (rt->GcDue()) lua_gc(L, LUA_GCSTEP, Runtime::kGcPeriod);
  Runtime::CollectIfNearLimit(L, target.eval ? rt->eval_memory() : rt->function_memory());
}

}  // namespace plinth::scripting
