// Host API for commands a plugin runs within its own call (a script's redis.call), for serving
// other clients while a call runs long (a busy script) and for noticing a shutdown meanwhile.
// Main thread only.
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

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
  core.AssertMainThread("call_command");
  if (argc < 1 || !argv || !argvlen || db < -1 || db >= static_cast<int32_t>(core.dbs.size()))
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
  const uint64_t dirty_before = core.dirty;
  core.Execute(s, sink, argc, argv, argvlen);
  // Its effects went out as the nested command: the caller is not propagated verbatim too.
  if (!s.no_propagate && core.dirty != dirty_before) call->replicated = true;
  return sink.error ? PLINTH_ERR : PLINTH_OK;
}

void CallYield(plinth_call_t* call, const char* error, size_t len) {
  Core& core = *call->core;
  core.AssertMainThread("call_yield");
  static const Session kNoClient;
  core.ServeBusy(call->session ? *call->session : kNoClient,
                 error ? std::string_view(error, len) : std::string_view("BUSY"));
}

int32_t ServerStopping(plinth_plugin_t* self) { return self->core->Stopping() ? 1 : 0; }

}  // namespace

void FillRunApi(plinth_host_api_t* t) {
  t->call_command = CallCommand;
  t->call_yield = CallYield;
  t->server_stopping = ServerStopping;
}

}  // namespace plinth::host
