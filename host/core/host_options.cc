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

// Placeholders accept only their default (ctx: the spec's): the feature needs its plugin.
int32_t ApplyPlaceholder(void* ctx, const char* name, const char* v, size_t len, int64_t, char* err,
                         size_t errlen) {
  if (std::string_view(v, len) == static_cast<const char*>(ctx)) return PLINTH_OK;
  std::snprintf(err, errlen, "'%s' needs a plugin that provides it, and none is loaded", name);
  return PLINTH_ERR;
}

// The placeholder options (plugins/placeholder_options.txt, compiled in): "name=default ...".
struct Placeholder {
  std::string name, def;
};
std::vector<Placeholder> Placeholders() {
  std::vector<Placeholder> out;
  std::string_view all = PLINTH_PLACEHOLDER_OPTIONS;
  while (!all.empty()) {
    const size_t end = std::min(all.find(' '), all.size());
    const std::string_view item = all.substr(0, end);
    const size_t eq = item.find('=');
    if (eq != std::string_view::npos)
      out.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
    all.remove_prefix(std::min(end + 1, all.size()));
  }
  return out;
}

// Registers each placeholder option: a string that takes its default only.
bool RegisterPlaceholders(Options& options, std::string* err) {
  // The defaults live as long as the options: the apply callback reads them.
  static const std::vector<Placeholder> kPlaceholders = Placeholders();
  for (const Placeholder& p : kPlaceholders) {
    plinth_option_spec_t s{};
    s.struct_size = sizeof s;
    s.name = p.name.c_str();
    s.type = PLINTH_OPT_STRING;
    s.flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME | kOptPlaceholder;
    s.default_value = p.def.c_str();
    s.description = "provided by a plugin (not loaded): only its default is accepted";
    s.apply = ApplyPlaceholder;
    s.ctx = const_cast<char*>(p.def.c_str());
    if (!options.Register(&s, "host", err)) return false;
  }
  return true;
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
         RegisterPlaceholders(core_.options, err) && core_.keyspace.evictor.RegisterOptions(err);
}

}  // namespace plinth::host
