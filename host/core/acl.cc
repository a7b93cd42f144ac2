// Access control as the host sees it: commands as data (ids, categories, keys), the ACL
// provider a plugin registers, and the calling client's user. The rules themselves are the
// provider's; the host only asks it, and only for clients whose user it said is restricted.
#include <cstring>
#include <plinth/text.hpp>
#include <string>

#include "host/core/abi_compat.h"
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

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

uint32_t ContextOf(const Session& s) {
  if (s.run_flags) return PLINTH_ACL_CONTEXT_SCRIPT;
  return (s.tx.active || s.tx.executing) ? PLINTH_ACL_CONTEXT_MULTI : PLINTH_ACL_CONTEXT_TOPLEVEL;
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

int32_t AclProviderRegister(plinth_plugin_t* self, const plinth_acl_provider_t* p) {
  if (!InInit(self, "acl_provider_register")) return PLINTH_ERR;
  Core& core = *self->core;
  if (!core.acl.owner.empty()) {
    core.Log(LogLevel::kWarning, "plugin '%s': the ACL provider is already '%s'",
             self->name.c_str(), core.acl.owner.c_str());
    return PLINTH_ERR;
  }
  plinth_acl_provider_t copy{};
  if (!CopySpec(&copy, p) || !copy.authenticate || !copy.check || !copy.check_key ||
      !copy.user_name || !copy.user_exists)
    return PLINTH_ERR;
  core.acl.provider = copy;
  core.acl.owner = self->name;
  return PLINTH_OK;
}

void AclUserUpdate(plinth_plugin_t* self, uint64_t user_id, int32_t restricted, int32_t close,
                   int32_t needs_auth) {
  Core& core = *self->core;
  if (core.acl.owner != self->name) return;
  if (user_id == core.acl.default_user) {
    core.acl.default_restricted = restricted != 0;
    core.acl.default_needs_auth = needs_auth != 0;
  }
  std::vector<uint64_t> victims;
  core.env().ForEachSession([&](Session& s) {
    if (s.user_id != user_id) return;
    if (close) victims.push_back(s.id);
    s.acl_restricted = restricted != 0;
  });
  for (uint64_t id : victims) core.env().CloseClient(id, false);
}

void AclDefaultUser(plinth_plugin_t* self, uint64_t user_id, int32_t restricted,
                    int32_t needs_auth) {
  Core& core = *self->core;
  if (core.acl.owner != self->name) return;
  core.acl.default_user = user_id;
  core.acl.default_restricted = restricted != 0;
  core.acl.default_needs_auth = needs_auth != 0;
}

int32_t ClientAuthenticate(plinth_call_t* c, const char* user, size_t ulen, const char* pass,
                           size_t plen) {
  Core& core = *c->core;
  Session* s = c->session;
  if (!s || !pass) return PLINTH_ERR;
  if (!core.acl.owner.empty()) {
    uint64_t id = 0;
    int32_t restricted = 0;
    const int32_t rc = core.acl.provider.authenticate(core.acl.provider.ctx, c, user, ulen, pass,
                                                      plen, &id, &restricted);
    if (rc != PLINTH_OK) return rc;
    const char* name = core.acl.provider.user_name(core.acl.provider.ctx, id);
    s->user_id = id;
    s->acl_restricted = restricted != 0;
    s->user = name ? name : "";
    s->authenticated = true;
    return PLINTH_OK;
  }
  const Option* o = core.options.Find("requirepass");
  const std::string_view want = o ? std::string_view(o->value) : std::string_view();
  if (user && std::string_view(user, ulen) != "default") return PLINTH_ERR;
  if (want.empty() && !user) return PLINTH_AUTH_NOPASS;
  if (!want.empty() && !text::SecretEquals(want, std::string_view(pass, plen))) return PLINTH_ERR;
  s->authenticated = true;
  return PLINTH_OK;
}

uint64_t ClientUser(plinth_call_t* c, const char** name) {
  if (name) *name = c->session ? c->session->user.c_str() : "default";
  return c->session ? c->session->user_id : 0;
}

int32_t AclCheckCommand(plinth_call_t* c, int32_t argc, const char* const* argv,
                        const size_t* argvlen, char* err, size_t errcap) {
  Core& core = *c->core;
  if (!c->session || !core.AclRestricted(*c->session)) return PLINTH_OK;
  Command* cmd =
      argc > 0 ? core.registry.FindCommand(std::string_view(argv[0], argvlen[0])) : nullptr;
  const std::string denied =
      cmd ? core.AclCheck(*c->session, cmd, Registry::Resolve(cmd, argc, argv, argvlen), argc, argv,
                          argvlen)
          : "ERR unknown command";
  if (denied.empty()) return PLINTH_OK;
  if (err && errcap) std::snprintf(err, errcap, "%s", denied.c_str());
  return PLINTH_ERR;
}

int32_t AclCheckKey(plinth_call_t* c, const char* key, size_t len, uint32_t flags) {
  Core& core = *c->core;
  if (!c->session || !core.AclRestricted(*c->session)) return PLINTH_OK;
  const Session& s = *c->session;
  const uint64_t user = s.user_id ? s.user_id : core.acl.default_user;
  return core.acl.provider.check_key(core.acl.provider.ctx, user, key, len, flags);
}

int32_t AclUserExists(plinth_plugin_t* self, const char* name, size_t len) {
  const Core& core = *self->core;
  const std::string_view n = name ? std::string_view(name, len) : std::string_view();
  if (core.acl.owner.empty()) return n == "default" ? 1 : 0;
  return core.acl.provider.user_exists(core.acl.provider.ctx, n.data(), n.size()) ? 1 : 0;
}

}  // namespace

std::string Core::AclCheck(Session& s, Command* cmd, const Command* run, int32_t argc,
                           const char* const* argv, const size_t* argvlen) {
  plinth_call call;
  call.core = this;
  call.session = &s;
  call.cmd = cmd;
  call.argc = argc;
  call.argv = argv;
  call.argvlen = argvlen;
  call.db = s.db;
  const uint64_t user = s.user_id ? s.user_id : acl.default_user;
  char err[512] = "";
  if (acl.provider.check(acl.provider.ctx, &call, user, run->id, ContextOf(s), err, sizeof err) ==
      PLINTH_OK)
    return std::string();
  return err[0] ? std::string(err)
                : "NOPERM this user has no permissions to run the '" + run->name + "' command";
}

void FillAclApi(plinth_host_api_t* t) {
  t->command_ids = CommandIds;
  t->command_info = CommandInfo;
  t->command_find = CommandFind;
  t->command_keys = CommandKeys;
  t->acl_provider_register = AclProviderRegister;
  t->acl_user_update = AclUserUpdate;
  t->acl_default_user = AclDefaultUser;
  t->client_authenticate = ClientAuthenticate;
  t->client_user = ClientUser;
  t->acl_check_command = AclCheckCommand;
  t->acl_check_key = AclCheckKey;
  t->acl_user_exists = AclUserExists;
}

}  // namespace plinth::host
