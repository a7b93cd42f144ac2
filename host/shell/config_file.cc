// JSON config parsing with nlohmann_json. Values may be strings, numbers or booleans; they are
// handed to the option registry as text. CONFIG REWRITE writes the file back in the same form.
#include "host/shell/config_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace plinth::host {
namespace {

template <typename Json>
bool ToText(const Json& v, std::string* out) {
  if (v.is_string()) {
    *out = v.template get<std::string>();
  } else if (v.is_boolean()) {
    *out = v.template get<bool>() ? "yes" : "no";
  } else if (v.is_number_integer()) {
    *out = std::to_string(v.template get<int64_t>());
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

namespace {

using OrderedJson = nlohmann::ordered_json;

bool AtDefault(const Options& opts, const Option& o) {
  std::string norm;
  return opts.Normalize(o, o.default_value, &norm) && norm == o.value;
}

// A byte count as Redis's CONFIG REWRITE writes it: "2gb", "64mb", "512kb" when whole, else
// the bytes.
std::string MemoryText(int64_t bytes) {
  static constexpr struct {
    int64_t unit;
    const char* suffix;
  } kUnits[] = {{1LL << 30, "gb"}, {1LL << 20, "mb"}, {1LL << 10, "kb"}};
  for (const auto& u : kUnits)
    if (bytes != 0 && bytes % u.unit == 0) return std::to_string(bytes / u.unit) + u.suffix;
  return std::to_string(bytes);
}

// The value to write for o, shaped like the one it replaces (old, may be null): a number stays
// a number and a boolean a boolean; a text that already means the current value stays as it
// was written ("1mb"). A new integer is a number, a new size Redis's text for it.
OrderedJson ValueFor(const Options& opts, const Option& o, const OrderedJson* old) {
  std::string text, norm;
  if (old && ToText(*old, &text) && opts.Normalize(o, text, &norm) && norm == o.value) return *old;
  const bool numeric = o.type == PLINTH_OPT_INT || o.type == PLINTH_OPT_MEMORY;
  if (old && old->is_boolean() && (o.value == "yes" || o.value == "no")) return o.value == "yes";
  if (numeric && (old ? old->is_number() : o.type == PLINTH_OPT_INT)) return o.int_value;
  if (o.type == PLINTH_OPT_MEMORY) return MemoryText(o.int_value);
  return o.value;
}

// v on one line, with ", " and ": " between members.
std::string OneLine(const OrderedJson& v) {
  if (!v.is_structured()) return v.dump();
  std::string out(1, v.is_object() ? '{' : '[');
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it != v.begin()) out += ", ";
    if (v.is_object()) out += OrderedJson(it.key()).dump() + ": ";
    out += OneLine(it.value());
  }
  return out + (v.is_object() ? '}' : ']');
}

// Appends v to out as a person would write it: an object or array that fits the line stays
// on one line ("plugins": ["resp", "tcp"]), a longer one gets one member per line. The top
// level (indent 0) always has one option per line.
void Pretty(const OrderedJson& v, size_t indent, std::string* out) {
  std::string one = OneLine(v);
  if (!v.is_structured() || v.empty() || (indent > 0 && indent + one.size() <= 100)) {
    *out += one;
    return;
  }
  const std::string pad(indent + 2, ' ');
  *out += v.is_object() ? "{\n" : "[\n";
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it != v.begin()) *out += ",\n";
    *out += pad;
    if (v.is_object()) *out += OrderedJson(it.key()).dump() + ": ";
    Pretty(it.value(), indent + 2, out);
  }
  *out += "\n" + std::string(indent, ' ') + (v.is_object() ? '}' : ']');
}

// The object of the file's plugin list that loaded plugin owner (by its name, or by its
// path), or nullptr.
OrderedJson* PluginEntry(OrderedJson& root, const Core& core, const std::string& owner) {
  auto list = root.find("plugins");
  if (list == root.end() || !list->is_array()) return nullptr;
  std::string loaded_path;
  for (const auto& p : core.plugins.loaded())
    if (p->name == owner) loaded_path = p->path;
  for (OrderedJson& p : *list) {
    if (!p.is_object()) continue;
    auto name = p.find("name");
    if (name != p.end() && name->is_string() && name->get<std::string>() == owner) return &p;
    auto path = p.find("path");
    if (path != p.end() && path->is_string() && !loaded_path.empty() &&
        path->get<std::string>() == loaded_path)
      return &p;
  }
  return nullptr;
}

// Puts every option's current value into root (RewriteConfigFile's rules).
void MergeOptions(OrderedJson& root, const Core& core) {
  const Options& opts = core.options;
  for (const auto& [name, o] : opts.All()) {
    if (o.flags & kOptPlaceholder) continue;  // no plugin provides it: what the file says stays
    OrderedJson* scope = nullptr;
    std::string key;
    if (o.owner != "host") {
      OrderedJson* entry = PluginEntry(root, core, o.owner);
      auto own = entry ? entry->find("options") : root.end();
      if (entry && own != entry->end() && own->is_object()) {
        const std::string prefix = o.owner + ".";
        key = name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
        if (own->contains(key)) scope = &*own;
      }
    }
    if (!scope && root.contains(name)) {
      scope = &root;
      key = name;
    }
    if (scope) {
      OrderedJson& old = (*scope)[key];
      old = ValueFor(opts, o, &old);
    } else if (!AtDefault(opts, o)) {
      root[name] = ValueFor(opts, o, nullptr);
    }
  }
}

bool WriteAll(int fd, const std::string& text) {
  for (size_t off = 0; off < text.size();) {
    const ssize_t n = write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Writes text to a temporary file beside target, syncs it and renames it over target, with
// mode (and, where allowed, the old owner). Returns false with errno's text in *err.
bool ReplaceFile(const std::string& target, const std::string& text, const struct stat* old,
                 std::string* err) {
  const std::string tmp = target + ".tmp-" + std::to_string(getpid());
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    *err = std::strerror(errno);
    return false;
  }
  bool ok = true;
  if (old) {
    ok = fchmod(fd, old->st_mode & 07777) == 0;
    // Only root may give a file away; anyone else keeps it as its writer.
    if (ok && fchown(fd, old->st_uid, old->st_gid) != 0) errno = 0;
  } else {
    ok = fchmod(fd, 0644) == 0;
  }
  ok = ok && WriteAll(fd, text) && fsync(fd) == 0;
  const int saved = errno;
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp.c_str(), target.c_str()) == 0) {
    const size_t slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + 1);
    const int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);  // the rename itself survives a crash
      close(dfd);
    }
    return true;
  }
  *err = std::strerror(ok ? errno : saved);
  unlink(tmp.c_str());
  return false;
}

}  // namespace

bool RewriteConfigFile(const std::string& path, const Core& core, std::string* err) {
  std::string target = path;  // a symlink's target is rewritten, the link stays
  if (char* real = realpath(path.c_str(), nullptr)) {
    target = real;
    free(real);
  }
  struct stat st;
  const bool exists = stat(target.c_str(), &st) == 0;
  OrderedJson root = OrderedJson::object();
  if (exists) {
    std::ifstream in(target);
    if (!in) {
      *err = std::string("Rewriting config file: ") + std::strerror(errno);
      return false;
    }
    try {
      root = OrderedJson::parse(in);
    } catch (const nlohmann::json::exception& e) {
      *err = std::string("Rewriting config file: ") + e.what();
      return false;
    }
    if (!root.is_object()) {
      *err = "Rewriting config file: the top level must be an object";
      return false;
    }
  }
  MergeOptions(root, core);
  std::string text;
  try {
    Pretty(root, 0, &text);
    text += "\n";
  } catch (const nlohmann::json::exception& e) {  // a value that is not UTF-8
    *err = std::string("Rewriting config file: ") + e.what();
    return false;
  }
  std::string why;
  if (ReplaceFile(target, text, exists ? &st : nullptr, &why)) return true;
  *err = "Rewriting config file: " + why;
  return false;
}

}  // namespace plinth::host
