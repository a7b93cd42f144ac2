// Host API of abi/stream.h: the propagation stream (replicate and its forms, its consumers and
// offset), the dirty count and the one snapshot child. Main thread.
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

void NoPropagate(plinth_call_t* c) { c->no_propagate = true; }

uint64_t StreamOffset(plinth_plugin_t* self) { return self->core->propagation.stream.Offset(); }

void StreamReselect(plinth_plugin_t* self) { self->core->propagation.stream.Reselect(); }

void StreamConsumerActive(plinth_plugin_t* self, int32_t on) {
  Core& core = *self->core;
  core.server.AssertMainThread("stream_consumer_active");
  for (StreamConsumer& sc : core.listeners.consumers)
    if (sc.owner == self->name) sc.active = on != 0;
  core.propagation.CountActiveConsumers();
}

uint64_t ServerDirty(plinth_plugin_t* self) { return self->core->keyspace.dirty; }

int32_t ForkChild(plinth_plugin_t* self) {
  Core& core = *self->core;
  core.server.AssertMainThread("fork_child");
  if (core.server.state.child_pid > 0) {
    errno = EBUSY;
    return -1;
  }
  const pid_t pid = fork();
  if (pid > 0) core.server.state.child_pid = pid;
  return pid;
}

void ForkDone(plinth_plugin_t* self, int32_t pid) {
  if (pid > 0 && self->core->server.state.child_pid == pid) self->core->server.state.child_pid = 0;
}

int32_t ForkActive(plinth_plugin_t* self) { return self->core->server.state.child_pid; }

// replicate()'s checks: the command exists and argc arguments fit its arity, each present. One
// pass over the name (its case folded into the table's hash, no copy, no strlen: the pass
// measures it into *len for the append) and one probe of the command table; no allocation.
bool ReplicateValid(Core& core, const char* command, size_t* len, int32_t argc,
                    const char* const* argv, const size_t* argvlen) {
  if (argc < 0 || (argc > 0 && (!argv || !argvlen))) return false;
  const Command* cmd = core.registry.FindCommand(command, len);
  if (!cmd) return false;
  const int32_t a = cmd->spec.arity, n = argc + 1;
  if (a > 0 ? n != a : n < -a) return false;
  for (int32_t i = 0; i < argc; ++i)
    if (!argv[i]) return false;
  return true;
}

// Checks the input unless flags has PLINTH_REPLICATE_NO_VALIDATE; *len: the command's length.
bool ReplicateCheck(Core& core, uint32_t flags, const char* command, size_t* len, int32_t argc,
                    const char* const* argv, const size_t* argvlen) {
  if (!(flags & PLINTH_REPLICATE_NO_VALIDATE))
    return ReplicateValid(core, command, len, argc, argv, argvlen);
  *len = command ? std::strlen(command) : 0;
  return true;
}

// Appends the effect. Unchecked input (NO_VALIDATE) still encodes as one well-formed command: a
// missing name is empty, missing arrays mean no arguments, a NULL argument is empty.
void Append(Core& core, int32_t db, const char* command, size_t len, int32_t argc,
            const char* const* argv, const size_t* argvlen) {
  core.propagation.Propagate(db, command ? command : "", len,
                             argv && argvlen ? std::max(argc, 0) : 0, argv, argvlen);
}

int32_t Replicate(plinth_call_t* c, uint32_t flags, const char* command, int32_t argc,
                  const char* const* argv, const size_t* argvlen) {
  Core& core = *c->core;
  size_t len = 0;
  if (!ReplicateCheck(core, flags, command, &len, argc, argv, argvlen)) return PLINTH_ERR;
  c->replicated = true;
  if (!core.propagation.Encoding() || (c->cmd && (c->cmd->spec.flags & PLINTH_CMD_NOPROPAGATE)) ||
      (c->session && c->session->no_propagate))
    return PLINTH_OK;
  Append(core, c->db, command, len, argc, argv, argvlen);
  return PLINTH_OK;
}

int32_t ReplicateDb(plinth_plugin_t* self, int32_t db, uint32_t flags, const char* command,
                    int32_t argc, const char* const* argv, const size_t* argvlen) {
  Core& core = *self->core;
  core.server.AssertMainThread("replicate_db");
  if (db < 0 || db >= static_cast<int32_t>(core.keyspace.dbs.size())) return PLINTH_ERR;
  size_t len = 0;
  if (!ReplicateCheck(core, flags, command, &len, argc, argv, argvlen)) return PLINTH_ERR;
  Append(core, db, command, len, argc, argv, argvlen);
  return PLINTH_OK;
}

void ReplicateVerbatim(plinth_call_t* c) { c->verbatim = true; }

int32_t ConsumerRegister(plinth_plugin_t* self, const plinth_stream_consumer_spec_t* spec) {
  if (!InInit(self, "stream_consumer_register")) return PLINTH_ERR;
  const int32_t r = Refused(self, self->core->listeners.AddConsumer(spec, self->name));
  self->core->propagation.CountActiveConsumers();
  return r;
}

}  // namespace

void FillStreamApi(plinth_host_api_t* t) {
  t->stream_consumer_register = ConsumerRegister;
  t->replicate = Replicate;
  t->call_no_propagate = NoPropagate;
  t->stream_offset = StreamOffset;
  t->stream_reselect = StreamReselect;
  t->stream_consumer_active = StreamConsumerActive;
  t->server_dirty = ServerDirty;
  t->fork_child = ForkChild;
  t->fork_done = ForkDone;
  t->fork_active = ForkActive;
  t->replicate_db = ReplicateDb;
  t->replicate_verbatim = ReplicateVerbatim;
}

}  // namespace plinth::host
