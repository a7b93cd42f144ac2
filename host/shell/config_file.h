// Reads the JSON config file: top-level option values and the ordered plugin list.
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

}  // namespace plinth::host
