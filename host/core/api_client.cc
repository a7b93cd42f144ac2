// Host API for the calling client, propagation, and server introspection (INFO, CONFIG,
// COMMAND, PLUGIN LIST, SHUTDOWN).
#include <cstring>
#include <plinth/text.hpp>
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

namespace {

// CLIENT LIST's flags: b blocked, P subscribed, S replica, x in MULTI; N for none.
std::string Flags(const Session& s) {
  std::string f;
  if (s.block) f += 'b';
  if (s.sub_channels + s.sub_patterns > 0) f += 'P';
  if (s.replica) f += 'S';
  if (s.tx.active || s.tx.executing) f += 'x';
  return f.empty() ? "N" : f;
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

namespace {

void NoPropagate(plinth_call_t* c) { c->no_propagate = true; }

uint64_t ClientId(plinth_call_t* c) { return c->session ? c->session->id : 0; }

int32_t ClientSelect(plinth_call_t* c, int32_t db) {
  if (db < 0 || db >= static_cast<int32_t>(c->core->dbs.size())) return PLINTH_ERR;
  if (c->session) c->session->db = db;
  c->db = db;
  return PLINTH_OK;
}

int32_t ClientProtocol(plinth_call_t* c) { return c->session ? c->session->proto : 2; }
int32_t ClientSetProtocol(plinth_call_t* c, int32_t v) {
  if (v != 2 && v != 3) return PLINTH_ERR;
  if (c->session) c->session->proto = v;
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

int32_t ClientAuthenticatedApi(plinth_call_t* c) {
  return !c->session || c->core->Authenticated(*c->session) ? 1 : 0;
}
void ClientSetAuthenticated(plinth_call_t* c, int32_t yes) {
  if (c->session) c->session->authenticated = yes != 0;
}
void ClientCloseAfterReply(plinth_call_t* c) {
  if (c->session) c->session->close_after_reply = true;
}

void ClientDescribeApi(plinth_call_t* c, uint64_t id, plinth_emit_fn emit, void* arg) {
  c->core->env().DescribeClients(id, emit, arg);
}

int64_t ClientKill(plinth_call_t* c, uint32_t filter, const char* v, size_t len) {
  return c->core->env().KillClients(c->session, filter, std::string_view(v ? v : "", v ? len : 0));
}

void InfoRenderApi(plinth_call_t* c, const char* section, size_t len, plinth_emit_fn emit,
                   void* arg) {
  std::string text =
      c->core->RenderInfo(std::string_view(section ? section : "", section ? len : 0));
  emit(arg, text.data(), text.size());
}

void ConfigGet(plinth_call_t* c, const char* pattern, size_t len, plinth_emit_fn emit, void* arg) {
  std::string_view pat(pattern ? pattern : "", pattern ? len : 0);
  // Like Redis: a name without glob characters is looked up and answered as it was typed.
  if (pat.find_first_of("*?[\\") == std::string_view::npos) {
    if (const Option* o = c->core->options.Find(pat)) {
      emit(arg, pat.data(), pat.size());
      emit(arg, o->value.data(), o->value.size());
    }
    return;
  }
  for (const auto& [name, o] : c->core->options.All()) {
    if (!text::GlobMatch(pat, name, true)) continue;
    emit(arg, name.data(), name.size());
    emit(arg, o.value.data(), o.value.size());
  }
}

int32_t ConfigSet(plinth_call_t* c, const char* name, size_t nlen, const char* value, size_t vlen,
                  char* err, size_t errlen) {
  std::string why;
  // A protected option: only when enable-protected-configs allows the client (a call with no
  // client, or a plugin's internal client, is the host's or that plugin's own, which may).
  const bool protected_ok =
      !c->session || c->session->internal || c->core->ProtectedConfigsAllowed(*c->session);
  if (c->core->options.Set({name, nlen}, {value, vlen}, true, &why, protected_ok)) return PLINTH_OK;
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

int32_t ConfigRewrite(plinth_call_t* c, char* err, size_t errlen) {
  Core& core = *c->core;
  std::string why;
  if (core.config_file.empty()) {
    why = "The server is running without a config file";
  } else if (core.env().RewriteConfig(core.config_file, &why)) {
    core.Log(LogLevel::kNotice, "CONFIG REWRITE executed with success.");
    return PLINTH_OK;
  }
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

void StatsReset(plinth_call_t* c) {
  Core& s = *c->core;
  s.stats = Stats{};
  for (auto& c : s.registry.commands) c->stats = CommandStats{};
}

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
int32_t PluginCount(plinth_call_t* c) { return static_cast<int32_t>(c->core->plugins.size()); }
const plinth_plugin_descriptor_t* PluginAt(plinth_call_t* c, int32_t i, const char** path) {
  auto& v = c->core->plugins;
  if (i < 0 || static_cast<size_t>(i) >= v.size()) return nullptr;
  if (path) *path = v[i]->path.c_str();
  return &v[i]->descriptor;
}

void ServerShutdown(plinth_call_t* c, uint32_t flags) {
  c->core->shutdown_flags = flags;
  c->core->Log(LogLevel::kWarning, "User requested shutdown...");
  ReplyAccept(c, 0);  // SHUTDOWN answers by closing the connection, like Redis
  if (c->session) c->session->close_after_reply = true;
  c->core->env().RequestShutdown();
}

}  // namespace

void FillClientApi(plinth_host_api_t* t) {
  t->call_no_propagate = NoPropagate;
  t->client_id = ClientId;
  t->client_select = ClientSelect;
  t->client_protocol = ClientProtocol;
  t->client_set_protocol = ClientSetProtocol;
  t->client_attr_set = ClientAttrSet;
  t->client_attr_get = ClientAttrGet;
  t->client_authenticated = ClientAuthenticatedApi;
  t->client_set_authenticated = ClientSetAuthenticated;
  t->client_close_after_reply = ClientCloseAfterReply;
  t->client_describe = ClientDescribeApi;
  t->client_kill = ClientKill;
  t->info_render = InfoRenderApi;
  t->config_get = ConfigGet;
  t->config_set = ConfigSet;
  t->config_rewrite = ConfigRewrite;
  t->stats_reset = StatsReset;
  t->command_count = CommandCount;
  t->command_at = CommandAt;
  t->command_lookup = CommandLookup;
  t->plugin_count = PluginCount;
  t->plugin_at = PluginAt;
  t->server_shutdown = ServerShutdown;
}

}  // namespace plinth::host
