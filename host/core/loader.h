// The plugin loader: resolves a plugin by path or name, checks the file and the descriptor
// before any plugin code runs, runs init, and rolls back everything a failed init registered.
// Failures are reported as "plugin <path>: <stage>: <reason>". Main thread only.
#pragma once

#include <string>

namespace plinth::host {

// The file a request names: spec itself when it contains '/', else plugin_dir/spec.so.
std::string ResolvePluginPath(const std::string& spec, const std::string& plugin_dir);
// Loading itself is Core::LoadPlugin / Core::LoadDescriptor (loader.cc).

}  // namespace plinth::host
