// Host API of abi/commands.h: registering commands, commands as data (ids, info, keys), commands
// run within a call (a script's redis.call), serving others while a call runs long, and blocking
// commands. Main thread.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t CommandCount(plinth_call_t* c) {
  return static_cast<int32_t>(c->core->registry.commands.size());
}

const plinth_command_spec_t* CommandAt(plinth_call_t* c, int32_t i) {
  auto& v = c->core->registry.commands;
  return i >= 0 && static_cast<size_t>(i) < v.size() ? &v[i]->spec : nullptr;
}

const plinth_command_spec_t* CommandLookup(plinth_call_t* c, const char* name, size_t len) {
  const Command* cmd = c->core->registry.FindCommand({name, len});
  return cmd ? &cmd->spec : nullptr;
}

void CallNoReply(plinth_call_t* c) { c->no_reply = true; }

int32_t ClientWake(plinth_plugin_t* self, uint64_t id) {
  Core& core = *self->core;
  core.server.AssertMainThread("client_wake");
  return core.sessions.Wake(id) ? PLINTH_OK : PLINTH_ERR;
}

// Hands each reply item to the plugin's function and remembers whether the reply is an error.
struct RunSink : ReplySink {
  plinth_reply_fn fn = nullptr;
  void* arg = nullptr;
  bool first = true;
  bool error = false;
};

void RunItem(ReplySink* self, const plinth_reply_item_t& item) {
  auto* s = static_cast<RunSink*>(self);
  if (s->first) s->error = item.type == PLINTH_REPLY_ERROR;
  s->first = false;
  if (s->fn) s->fn(s->arg, &item);
}

void RunRef(ReplySink* self, const char* data, size_t len, plinth_release_fn release, void* arg) {
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_BULK;
  item.data = data;
  item.len = len;
  RunItem(self, item);
  if (release) release(arg);
}

int32_t CallCommand(plinth_call_t* call, uint32_t flags, int32_t db, int32_t argc,
                    const char* const* argv, const size_t* argvlen, plinth_reply_fn fn, void* arg) {
  Core& core = *call->core;
  core.server.AssertMainThread("call_command");
  if (argc < 1 || !argv || !argvlen || db < -1 ||
      db >= static_cast<int32_t>(core.keyspace.dbs.size()))
    return PLINTH_ERR;
  Session s;
  const Session* caller = call->session;
  s.id = caller ? caller->id : 0;
  s.db = db < 0 ? call->db : db;
  s.proto = (flags & PLINTH_RUN_RESP3) ? 3 : 2;
  s.authenticated = true;  // the call itself passed authentication
  if (caller) {            // its commands run as the caller's user
    s.user_id = caller->user_id;
    s.acl_restricted = caller->acl_restricted;
    s.user = caller->user;
  }
  s.internal = caller && caller->internal;
  s.no_propagate = (flags & PLINTH_RUN_NO_PROPAGATE) || (caller && caller->no_propagate);
  s.run_flags = flags | Session::kRunSession;  // non-zero: Execute applies its refusals
  RunSink sink;
  sink.item = RunItem;
  sink.ref = RunRef;
  sink.fn = fn;
  sink.arg = arg;
  const uint64_t dirty_before = core.keyspace.dirty;
  core.dispatch.Execute(s, sink, argc, argv, argvlen);
  // Its effects went out as the nested command: the caller is not propagated verbatim too.
  if (!s.no_propagate && core.keyspace.dirty != dirty_before) call->replicated = true;
  return sink.error ? PLINTH_ERR : PLINTH_OK;
}

void CallYield(plinth_call_t* call, const char* error, size_t len) {
  Core& core = *call->core;
  core.server.AssertMainThread("call_yield");
  static const Session kNoClient;
  core.dispatch.ServeBusy(call->session ? *call->session : kNoClient,
                          error ? std::string_view(error, len) : std::string_view("BUSY"));
}

int32_t CommandRegister(plinth_plugin_t* self, const plinth_command_spec_t* spec) {
  if (!InInit(self, "command_register")) return PLINTH_ERR;
  return Refused(self, self->core->registry.AddCommand(spec, self->name));
}

// The keys of argv for run (a command or subcommand): its keys function, or the positions of
// the spec that has them (a subcommand without its own uses its container's).
int32_t KeysOf(const Command* run, int32_t argc, const char* const* argv, const size_t* argvlen,
               plinth_key_ref_t* out) {
  const Command* k = run;
  if (!k->spec.keys && k->spec.first_key <= 0 && k->parent) k = k->parent;
  if (k->spec.keys) {
    const int32_t n = k->spec.keys(argc, argv, argvlen, out);
    return n < 0 ? 0 : (n > argc ? argc : n);
  }
  if (k->spec.first_key <= 0) return 0;
  uint32_t flags = k->spec.key_flags;
  if (flags == 0)
    flags = PLINTH_KEY_READ | ((k->spec.flags & PLINTH_CMD_WRITE) ? PLINTH_KEY_WRITE : 0);
  const int32_t last = k->spec.last_key < 0 ? argc + k->spec.last_key : k->spec.last_key;
  const int32_t step = k->spec.key_step > 0 ? k->spec.key_step : 1;
  int32_t n = 0;
  for (int32_t i = k->spec.first_key; i <= last && i < argc; i += step) out[n++] = {i, flags};
  return n;
}

int32_t CommandIds(plinth_plugin_t* self) {
  return static_cast<int32_t>(self->core->registry.by_id.size());
}

int32_t CommandInfo(plinth_plugin_t* self, int32_t id, plinth_command_info_t* out) {
  const Command* c = self->core->registry.FindById(id);
  if (!c || !out || out->struct_size < sizeof(uint32_t)) return PLINTH_ERR;
  plinth_command_info_t info{};
  info.struct_size = sizeof info;
  info.id = c->id;
  info.name = c->name.c_str();
  info.acl_categories = c->categories;
  info.flags = c->spec.flags;
  info.parent = c->parent ? c->parent->id : -1;
  info.subcommands = static_cast<int32_t>(c->subs.size());
  info.arity = c->spec.arity;
  const uint32_t size = out->struct_size < sizeof info ? out->struct_size : sizeof info;
  std::memcpy(out, &info, size);
  out->struct_size = size;
  return PLINTH_OK;
}

int32_t CommandFind(plinth_plugin_t* self, const char* name, size_t len) {
  const Command* c =
      name ? self->core->registry.FindQualified(std::string_view(name, len)) : nullptr;
  return c ? c->id : -1;
}

int32_t CommandKeys(plinth_plugin_t* self, int32_t argc, const char* const* argv,
                    const size_t* argvlen, plinth_key_ref_t* out, int32_t* command_id) {
  if (argc < 1 || !argv || !argvlen || !out) return PLINTH_ERR;
  Registry& reg = self->core->registry;
  Command* cmd = reg.FindCommand(std::string_view(argv[0], argvlen[0]));
  if (!cmd || !cmd->ArityAllows(argc)) return PLINTH_ERR;
  const Command* run = Registry::Resolve(cmd, argc, argv, argvlen);
  if (run != cmd && !run->ArityAllows(argc)) return PLINTH_ERR;
  if (command_id) *command_id = run->id;
  return KeysOf(run, argc, argv, argvlen, out);
}

int32_t CallBlock(plinth_call_t* c, int32_t nkeys, const char* const* keys, const size_t* klens,
                  int64_t timeout_ms) {
  Core& core = *c->core;
  core.server.AssertMainThread("call_block");
  Session* s = c->session;
  if (!s || s->internal || (s->run_flags & PLINTH_RUN_SCRIPT) || !c->sink || nkeys < 0 ||
      (nkeys > 0 && (!keys || !klens)) || timeout_ms < 0 || s->tx.executing ||
      c->block_state == PLINTH_BLOCK_TIMEOUT)
    return PLINTH_ERR;
  if (c->block_state == PLINTH_BLOCK_WOKEN) {
    core.sessions.NoteReblocked();
    c->blocked = true;
    return PLINTH_OK;
  }
  if (s->block) {  // run again after a client pause held it: now it waits for its keys
    core.sessions.blocking.Remove(s);
    core.sessions.NoteReblocked();
  }
  auto b = std::make_unique<BlockedCommand>();
  b->sink = c->sink;
  b->db = c->db;
  for (int32_t i = 0; i < c->argc; ++i) b->argv.emplace_back(c->argv[i], c->argvlen[i]);
  for (int32_t i = 0; i < nkeys; ++i) {
    std::string k(keys[i], klens[i]);
    if (std::find(b->keys.begin(), b->keys.end(), k) == b->keys.end())
      b->keys.push_back(std::move(k));
  }
  // A deadline past the clock's range waits forever (WAIT checks the range itself).
  b->deadline_ms =
      timeout_ms > 0 && timeout_ms <= INT64_MAX - c->now_ms ? c->now_ms + timeout_ms : -1;
  s->block = std::move(b);
  core.sessions.blocking.Add(s);
  c->blocked = true;
  return PLINTH_OK;
}

int32_t CallBlockState(plinth_call_t* c) { return c->block_state; }

void KeySignalReady(plinth_call_t* c, const char* k, size_t n) {
  c->core->sessions.blocking.Signal(c->db, {k, n});
}

}  // namespace

void FillCommandsApi(plinth_host_api_t* t) {
  t->command_register = CommandRegister;
  t->command_count = CommandCount;
  t->command_at = CommandAt;
  t->command_lookup = CommandLookup;
  t->call_block = CallBlock;
  t->call_block_state = CallBlockState;
  t->key_signal_ready = KeySignalReady;
  t->call_no_reply = CallNoReply;
  t->client_wake = ClientWake;
  t->call_command = CallCommand;
  t->call_yield = CallYield;
  t->command_ids = CommandIds;
  t->command_info = CommandInfo;
  t->command_find = CommandFind;
  t->command_keys = CommandKeys;
}

}  // namespace plinth::host
