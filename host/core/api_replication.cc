// Host API for plugins that replicate: replicate() and its forms outside a command or verbatim,
// replica clients (raw output, their output class, closing), refusals of commands (a read-only
// or stale replica, too few replicas), passive expiry (a replica follows its primary's DELs),
// waking a client blocked on no key (WAIT), and the server's run id.
#include <algorithm>
#include <cstring>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

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
  core.Propagate(db, command ? command : "", len, argv && argvlen ? std::max(argc, 0) : 0, argv,
                 argvlen);
}

int32_t Replicate(plinth_call_t* c, uint32_t flags, const char* command, int32_t argc,
                  const char* const* argv, const size_t* argvlen) {
  Core& core = *c->core;
  size_t len = 0;
  if (!ReplicateCheck(core, flags, command, &len, argc, argv, argvlen)) return PLINTH_ERR;
  c->replicated = true;
  if (!core.Encoding() || (c->cmd && (c->cmd->spec.flags & PLINTH_CMD_NOPROPAGATE)) ||
      (c->session && c->session->no_propagate))
    return PLINTH_OK;
  Append(core, c->db, command, len, argc, argv, argvlen);
  return PLINTH_OK;
}

int32_t ReplicateDb(plinth_plugin_t* self, int32_t db, uint32_t flags, const char* command,
                    int32_t argc, const char* const* argv, const size_t* argvlen) {
  Core& core = *self->core;
  core.AssertMainThread("replicate_db");
  if (db < 0 || db >= static_cast<int32_t>(core.dbs.size())) return PLINTH_ERR;
  size_t len = 0;
  if (!ReplicateCheck(core, flags, command, &len, argc, argv, argvlen)) return PLINTH_ERR;
  Append(core, db, command, len, argc, argv, argvlen);
  return PLINTH_OK;
}

void ReplicateVerbatim(plinth_call_t* c) { c->verbatim = true; }
void CallNoReply(plinth_call_t* c) { c->no_reply = true; }

void ClientSetReplica(plinth_call_t* c) {
  if (c->session) c->session->replica = true;
}

int32_t ClientWriteRaw(plinth_plugin_t* self, uint64_t id, const char* data, size_t len) {
  self->core->AssertMainThread("client_write_raw");
  if (!data && len) return PLINTH_ERR;
  return self->core->env().WriteRaw(id, data, len);
}

int64_t ClientOutputPending(plinth_plugin_t* self, uint64_t id) {
  return self->core->env().OutputPending(id);
}

int32_t ClientClose(plinth_plugin_t* self, uint64_t id, int32_t now) {
  self->core->AssertMainThread("client_close");
  return self->core->env().CloseClient(id, now != 0);
}

void ServerRefuse(plinth_plugin_t* self, uint32_t what, const char* error) {
  Core& core = *self->core;
  core.AssertMainThread("server_refuse");
  if (what != PLINTH_REFUSE_WRITES && what != PLINTH_REFUSE_STALE) return;
  auto& r = core.refusals;
  r.erase(std::remove_if(r.begin(), r.end(),
                         [&](const Refusal& x) { return x.owner == self && x.what == what; }),
          r.end());
  if (error && *error) r.push_back({self, what, error});
}

void ServerExpiryPassive(plinth_plugin_t* self, int32_t on) {
  self->core->AssertMainThread("server_expiry_passive");
  self->core->expiry_passive = on != 0;
}

void ServerActiveExpire(plinth_plugin_t* self, int32_t on) {
  self->core->AssertMainThread("server_active_expire");
  self->core->active_expire = on != 0;
}

int32_t ClientWake(plinth_plugin_t* self, uint64_t id) {
  Core& core = *self->core;
  core.AssertMainThread("client_wake");
  return core.Wake(id) ? PLINTH_OK : PLINTH_ERR;
}

const char* ServerRunId(plinth_plugin_t* self) { return self->core->run_id; }

}  // namespace

void FillReplicationApi(plinth_host_api_t* t) {
  t->replicate = Replicate;
  t->replicate_db = ReplicateDb;
  t->replicate_verbatim = ReplicateVerbatim;
  t->call_no_reply = CallNoReply;
  t->client_set_replica = ClientSetReplica;
  t->client_write_raw = ClientWriteRaw;
  t->client_output_pending = ClientOutputPending;
  t->client_close = ClientClose;
  t->server_refuse = ServerRefuse;
  t->server_expiry_passive = ServerExpiryPassive;
  t->server_active_expire = ServerActiveExpire;
  t->client_wake = ClientWake;
  t->server_run_id = ServerRunId;
}

}  // namespace plinth::host
