// JSON config parsing with nlohmann_json. Values may be strings, numbers or booleans; they are
// handed to the option registry as text.
#include "host/shell/config_file.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace plinth::host {
namespace {

bool ToText(const nlohmann::json& v, std::string* out) {
  if (v.is_string()) {
    *out = v.get<std::string>();
  } else if (v.is_boolean()) {
    *out = v.get<bool>() ? "yes" : "no";
  } else if (v.is_number_integer()) {
    *out = std::to_string(v.get<int64_t>());
  } else if (v.is_number()) {
    *out = v.dump();
  } else {
    return false;
  }
  return true;
}

bool ReadOptions(const nlohmann::json& obj, std::map<std::string, std::string>* out,
                 std::string* err) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    std::string text;
    if (!ToText(it.value(), &text)) {
      *err = "option '" + it.key() + "' must be a string, number or boolean";
      return false;
    }
    (*out)[it.key()] = text;
  }
  return true;
}

bool ReadPlugin(const nlohmann::json& p, PluginRequest* r, std::string* err) {
  if (p.is_string()) {
    r->spec = p.get<std::string>();
    return true;
  }
  if (!p.is_object()) {
    *err = "each entry of \"plugins\" must be a name, a path or an object";
    return false;
  }
  if (p.contains("path") && p["path"].is_string())
    r->spec = p["path"].get<std::string>();
  else if (p.contains("name") && p["name"].is_string())
    r->spec = p["name"].get<std::string>();
  else {
    *err = "a plugin object needs \"name\" or \"path\"";
    return false;
  }
  if (p.contains("optional")) {
    if (!p["optional"].is_boolean()) {
      *err = "plugin \"optional\" must be true or false";
      return false;
    }
    r->optional = p["optional"].get<bool>();
  }
  if (p.contains("options")) {
    if (!p["options"].is_object()) {
      *err = "plugin \"options\" must be an object";
      return false;
    }
    return ReadOptions(p["options"], &r->options, err);
  }
  return true;
}

}  // namespace

bool ReadConfigFile(const std::string& path, ConfigFile* out, std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = "can't open config file '" + path + "'";
    return false;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    *err = "config file '" + path + "': " + e.what();
    return false;
  }
  if (!j.is_object()) {
    *err = "config file '" + path + "': the top level must be an object";
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "plugins") continue;
    if (!it.value().is_array()) {
      *err = "config file '" + path + "': \"plugins\" must be an array";
      return false;
    }
    std::vector<PluginRequest> list;
    for (const auto& p : it.value()) {
      PluginRequest r;
      if (!ReadPlugin(p, &r, err)) {
        *err = "config file '" + path + "': " + *err;
        return false;
      }
      list.push_back(std::move(r));
    }
    out->plugins = std::move(list);
  }
  j.erase("plugins");
  if (!ReadOptions(j, &out->options, err)) {
    *err = "config file '" + path + "': " + *err;
    return false;
  }
  return true;
}

}  // namespace plinth::host
