// The plugin loader: resolves a plugin by path or name, checks the file and the descriptor
// before any plugin code runs, runs init, and rolls back everything a failed init registered.
// Failures are reported as "plugin <path>: <stage>: <reason>". Main thread only.
#pragma once

#include <map>
#include <string>

namespace plinth::host {

struct PluginRequest {
  std::string spec;  // absolute/relative path (contains '/') or a name looked up in plugin_dir
  bool optional = false;
  std::map<std::string, std::string> options;  // from the plugin's config object
};

// The file a request names: spec itself when it contains '/', else plugin_dir/spec.so.
std::string ResolvePluginPath(const std::string& spec, const std::string& plugin_dir);

// Loads one plugin. Returns true when it is loaded; otherwise *error holds the report line
// (already logged: as a warning when optional).
bool LoadPlugin(const PluginRequest& req, const std::string& plugin_dir, std::string* error);

}  // namespace plinth::host
