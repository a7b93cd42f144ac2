// Reads the JSON config file (top-level option values and the ordered plugin list) and writes
// it back for CONFIG REWRITE.
//   { "port": 6380, "loglevel": "verbose",
//     "plugins": ["resp", {"name": "tcp", "options": {"tcp-backlog": 128}},
//                 {"path": "/opt/x.so", "optional": true}] }
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/core/core.h"

namespace plinth::host {

struct ConfigFile {
  std::map<std::string, std::string> options;
  std::optional<std::vector<PluginRequest>> plugins;  // absent: the default set
};

// Parses path into *out. Returns false with a reason in *err (file, line and what is wrong).
bool ReadConfigFile(const std::string& path, ConfigFile* out, std::string* err);

// CONFIG REWRITE: writes core's options back to the config file at path. Options the file
// names (at the top level, or in their plugin's "options" object) get their current values,
// a value written another way that means the same ("1mb") staying as it is; other options
// that differ from their defaults are added at the top level; everything else in the file
// (the plugin list, its order) is kept. The new text goes to a temporary file in the same
// directory, is synced and renamed over the old one (a symlink's target), with the old file's
// mode. A missing file is created. Returns false with Redis's "Rewriting config file: <why>"
// in *err. Main thread.
bool RewriteConfigFile(const std::string& path, const Core& core, std::string* err);

}  // namespace plinth::host
