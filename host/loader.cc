// Plugin loading stages: validate (the file), open (dlopen), entry (the symbol), abi,
// descriptor, init. Nothing of the plugin runs before "entry", and only the entry function
// (which returns a static descriptor) before "init".
#include "host/loader.h"

#include <dlfcn.h>
#include <plinth/plugin.h>
#include <sys/stat.h>

#include <cstring>

#include "host/api.h"
#include "host/log.h"
#include "host/server.h"
#include "host/value.h"

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

bool Fail(const std::string& path, const char* stage, const std::string& reason, bool optional,
          std::string* error) {
  *error = "plugin " + path + ": " + stage + ": " + reason;
  Log(LogLevel::kWarning, "%s%s", error->c_str(), optional ? " (optional: skipped)" : "");
  return false;
}

std::string AbiText(uint32_t major, uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

std::string ResolvePluginPath(const std::string& spec, const std::string& plugin_dir) {
  if (spec.find('/') != std::string::npos) return spec;
  std::string file = spec;
  if (file.size() < 3 || file.compare(file.size() - 3, 3, ".so") != 0) file += ".so";
  return plugin_dir + "/" + file;
}

bool LoadPlugin(const PluginRequest& req, const std::string& plugin_dir, std::string* error) {
  Server& s = Srv();
  const std::string path = ResolvePluginPath(req.spec, plugin_dir);
  const bool opt = req.optional;

  struct stat st;
  if (stat(path.c_str(), &st) != 0) return Fail(path, "open", std::strerror(errno), opt, error);
  if (!S_ISREG(st.st_mode)) return Fail(path, "open", "not a regular file", opt, error);
  const Option* allow = s.options.Find("plugin-allow-writable");
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(allow && allow->int_value))
    return Fail(path, "validate",
                "file is writable by group or others (fix its mode, or set "
                "plugin-allow-writable yes)",
                opt, error);

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return Fail(path, "open", dlerror(), opt, error);

  auto entry = reinterpret_cast<plinth_plugin_entry_v1_fn>(dlsym(handle, PLINTH_ENTRY_SYMBOL));
  if (!entry) {
    dlclose(handle);
    return Fail(path, "entry", "no symbol " PLINTH_ENTRY_SYMBOL, opt, error);
  }
  const plinth_plugin_descriptor_t* d = entry();
  if (!d) return Fail(path, "entry", PLINTH_ENTRY_SYMBOL " returned NULL", opt, error);
  if (d->struct_size < offsetof(plinth_plugin_descriptor_t, abi_minor) + sizeof(uint32_t))
    return Fail(path, "descriptor",
                "descriptor too short (" + std::to_string(d->struct_size) + " bytes)", opt, error);
  if (d->abi_major != PLINTH_ABI_MAJOR || d->abi_minor > PLINTH_ABI_MINOR)
    return Fail(path, "abi",
                "plugin ABI " + AbiText(d->abi_major, d->abi_minor) + ", host ABI " +
                    AbiText(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR) +
                    (d->abi_major != PLINTH_ABI_MAJOR ? " (major differs)"
                                                      : " (plugin needs a newer host)"),
                opt, error);
  if (d->struct_size < sizeof(plinth_plugin_descriptor_t))
    return Fail(path, "descriptor",
                "descriptor too short (" + std::to_string(d->struct_size) + " bytes, v" +
                    AbiText(PLINTH_ABI_MAJOR, 0) + " needs " +
                    std::to_string(sizeof(plinth_plugin_descriptor_t)) + ")",
                opt, error);
  if (d->struct_size > sizeof(plinth_plugin_descriptor_t)) {
    const auto* tail = reinterpret_cast<const unsigned char*>(d);
    for (size_t i = sizeof(plinth_plugin_descriptor_t); i < d->struct_size; ++i)
      if (tail[i])
        return Fail(path, "descriptor",
                    "descriptor has fields this host does not know (" +
                        std::to_string(d->struct_size) + " bytes, fields past " +
                        std::to_string(sizeof(plinth_plugin_descriptor_t)) + " are not zero)",
                    opt, error);
  }
  for (void* r : d->reserved)
    if (r) return Fail(path, "descriptor", "reserved fields must be NULL", opt, error);
  if (!d->name) return Fail(path, "descriptor", "name is NULL", opt, error);
  if (!ValidPluginName(d->name))
    return Fail(path, "descriptor", "invalid name (want [a-z0-9_-]{1,32})", opt, error);
  if (!d->init) return Fail(path, "descriptor", "init is NULL", opt, error);
  for (const auto& p : s.plugins)
    if (p->name == d->name)
      return Fail(
          path, "descriptor",
          "duplicate name '" + std::string(d->name) + "' (already loaded from " + p->path + ")",
          opt, error);

  auto plugin = std::make_unique<plinth_plugin>();
  plugin->path = path;
  plugin->name = d->name;
  plugin->descriptor = d;
  plugin->handle = handle;
  plugin->optional = opt;
  plugin->index = static_cast<int32_t>(s.plugins.size());
  for (const auto& [k, v] : req.options) s.options.SetPending(k, v, plugin->name);

  s.loading = plugin.get();
  int32_t rc = d->init(plugin.get(), HostApi());
  s.loading = nullptr;
  if (rc != PLINTH_OK) {
    for (plinth_timer_t* t : plugin->init_timers) TimerStop(t);
    s.registry.RemoveOwner(plugin->name);
    s.options.UnregisterOwner(plugin->name);
    TypeUnregisterOwner(plugin->name);
    return Fail(path, "init", "init returned an error (see the lines above)", opt, error);
  }
  plugin->init_timers.clear();  // the plugin owns them from now on
  Log(LogLevel::kNotice, "Plugin '%s' %s loaded from %s", plugin->name.c_str(),
      d->version ? d->version : "", path.c_str());
  s.plugins.push_back(std::move(plugin));
  return true;
}

}  // namespace plinth::host
