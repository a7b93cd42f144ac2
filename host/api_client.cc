// Host API for the calling client, propagation, and server introspection (INFO, CONFIG,
// COMMAND, PLUGIN LIST, SHUTDOWN).
#include <fnmatch.h>

#include <cstring>
#include <string>

#include "host/api.h"
#include "host/call.h"
#include "host/client.h"
#include "host/info.h"
#include "host/log.h"
#include "host/server.h"

namespace plinth::host {
namespace {

int32_t Replicate(plinth_call_t* c, uint32_t flags, const char* command, int32_t argc,
                  const char* const* argv, const size_t* argvlen) {
  if (!command || argc < 0 || (argc > 0 && (!argv || !argvlen))) return PLINTH_ERR;
  if (!(flags & PLINTH_REPLICATE_NO_VALIDATE)) {
    const Command* cmd = Srv().registry.FindCommand(command);
    if (!cmd) return PLINTH_ERR;
    int32_t a = cmd->spec.arity, n = argc + 1;
    if (a > 0 ? n != a : n < -a) return PLINTH_ERR;
    for (int32_t i = 0; i < argc; ++i)
      if (!argv[i]) return PLINTH_ERR;
  }
  c->replicated = true;
  if (Srv().registry.consumers.empty()) return PLINTH_OK;
  std::vector<std::string> cmd;
  cmd.reserve(static_cast<size_t>(argc) + 1);
  cmd.emplace_back(command);
  for (int32_t i = 0; i < argc; ++i) cmd.emplace_back(argv[i], argvlen[i]);
  c->propagate.push_back(std::move(cmd));
  return PLINTH_OK;
}

void NoPropagate(plinth_call_t* c) { c->no_propagate = true; }

uint64_t ClientId(plinth_call_t* c) { return c->client ? c->client->id : 0; }

int32_t ClientSelect(plinth_call_t* c, int32_t db) {
  if (db < 0 || db >= static_cast<int32_t>(Srv().dbs.size())) return PLINTH_ERR;
  if (c->client) c->client->db = db;
  c->db = db;
  return PLINTH_OK;
}

int32_t ClientProtocol(plinth_call_t* c) { return c->client ? c->client->proto : 2; }
int32_t ClientSetProtocol(plinth_call_t* c, int32_t v) {
  if (v != 2 && v != 3) return PLINTH_ERR;
  if (c->client) c->client->proto = v;
  return PLINTH_OK;
}

std::string* Attr(Client* cl, uint32_t attr) {
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
  std::string* s = c->client ? Attr(c->client, attr) : nullptr;
  if (!s) return PLINTH_ERR;
  s->assign(v ? v : "", v ? len : 0);
  return PLINTH_OK;
}
const char* ClientAttrGet(plinth_call_t* c, uint32_t attr, size_t* len) {
  std::string* s = c->client ? Attr(c->client, attr) : nullptr;
  if (!s || s->empty()) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = s->size();
  return s->data();
}

int32_t ClientAuthenticatedApi(plinth_call_t* c) {
  return !c->client || ClientAuthenticated(c->client) ? 1 : 0;
}
void ClientSetAuthenticated(plinth_call_t* c, int32_t yes) {
  if (c->client) c->client->authenticated = yes != 0;
}
void ClientCloseAfterReply(plinth_call_t* c) {
  if (c->client) c->client->close_after_reply = true;
}

void ClientDescribeApi(plinth_call_t*, uint64_t id, plinth_emit_fn emit, void* arg) {
  Server& s = Srv();
  if (id) {
    auto it = s.clients.find(id);
    if (it != s.clients.end()) {
      std::string line = ClientDescribe(it->second);
      emit(arg, line.data(), line.size());
    }
    return;
  }
  std::vector<Client*> all;
  for (auto& [cid, cl] : s.clients) all.push_back(cl);
  std::sort(all.begin(), all.end(), [](Client* a, Client* b) { return a->id < b->id; });
  for (Client* cl : all) {
    std::string line = ClientDescribe(cl);
    emit(arg, line.data(), line.size());
  }
}

int64_t ClientKill(plinth_call_t* c, uint32_t filter, const char* v, size_t len) {
  Server& s = Srv();
  std::string_view want(v ? v : "", v ? len : 0);
  std::vector<Client*> victims;
  for (auto& [id, cl] : s.clients) {
    bool match = false;
    if (filter == PLINTH_KILL_ID) match = std::to_string(id) == want;
    if (filter == PLINTH_KILL_ADDR) match = cl->peer == want;
    if (filter == PLINTH_KILL_LADDR) match = cl->local == want;
    if (match) victims.push_back(cl);
  }
  for (Client* cl : victims) {
    if (cl == c->client)
      cl->close_after_reply = true;
    else
      ClientClose(cl);
  }
  return static_cast<int64_t>(victims.size());
}

void InfoRenderApi(plinth_call_t*, const char* section, size_t len, plinth_emit_fn emit,
                   void* arg) {
  std::string text = RenderInfo(std::string_view(section ? section : "", section ? len : 0));
  emit(arg, text.data(), text.size());
}

void ConfigGet(plinth_call_t*, const char* pattern, size_t len, plinth_emit_fn emit, void* arg) {
  std::string pat(pattern ? pattern : "", pattern ? len : 0);
  for (char& ch : pat) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& [name, o] : Srv().options.All()) {
    if (fnmatch(pat.c_str(), name.c_str(), 0) != 0) continue;
    emit(arg, name.data(), name.size());
    emit(arg, o.value.data(), o.value.size());
  }
}

int32_t ConfigSet(plinth_call_t*, const char* name, size_t nlen, const char* value, size_t vlen,
                  char* err, size_t errlen) {
  std::string why;
  if (Srv().options.Set({name, nlen}, {value, vlen}, true, &why)) return PLINTH_OK;
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

void StatsReset(plinth_call_t*) {
  Server& s = Srv();
  s.stats = Stats{};
  for (auto& c : s.registry.commands) c->stats = CommandStats{};
}

int32_t CommandCount() { return static_cast<int32_t>(Srv().registry.commands.size()); }
const plinth_command_spec_t* CommandAt(int32_t i) {
  auto& v = Srv().registry.commands;
  return i >= 0 && static_cast<size_t>(i) < v.size() ? &v[i]->spec : nullptr;
}
const plinth_command_spec_t* CommandLookup(const char* name, size_t len) {
  const Command* c = Srv().registry.FindCommand({name, len});
  return c ? &c->spec : nullptr;
}
int32_t PluginCount() { return static_cast<int32_t>(Srv().plugins.size()); }
const plinth_plugin_descriptor_t* PluginAt(int32_t i, const char** path) {
  auto& v = Srv().plugins;
  if (i < 0 || static_cast<size_t>(i) >= v.size()) return nullptr;
  if (path) *path = v[i]->path.c_str();
  return v[i]->descriptor;
}

void ServerShutdown(plinth_call_t* c, uint32_t) {
  Log(LogLevel::kWarning, "User requested shutdown...");
  c->replies++;  // SHUTDOWN answers by closing the connection, like Redis
  if (c->client) c->client->close_after_reply = true;
  ServerStop();
}

}  // namespace

void FillClientApi(plinth_host_api_t* t) {
  t->replicate = Replicate;
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
  t->stats_reset = StatsReset;
  t->command_count = CommandCount;
  t->command_at = CommandAt;
  t->command_lookup = CommandLookup;
  t->plugin_count = PluginCount;
  t->plugin_at = PluginAt;
  t->server_shutdown = ServerShutdown;
}

}  // namespace plinth::host
