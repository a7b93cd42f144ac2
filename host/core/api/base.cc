// Host API of abi/base.h: logging and memory, timers and tasks, the clock, the call's arguments,
// the calling client, internal clients, plugins and the server's state. Each call reaches its
// core through its call, plugin or timer handle.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t CallArgc(plinth_call_t* call) { return call->argc; }

const char* CallArg(plinth_call_t* call, int32_t i, size_t* len) {
  if (i < 0 || i >= call->argc) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = call->argvlen[i];
  return call->argv[i];
}

int64_t CallTimeMs(plinth_call_t* c) { return c->now_ms; }

// CLIENT LIST's flags: b blocked, P subscribed, S replica, x in MULTI; N for none.
std::string Flags(const Session& s) {
  std::string f;
  if (s.block) f += 'b';
  if (s.sub_channels + s.sub_patterns > 0) f += 'P';
  if (s.replica) f += 'S';
  if (s.tx.active || s.tx.executing) f += 'x';
  return f.empty() ? "N" : f;
}

uint64_t ClientId(plinth_call_t* c) { return c->session ? c->session->id : 0; }

int32_t ClientSelect(plinth_call_t* c, int32_t db) {
  if (db < 0 || db >= static_cast<int32_t>(c->core->keyspace.dbs.size())) return PLINTH_ERR;
  if (c->session) c->session->db = db;
  c->db = db;
  return PLINTH_OK;
}

std::string* Attr(Session* cl, uint32_t attr) {
  switch (attr) {
    case PLINTH_CLIENT_NAME:
      return &cl->name;
    case PLINTH_CLIENT_LIB_NAME:
      return &cl->lib_name;
    case PLINTH_CLIENT_LIB_VER:
      return &cl->lib_ver;
  }
  return nullptr;
}

int32_t ClientAttrSet(plinth_call_t* c, uint32_t attr, const char* v, size_t len) {
  if (attr == PLINTH_CLIENT_NO_TOUCH && c->session) {
    c->session->no_touch = v && len == 1 && v[0] == '1';
    return PLINTH_OK;
  }
  std::string* s = c->session ? Attr(c->session, attr) : nullptr;
  if (!s) return PLINTH_ERR;
  s->assign(v ? v : "", v ? len : 0);
  return PLINTH_OK;
}

const char* ClientAttrGet(plinth_call_t* c, uint32_t attr, size_t* len) {
  if (attr == PLINTH_CLIENT_NO_TOUCH && c->session && c->session->no_touch) {
    if (len) *len = 1;
    return "1";
  }
  std::string* s = c->session ? Attr(c->session, attr) : nullptr;
  if (!s || s->empty()) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = s->size();
  return s->data();
}

void ClientCloseAfterReply(plinth_call_t* c) {
  if (c->session) c->session->close_after_reply = true;
}

void ClientDescribeApi(plinth_call_t* c, uint64_t id, plinth_emit_fn emit, void* arg) {
  c->core->server.env().clients->DescribeClients(id, emit, arg);
}

int64_t ClientKill(plinth_call_t* c, uint32_t filter, const char* v, size_t len) {
  return c->core->server.env().clients->KillClients(c->session, filter,
                                                    std::string_view(v ? v : "", v ? len : 0));
}

void StatsReset(plinth_call_t* c) {
  Core& s = *c->core;
  s.server.stats = Stats{};
  for (auto& c : s.registry.commands) c->stats = CommandStats{};
}

int32_t PluginCount(plinth_call_t* c) {
  return static_cast<int32_t>(c->core->plugins.loaded().size());
}

const plinth_plugin_descriptor_t* PluginAt(plinth_call_t* c, int32_t i, const char** path) {
  auto& v = c->core->plugins.loaded();
  if (i < 0 || static_cast<size_t>(i) >= v.size()) return nullptr;
  if (path) *path = v[i]->path.c_str();
  return &v[i]->descriptor;
}

void ServerShutdown(plinth_call_t* c, uint32_t flags) {
  c->core->server.state.shutdown_flags = flags;
  c->core->server.Log(LogLevel::kWarning, "User requested shutdown...");
  ReplyAccept(c, 0);  // SHUTDOWN answers by closing the connection, like Redis
  if (c->session) c->session->close_after_reply = true;
  c->core->server.env().process->RequestShutdown();
}

void ServerSetLoading(plinth_plugin_t* self, int32_t on) {
  int32_t& n = self->core->server.state.loaders;
  n = on ? n + 1 : (n > 0 ? n - 1 : 0);
}

int32_t ServerLoading(plinth_plugin_t* self) { return self->core->server.state.loaders > 0; }

uint32_t ServerShutdownFlags(plinth_plugin_t* self) {
  return self->core->server.state.shutdown_flags;
}

void ServerRefuse(plinth_plugin_t* self, uint32_t what, const char* error) {
  Core& core = *self->core;
  core.server.AssertMainThread("server_refuse");
  if (what != PLINTH_REFUSE_WRITES && what != PLINTH_REFUSE_STALE) return;
  auto& r = core.dispatch.refusals;
  r.erase(std::remove_if(r.begin(), r.end(),
                         [&](const Refusal& x) { return x.owner == self && x.what == what; }),
          r.end());
  if (error && *error) r.push_back({self, what, error});
}

void ServerExpiryPassive(plinth_plugin_t* self, int32_t on) {
  self->core->server.AssertMainThread("server_expiry_passive");
  self->core->keyspace.expiry.passive = on != 0;
}

void ServerActiveExpire(plinth_plugin_t* self, int32_t on) {
  self->core->server.AssertMainThread("server_active_expire");
  self->core->keyspace.expiry.active = on != 0;
}

const char* ServerRunId(plinth_plugin_t* self) { return self->core->server.state.run_id; }

int32_t ServerStopping(plinth_plugin_t* self) {
  return self->core->server.env().process->Stopping() ? 1 : 0;
}

void LogWrite(plinth_plugin_t* self, uint32_t level, const char* msg, size_t len) {
  if (level > PLINTH_LOG_WARNING) level = PLINTH_LOG_WARNING;
  if (!self) return;  // no host to write to
  if (level == PLINTH_LOG_WARNING && self->core->plugins.loading == self)
    self->init_warning.assign(msg, len);
  self->core->server.env().log->Log(static_cast<LogLevel>(level), self->name,
                                    std::string_view(msg, len));
}

void* MemAlloc(size_t n) { return std::malloc(n); }

void* MemRealloc(void* p, size_t n) { return std::realloc(p, n); }

void MemFree(void* p) { std::free(p); }

plinth_timer_t* TimerStart(plinth_plugin_t* self, uint64_t ms, uint64_t repeat_ms,
                           plinth_timer_fn fn, void* arg) {
  if (!self || !fn) return nullptr;
  Core& core = *self->core;
  core.server.AssertMainThread("timer_start");
  plinth_timer_t* t = core.server.env().scheduler->TimerStart(ms, repeat_ms, fn, arg);
  if (t && core.plugins.loading) core.plugins.loading->init_timers.emplace_back(t);
  return t;
}

int32_t LoopPost(plinth_plugin_t* self, plinth_task_fn fn, void* arg) {
  if (!self || !fn) return PLINTH_ERR;
  return self->core->server.env().scheduler->Post(fn, arg);
}

int64_t TimeUs(plinth_plugin_t* self) { return self ? self->core->server.env().clock->NowUs() : 0; }

int64_t ClientInfoInt(plinth_plugin_t* self, uint64_t id, uint32_t what) {
  if (!self) return -1;
  self->core->server.AssertMainThread("client_info_int");
  const Session* s = self->core->server.env().clients->FindSession(id);
  if (!s) return -1;
  switch (what) {
    case PLINTH_CLIENT_INFO_PROTOCOL:
      return s->proto;
    case PLINTH_CLIENT_INFO_SUBSCRIPTIONS:
      return s->sub_channels + s->sub_patterns;
    default:
      return -1;
  }
}

int32_t ClientsPause(plinth_plugin_t* self, uint32_t what, int64_t end_ms) {
  if (!self || what > PLINTH_PAUSE_ALL) return PLINTH_ERR;
  self->core->server.AssertMainThread("clients_pause");
  self->core->sessions.SetPause(self->name, what, end_ms);
  return PLINTH_OK;
}

}  // namespace

std::string ClientListLine(const Session& s, const ConnFields& f) {
  std::string cmd = s.last_command ? s.last_command->name : "NULL";
  if (!s.last_subcommand.empty()) cmd += "|" + s.last_subcommand;
  const bool in_multi = s.tx.active || s.tx.executing;
  const long long multi = in_multi ? static_cast<long long>(s.tx.queue.size()) : -1;
  char buf[1024];
  std::snprintf(
      buf, sizeof buf,
      "id=%llu addr=%.*s laddr=%.*s fd=%d name=%s age=%lld idle=%lld flags=%s db=%d "
      "sub=%lld psub=%lld ssub=0 multi=%lld qbuf=%zu qbuf-free=%zu argv-mem=0 multi-mem=%zu "
      "rbs=%zu rbp=0 obl=0 oll=%zu omem=%zu tot-mem=%zu events=r cmd=%s user=%s "
      "redir=-1 resp=%d lib-name=%s lib-ver=%s io-thread=%d",
      static_cast<unsigned long long>(s.id), static_cast<int>(f.addr.size()), f.addr.data(),
      static_cast<int>(f.laddr.size()), f.laddr.data(), f.fd, s.name.c_str(),
      static_cast<long long>(f.age_s), static_cast<long long>(f.idle_s), Flags(s).c_str(), s.db,
      static_cast<long long>(s.sub_channels), static_cast<long long>(s.sub_patterns), multi, f.qbuf,
      f.qbuf_free, s.tx.queued_bytes, f.rbs, f.oll, f.omem, f.tot_mem, cmd.c_str(), s.user.c_str(),
      s.proto, s.lib_name.c_str(), s.lib_ver.c_str(), f.io_thread);
  return buf;
}

void TimerStop(plinth_timer_t* t) {
  if (t) t->scheduler->TimerStop(t);
}

void FillBaseApi(plinth_host_api_t* t) {
  t->log_write = LogWrite;
  t->mem_alloc = MemAlloc;
  t->mem_realloc = MemRealloc;
  t->mem_free = MemFree;
  t->timer_start = TimerStart;
  t->timer_stop = TimerStop;
  t->loop_post = LoopPost;
  t->call_argc = CallArgc;
  t->call_arg = CallArg;
  t->client_id = ClientId;
  t->client_select = ClientSelect;
  t->client_attr_set = ClientAttrSet;
  t->client_attr_get = ClientAttrGet;
  t->client_close_after_reply = ClientCloseAfterReply;
  t->client_describe = ClientDescribeApi;
  t->client_kill = ClientKill;
  t->stats_reset = StatsReset;
  t->plugin_count = PluginCount;
  t->plugin_at = PluginAt;
  t->server_shutdown = ServerShutdown;
  t->time_us = TimeUs;
  t->call_time_ms = CallTimeMs;
  t->client_create_internal = ClientCreateInternal;
  t->client_exec = ClientExec;
  t->client_destroy_internal = ClientDestroyInternal;
  t->server_set_loading = ServerSetLoading;
  t->server_loading = ServerLoading;
  t->server_shutdown_flags = ServerShutdownFlags;
  t->server_refuse = ServerRefuse;
  t->server_expiry_passive = ServerExpiryPassive;
  t->server_run_id = ServerRunId;
  t->server_stopping = ServerStopping;
  t->clients_pause = ClientsPause;
  t->server_active_expire = ServerActiveExpire;
  t->client_info_int = ClientInfoInt;
}

}  // namespace plinth::host
