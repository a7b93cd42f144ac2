// Plugin loading stages: validate (the file), open (dlopen), entry (the symbol), abi,
// descriptor, init. Nothing of the plugin runs before "entry", and only the entry function
// (which returns a static descriptor) before "init".

#include <dlfcn.h>
#include <plinth/plugin.h>
#include <sys/stat.h>

#include <cstring>

#include "host/core/abi_compat.h"
#include "host/core/api.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

bool ValidPluginName(const char* n) {
  if (!n) return false;
  size_t len = strnlen(n, 33);
  if (len == 0 || len > 32) return false;
  for (size_t i = 0; i < len; ++i) {
    char c = n[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

struct Failer {
  Core& core;
  bool optional;
  std::string* error;
  bool operator()(const std::string& path, const char* stage, const std::string& reason) const {
    *error = "plugin " + path + ": " + stage + ": " + reason;
    core.server.Log(LogLevel::kWarning, "%s%s", error->c_str(),
                    optional ? " (optional: skipped)" : "");
    return false;
  }
};

std::string AbiText(uint32_t major, uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// The file a request names: spec itself when it contains '/', else plugin_dir/spec.so.
std::string ResolvePluginPath(const std::string& spec, const std::string& plugin_dir) {
  if (spec.find('/') != std::string::npos) return spec;
  std::string file = spec;
  if (file.size() < 3 || file.compare(file.size() - 3, 3, ".so") != 0) file += ".so";
  return plugin_dir + "/" + file;
}

}  // namespace

bool Plugins::Load(const PluginRequest& req, const std::string& plugin_dir, std::string* error) {
  const std::string path = ResolvePluginPath(req.spec, plugin_dir);
  Failer fail{core_, req.optional, error};

  struct stat st;
  if (stat(path.c_str(), &st) != 0) return fail(path, "open", std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail(path, "open", "not a regular file");
  const Option* allow = core_.options.Find("plugin-allow-writable");
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(allow && allow->int_value))
    return fail(path, "validate",
                "file is writable by group or others (fix its mode, or set "
                "plugin-allow-writable yes)");

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return fail(path, "open", dlerror());

  auto entry = reinterpret_cast<plinth_plugin_entry_v1_fn>(dlsym(handle, PLINTH_ENTRY_SYMBOL));
  if (!entry) dlclose(handle);
  return LoadEntry(entry, path, entry ? handle : nullptr, req, error);
}

bool Plugins::LoadEntry(plinth_plugin_entry_v1_fn entry, const std::string& path, void* handle,
                        const PluginRequest& req, std::string* error) {
  Failer fail{core_, req.optional, error};
  if (!entry) return fail(path, "entry", "no symbol " PLINTH_ENTRY_SYMBOL);
  const plinth_plugin_descriptor_t* d = entry();
  if (!d) return fail(path, "entry", PLINTH_ENTRY_SYMBOL " returned NULL");
  return LoadDescriptor(d, path, handle, req, error);
}

bool Plugins::LoadDescriptor(const plinth_plugin_descriptor_t* d, const std::string& path,
                             void* handle, const PluginRequest& req, std::string* error) {
  Failer fail{core_, req.optional, error};
  if (!d) return fail(path, "entry", "no descriptor");
  if (d->struct_size < offsetof(plinth_plugin_descriptor_t, abi_minor) + sizeof(uint32_t))
    return fail(path, "descriptor",
                "descriptor too short (" + std::to_string(d->struct_size) + " bytes)");
  if (d->abi_major != PLINTH_ABI_MAJOR || d->abi_minor > PLINTH_ABI_MINOR)
    return fail(path, "abi",
                "plugin ABI " + AbiText(d->abi_major, d->abi_minor) + ", host ABI " +
                    AbiText(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR) +
                    (d->abi_major != PLINTH_ABI_MAJOR ? " (major differs)"
                                                      : " (plugin needs a newer host)"));
  plinth_plugin_descriptor_t copy;
  if (d->struct_size < kFrozen10<plinth_plugin_descriptor_t>)
    return fail(path, "descriptor",
                "descriptor too short (" + std::to_string(d->struct_size) + " bytes, v" +
                    AbiText(PLINTH_ABI_MAJOR, 0) + " needs " +
                    std::to_string(kFrozen10<plinth_plugin_descriptor_t>) + ")");
  if (!CopySpec(&copy, d))
    return fail(path, "descriptor",
                "descriptor has fields this host does not know (" + std::to_string(d->struct_size) +
                    " bytes, fields past " + std::to_string(sizeof(plinth_plugin_descriptor_t)) +
                    " are not zero)");
  d = &copy;
  for (void* r : d->reserved)
    if (r) return fail(path, "descriptor", "reserved fields must be NULL");
  if (!d->name) return fail(path, "descriptor", "name is NULL");
  if (!ValidPluginName(d->name))
    return fail(path, "descriptor",
                "invalid name '" + std::string(d->name, strnlen(d->name, 64)) +
                    "' (want [a-z0-9_-]{1,32})");
  if (!d->init) return fail(path, "descriptor", "init is NULL");
  for (const auto& p : loaded_)
    if (p->name == d->name)
      return fail(
          path, "descriptor",
          "duplicate name '" + std::string(d->name) + "' (already loaded from " + p->path + ")");

  auto plugin = std::make_unique<plinth_plugin>();
  plugin->core = &core_;
  plugin->path = path;
  plugin->name = d->name;
  plugin->descriptor = copy;
  plugin->handle = handle;
  plugin->optional = req.optional;
  for (const auto& [k, v] : req.options) core_.options.SetPending(k, v, plugin->name);

  loading = plugin.get();
  int32_t rc = d->init(plugin.get(), api);
  loading = nullptr;
  if (rc != PLINTH_OK) {
    for (plinth_timer_t* t : plugin->init_timers) TimerStop(t);
    Rollback(plugin->name);
    std::string why = "init returned an error";
    if (!plugin->init_warning.empty()) why += ": " + plugin->init_warning;
    failed_.push_back(std::move(plugin));  // a stale self stays valid
    return fail(path, "init", why);
  }
  plugin->init_timers.clear();  // the plugin owns them from now on
  core_.server.Log(LogLevel::kNotice, "Plugin '%s' %s loaded from %s", plugin->name.c_str(),
                   d->version ? d->version : "", path.c_str());
  loaded_.push_back(std::move(plugin));
  return true;
}

Plugins::Plugins(Core& core) : api(HostApi()), core_(core) {}
Plugins::~Plugins() = default;

void Plugins::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  core_.server.BeforeSleep();  // the last batch reaches the stream consumers before they shut down
  for (auto it = loaded_.rbegin(); it != loaded_.rend(); ++it) {
    const plinth_plugin_descriptor_t* d = &(*it)->descriptor;
    if (d->shutdown) d->shutdown(it->get());
  }
}

void Plugins::Rollback(const std::string& owner) {
  core_.registry.RemoveOwner(owner);
  core_.endpoints.RemoveOwner(owner);
  core_.listeners.RemoveOwner(owner);
  core_.events.RemoveOwner(owner);
  if (core_.auth.acl.owner == owner) core_.auth.acl = Auth::Provider();
  core_.propagation.CountActiveConsumers();
  core_.options.UnregisterOwner(owner);
  core_.keyspace.types.UnregisterOwner(owner);
}

}  // namespace plinth::host
