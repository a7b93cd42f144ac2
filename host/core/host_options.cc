// The core's own options: databases, the password, the plugin loader's, and the persistence
// placeholders that clients read before a persistence plugin provides them.
#include "host/core/host_options.h"

#include <cstdio>

#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t ApplyPassword(void* ctx, const char*, const char* v, size_t len, int64_t, char*, size_t) {
  Core& core = *static_cast<Core*>(ctx);
  core.auth.has_password = v && len > 0;
  const plinth_acl_provider_t& p = core.auth.acl.spec;
  if (!core.auth.acl.owner.empty() && p.requirepass) p.requirepass(p.ctx, v ? v : "", v ? len : 0);
  return PLINTH_OK;
}

// enable-debug-command and enable-protected-configs: "no|yes|local" (Redis's order, which its
// error text lists) as a policy.
Auth::Policy ActionOf(int64_t index) {
  return index == 1 ? Auth::Policy::kYes : index == 2 ? Auth::Policy::kLocal : Auth::Policy::kNo;
}
int32_t ApplyDebug(void* ctx, const char*, const char*, size_t, int64_t number, char*, size_t) {
  static_cast<Core*>(ctx)->auth.enable_debug = ActionOf(number);
  return PLINTH_OK;
}
int32_t ApplyProtectedConfigs(void* ctx, const char*, const char*, size_t, int64_t number, char*,
                              size_t) {
  static_cast<Core*>(ctx)->auth.enable_protected_configs = ActionOf(number);
  return PLINTH_OK;
}

// Placeholders accept only their default: the feature needs its plugin.
int32_t ApplyPlaceholder(void*, const char* name, const char* v, size_t len, int64_t, char* err,
                         size_t errlen) {
  const char* def = std::string_view(name) == "appendonly" ? "no" : "";
  if (std::string_view(v, len) == def) return PLINTH_OK;
  std::snprintf(err, errlen, "'%s' needs a persistence plugin, and none is loaded", name);
  return PLINTH_ERR;
}

constexpr uint32_t kMut = PLINTH_OPT_MUTABLE;
constexpr uint32_t kProt = PLINTH_OPT_PROTECTED;
const HostOption kCoreOptions[] = {
    {"databases", PLINTH_OPT_INT, 0, "16", 1, 1 << 20, nullptr, "number of databases", nullptr},
    {"requirepass", PLINTH_OPT_STRING, kMut | PLINTH_OPT_SECRET, "", 0, 0, nullptr,
     "password of the default user (empty: none)", ApplyPassword},
    // Both immutable, as in Redis: a client never widens what clients may do.
    {"enable-debug-command", PLINTH_OPT_ENUM, 0, "no", 0, 0, "no|yes|local",
     "who may run DEBUG: no client, every client or local clients (loopback, unix socket)",
     ApplyDebug},
    {"enable-protected-configs", PLINTH_OPT_ENUM, 0, "no", 0, 0, "no|yes|local",
     "who may CONFIG SET protected options (dir, dbfilename, ...): no client, every client or "
     "local clients",
     ApplyProtectedConfigs},
    {"plugin-dir", PLINTH_OPT_STRING, kProt, "", 0, 0, nullptr,
     "where plugins named without a path are found (default: <prefix>/lib/plinth/plugins)",
     nullptr},
    {"plugin-allow-writable", PLINTH_OPT_BOOL, 0, "no", 0, 0, nullptr,
     "load plugin files that group or others may write", nullptr},
    {"appendonly", PLINTH_OPT_BOOL, kMut | kOptPlaceholder, "no", 0, 0, nullptr,
     "append-only file (needs a persistence plugin)", ApplyPlaceholder},
    {"save", PLINTH_OPT_STRING, kMut | kOptPlaceholder, "", 0, 0, nullptr,
     "snapshot schedule (needs a persistence plugin)", ApplyPlaceholder},
};

}  // namespace

int32_t ApplyFail(char* err, size_t errlen, const char* msg) {
  std::snprintf(err, errlen, "%s", msg);
  return PLINTH_ERR;
}

bool RegisterOptionTable(Options& options, const HostOption* table, size_t n, void* ctx,
                         std::string* err) {
  for (size_t i = 0; i < n; ++i) {
    const HostOption& h = table[i];
    plinth_option_spec_t s{};
    s.struct_size = sizeof s;
    s.name = h.name;
    s.type = h.type;
    s.flags = h.flags | PLINTH_OPT_GLOBAL_NAME;
    s.default_value = h.def;
    s.min = h.min;
    s.max = h.max;
    s.enum_values = h.enums;
    s.description = h.desc;
    s.apply = h.apply;
    s.ctx = ctx;
    if (!options.Register(&s, "host", err)) return false;
  }
  return true;
}

bool Server::RegisterOptions(std::string* err) {
  return RegisterOptionTable(core_.options, kCoreOptions, std::size(kCoreOptions), &core_, err) &&
         core_.keyspace.evictor.RegisterOptions(err);
}

}  // namespace plinth::host
