// The plugins as the core holds them: loading one (the file checks, dlopen, the entry, ABI and
// descriptor stages, init, and the rollback of everything a failed init registered), the loaded
// ones in load order, and their shutdown hooks (loader.cc). Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

struct plinth_plugin;

namespace plinth::host {

class Core;

// One plugin load: a file (path or name in plugin_dir) with its config-file options.
struct PluginRequest {
  std::string spec;  // absolute/relative path (contains '/') or a name looked up in plugin_dir
  bool optional = false;
  std::map<std::string, std::string> options;  // from the plugin's config object
};

class Plugins {
 public:
  explicit Plugins(Core& core);
  ~Plugins();
  Plugins(const Plugins&) = delete;
  Plugins& operator=(const Plugins&) = delete;

  // Loads one plugin file: the file checks, dlopen, then LoadDescriptor. Returns true when it
  // is loaded; otherwise *error holds "plugin <path>: <stage>: <reason>" (already logged).
  bool Load(const PluginRequest& req, const std::string& plugin_dir, std::string* error);
  // The entry stage (entry set, returns a descriptor), then LoadDescriptor. handle is the
  // dlopen handle or nullptr; path labels the messages.
  bool LoadEntry(plinth_plugin_entry_v1_fn entry, const std::string& path, void* handle,
                 const PluginRequest& req, std::string* error);
  // Checks a descriptor (abi, descriptor stages) and runs its init; a failed init rolls back
  // every registration. handle is the dlopen handle or nullptr.
  bool LoadDescriptor(const plinth_plugin_descriptor_t* d, const std::string& path, void* handle,
                      const PluginRequest& req, std::string* error);
  // Delivers the stream's last batch, then runs the loaded plugins' shutdown hooks once, in
  // reverse load order.
  void Shutdown();
  // The loaded plugins, in load order.
  const std::vector<std::unique_ptr<plinth_plugin>>& loaded() const { return loaded_; }

  const plinth_host_api_t* api;      // handed to init: HostApi(), or a test's modified copy
  plinth_plugin* loading = nullptr;  // the plugin whose init is running

 private:
  // Drops everything owner (a plugin whose init failed) registered, everywhere.
  void Rollback(const std::string& owner);
  Core& core_;
  std::vector<std::unique_ptr<plinth_plugin>> loaded_;
  std::vector<std::unique_ptr<plinth_plugin>> failed_;  // plugins whose init failed
  bool shut_down_ = false;
};

}  // namespace plinth::host
