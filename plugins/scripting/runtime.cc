// Runtime: the Lua states, the caches, and the host work behind redis.call and the hook.
#include "scripting/runtime.h"

#include <chrono>
#include <cstring>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>

#include "common/subcommand.h"
#include "scripting/lua_api.h"
#include "scripting/lua_chunk.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

Runtime* g_runtime = nullptr;

void OnItem(void* arg, const plinth_reply_item_t* item) {
  auto* run = static_cast<Run*>(arg);
  ReplyItem it;
  it.type = item->type;
  it.integer = item->integer;
  it.dbl = item->dbl;
  it.off = run->arena.size();
  it.len = item->data ? item->len : 0;
  if (item->data && item->len) run->arena.append(item->data, item->len);
  if (item->ext) std::strncpy(it.ext, item->ext, 3);
  run->items.push_back(it);
}

struct CompileRequest {
  const char* code;
  size_t len;
  const char* key;  // registry field of the compiled function
  std::string* error;
};

int Compile(lua_State* L) {
  auto* r = static_cast<CompileRequest*>(lua_touserdata(L, 1));
  if (LoadChunk(L, r->code, r->len, "@user_script") != 0) {
    size_t n = 0;
    const char* m = lua_tolstring(L, -1, &n);
    r->error->assign(m ? m : "", m ? n : 0);
    return 0;
  }
  lua_setfield(L, LUA_REGISTRYINDEX, r->key);
  return 0;
}

int CollectAll(lua_State* L) {
  lua_gc(L, LUA_GCCOLLECT, 0);
  return 0;
}

// Closes a state after a full collection in a protected call, so that finalizers run on a
// whole state before lua_close takes it apart (Redis's change for CVE-2024-46981).
void CloseState(lua_State* L) {
  if (lua_cpcall(L, CollectAll, nullptr) != 0) lua_pop(L, 1);
  lua_close(L);
}

// Redis's addReplyErrorFormat: trailing CR/LF trimmed, inner ones made spaces.
std::string CleanError(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n')) s.pop_back();
  for (char& c : s)
    if (c == '\r' || c == '\n') c = ' ';
  return s;
}

// Whether sub names a subcommand of a container command, whose argument hint lists them:
// "<ENCODING key|FREQ key|HELP>". A hint whose alternatives do not all start with an upper-case
// word ("<host port | NO ONE>") lists no subcommands: anything passes.
bool KnownSubcommand(std::string_view hint, std::string_view sub) {
  if (hint.size() < 2 || hint.front() != '<' || hint.back() != '>') return true;
  hint = hint.substr(1, hint.size() - 2);
  bool found = false;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= hint.size(); ++i) {
    const char ch = i < hint.size() ? hint[i] : '|';
    if (ch == '[') depth++;
    if (ch == ']') depth--;
    if (ch != '|' || depth > 0) continue;
    std::string_view alt = hint.substr(start, i - start);
    alt = alt.substr(0, alt.find(' '));
    start = i + 1;
    if (alt.empty()) return true;
    for (char a : alt)
      if (!(a >= 'A' && a <= 'Z') && a != '-' && a != '_') return true;
    found |= text::EqualsNoCase(alt, sub);
  }
  return found;
}

}  // namespace

Runtime* TheRuntime() { return g_runtime; }
void SetRuntime(Runtime* rt) { g_runtime = rt; }

int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Runtime::Runtime() = default;

Runtime::~Runtime() {
  if (eval_vm_) CloseState(eval_vm_);
  if (function_vm_) CloseState(function_vm_);
}

bool Runtime::Init() {
  eval_vm_ = NewSandbox(SandboxKind::kEval, &eval_mem_);
  function_vm_ = NewSandbox(SandboxKind::kFunction, &function_mem_);
  return eval_vm_ && function_vm_;
}

const CachedScript* Runtime::FindScript(const std::string& sha) const {
  auto it = scripts_.find(sha);
  return it == scripts_.end() ? nullptr : &it->second;
}

bool Runtime::AddScript(const std::string& sha, const std::string& body, std::string* error) {
  if (scripts_.count(sha)) return true;
  uint32_t flags = 0;
  size_t shebang = 0;
  if (!ParseEvalShebang(body, &flags, &shebang, error)) return false;
  std::string key = "f_" + sha;
  std::string compile_error;
  CompileRequest req{body.data() + shebang, body.size() - shebang, key.c_str(), &compile_error};
  if (lua_cpcall(eval_vm_, Compile, &req) != 0) {
    lua_pop(eval_vm_, 1);
    *error = "ERR Error compiling script (new function): not enough memory";
    return false;
  }
  if (!compile_error.empty()) {
    *error = CleanError("ERR Error compiling script (new function): " + compile_error);
    return false;
  }
  scripts_[sha] = CachedScript{body, flags};
  return true;
}

void Runtime::CollectIfNearLimit(lua_State* L, LuaMemory& mem) {
  if (mem.used < mem.after_collect) mem.after_collect = mem.used;  // live data shrank
  if (!mem.limit || mem.used <= mem.limit / 2 || mem.used - mem.after_collect <= mem.limit / 4)
    return;
  if (lua_cpcall(L, CollectAll, nullptr) != 0) lua_pop(L, 1);
  mem.after_collect = mem.used;
}

bool Runtime::FlushScripts() {
  scripts_.clear();
  // The fresh state counts into the same budget while the old one is still open.
  if (lua_cpcall(eval_vm_, CollectAll, nullptr) != 0) lua_pop(eval_vm_, 1);
  lua_State* fresh = NewSandbox(SandboxKind::kEval, &eval_mem_);
  if (!fresh) return false;
  CloseState(eval_vm_);
  eval_vm_ = fresh;
  return true;
}

const char* Runtime::RegisterFunction(const char* name, size_t nlen, const char* desc, size_t dlen,
                                      uint32_t flags) {
  std::string_view n(name, nlen);
  if (!ValidFunctionName(n))
    return "Library names can only contain letters, numbers, or underscores(_) and must be at "
           "least one character long";
  for (const FunctionInfo& f : loading_)
    if (text::EqualsNoCase(f.name, n)) return "Function already exists in the library";
  FunctionInfo f;
  f.name.assign(name, nlen);
  if (desc) {
    f.description.assign(desc, dlen);
    f.has_description = true;
  }
  f.flags = flags;
  loading_.push_back(std::move(f));
  return nullptr;
}

CallOutcome Runtime::Execute(Run* run, int argc, const char* const* argv,
                             const size_t* lens) noexcept {
  try {
    run->items.clear();
    run->arena.clear();
    run->error.clear();
    const plinth_host_api_t& api = sdk::Api();
    const plinth_command_spec_t* spec = api.command_lookup(run->call, argv[0], lens[0]);
    if (!spec || (argc > 1 && spec->args &&
                  !KnownSubcommand(spec->args, std::string_view(argv[1], lens[1])))) {
      run->error = "Unknown Redis command called from script";
      return CallOutcome::kRefused;
    }
    if (!common::ArityFits(spec->arity, argc)) {
      run->error = "Wrong number of args calling Redis command from script";
      return CallOutcome::kRefused;
    }
    if (spec->flags & PLINTH_CMD_NOSCRIPT) {
      run->error = "This Redis command is not allowed from script";
      return CallOutcome::kRefused;
    }
    if (run->read_only && (spec->flags & PLINTH_CMD_WRITE)) {
      run->error = "Write commands are not allowed from read-only scripts.";
      return CallOutcome::kRefused;
    }
    if (spec->flags & PLINTH_CMD_WRITE) run->wrote = true;
    uint32_t flags = PLINTH_RUN_SCRIPT;
    if (run->read_only) flags |= PLINTH_RUN_NO_WRITES;
    if (run->repl == 0) flags |= PLINTH_RUN_NO_PROPAGATE;
    if (run->resp == 3) flags |= PLINTH_RUN_RESP3;
    int32_t rc = api.call_command(run->call, flags, run->db, argc, argv, lens, OnItem, run);
    if (run->items.empty()) {
      run->error = "ERR the command produced no reply";
      return CallOutcome::kRefused;
    }
    if (rc == PLINTH_OK && argc == 2 &&
        text::EqualsNoCase(std::string_view(argv[0], lens[0]), "select")) {
      int32_t db = 0;
      if (text::ParseInt32(std::string_view(argv[1], lens[1]), &db)) run->db = db;
    }
    return rc == PLINTH_OK ? CallOutcome::kOk : CallOutcome::kError;
  } catch (...) {
    run->error = "ERR out of memory running the command";
    return CallOutcome::kRefused;
  }
}

bool Runtime::CommandExists(const char* name, size_t len) noexcept {
  return current_ && sdk::Api().command_lookup(current_->call, name, len) != nullptr;
}

void Runtime::Log(int level, const char* text, size_t len) noexcept {
  sdk::Api().log_write(sdk::Host::self, static_cast<uint32_t>(level), text, len);
}

bool Runtime::OnHook(Run* run) noexcept {
  const plinth_host_api_t& api = sdk::Api();
  bool stopping = PLINTH_HAS(&api, server_stopping) && api.server_stopping(sdk::Host::self);
  if (stopping) run->killed = true;
  if (run->killed) return true;
  if (!run->timed_out) {
    int64_t elapsed_ms = (NowUs() - run->start_us) / 1000;
    if (busy_reply_ms <= 0 || elapsed_ms < busy_reply_ms) return false;
    run->timed_out = true;
    sdk::Log(PLINTH_LOG_WARNING,
             "Slow script detected: still in execution after %lld milliseconds. You can try "
             "killing the script using the %s command. Script name is: %s.",
             static_cast<long long>(elapsed_ms), run->is_eval ? "SCRIPT KILL" : "FUNCTION KILL",
             run->name.c_str());
  }
  if (PLINTH_HAS(&api, call_yield)) {
    const char* msg = run->is_eval ? kBusyEval : kBusyFunction;
    api.call_yield(run->call, msg, std::strlen(msg));
  }
  if (PLINTH_HAS(&api, server_stopping) && api.server_stopping(sdk::Host::self)) run->killed = true;
  return run->killed;
}

}  // namespace plinth::scripting
