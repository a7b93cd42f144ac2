// Host API of abi/acl.h: the ACL provider a plugin registers, its users, the checks of a
// command and a key, and the calling client's user and authentication. The host's side of the
// checks is in ../acl.cc. Main thread.
#include <cstring>
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "host/core/abi_compat.h"
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t ClientAuthenticatedApi(plinth_call_t* c) {
  return !c->session || c->core->auth.Authenticated(*c->session) ? 1 : 0;
}

void ClientSetAuthenticated(plinth_call_t* c, int32_t yes) {
  if (c->session) c->session->authenticated = yes != 0;
}

int32_t AclProviderRegister(plinth_plugin_t* self, const plinth_acl_provider_t* p) {
  if (!InInit(self, "acl_provider_register")) return PLINTH_ERR;
  Core& core = *self->core;
  if (!core.auth.acl.owner.empty()) {
    core.server.Log(LogLevel::kWarning, "plugin '%s': the ACL provider is already '%s'",
                    self->name.c_str(), core.auth.acl.owner.c_str());
    return PLINTH_ERR;
  }
  plinth_acl_provider_t copy{};
  if (!CopySpec(&copy, p) || !copy.authenticate || !copy.check || !copy.check_key ||
      !copy.user_name || !copy.user_exists)
    return PLINTH_ERR;
  core.auth.acl.spec = copy;
  core.auth.acl.owner = self->name;
  return PLINTH_OK;
}

void AclUserUpdate(plinth_plugin_t* self, uint64_t user_id, int32_t restricted, int32_t close,
                   int32_t needs_auth) {
  Core& core = *self->core;
  if (core.auth.acl.owner != self->name) return;
  if (user_id == core.auth.acl.default_user) {
    core.auth.acl.default_restricted = restricted != 0;
    core.auth.acl.default_needs_auth = needs_auth != 0;
  }
  std::vector<uint64_t> victims;
  core.server.env().clients->ForEachSession([&](Session& s) {
    if (s.user_id != user_id) return;
    if (close) victims.push_back(s.id);
    s.acl_restricted = restricted != 0;
  });
  for (uint64_t id : victims) core.server.env().connections->CloseClient(id, false);
}

void AclDefaultUser(plinth_plugin_t* self, uint64_t user_id, int32_t restricted,
                    int32_t needs_auth) {
  Core& core = *self->core;
  if (core.auth.acl.owner != self->name) return;
  core.auth.acl.default_user = user_id;
  core.auth.acl.default_restricted = restricted != 0;
  core.auth.acl.default_needs_auth = needs_auth != 0;
}

int32_t ClientAuthenticate(plinth_call_t* c, const char* user, size_t ulen, const char* pass,
                           size_t plen) {
  Core& core = *c->core;
  Session* s = c->session;
  if (!s || !pass) return PLINTH_ERR;
  if (!core.auth.acl.owner.empty()) {
    uint64_t id = 0;
    int32_t restricted = 0;
    const int32_t rc = core.auth.acl.spec.authenticate(core.auth.acl.spec.ctx, c, user, ulen, pass,
                                                       plen, &id, &restricted);
    if (rc != PLINTH_OK) return rc;
    const char* name = core.auth.acl.spec.user_name(core.auth.acl.spec.ctx, id);
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
  if (!c->session || !core.auth.Restricted(*c->session)) return PLINTH_OK;
  Command* cmd =
      argc > 0 ? core.registry.FindCommand(std::string_view(argv[0], argvlen[0])) : nullptr;
  const std::string denied =
      cmd ? core.auth.Check(&core, *c->session, cmd, Registry::Resolve(cmd, argc, argv, argvlen),
                            argc, argv, argvlen)
          : "ERR unknown command";
  if (denied.empty()) return PLINTH_OK;
  if (err && errcap) std::snprintf(err, errcap, "%s", denied.c_str());
  return PLINTH_ERR;
}

int32_t AclCheckKey(plinth_call_t* c, const char* key, size_t len, uint32_t flags) {
  Core& core = *c->core;
  if (!c->session || !core.auth.Restricted(*c->session)) return PLINTH_OK;
  const Session& s = *c->session;
  const uint64_t user = s.user_id ? s.user_id : core.auth.acl.default_user;
  return core.auth.acl.spec.check_key(core.auth.acl.spec.ctx, user, key, len, flags);
}

int32_t AclUserExists(plinth_plugin_t* self, const char* name, size_t len) {
  const Core& core = *self->core;
  const std::string_view n = name ? std::string_view(name, len) : std::string_view();
  if (core.auth.acl.owner.empty()) return n == "default" ? 1 : 0;
  return core.auth.acl.spec.user_exists(core.auth.acl.spec.ctx, n.data(), n.size()) ? 1 : 0;
}

}  // namespace

void FillAclApi(plinth_host_api_t* t) {
  t->client_authenticated = ClientAuthenticatedApi;
  t->client_set_authenticated = ClientSetAuthenticated;
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
