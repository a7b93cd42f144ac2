// Option parsing and registry bookkeeping.
#include "host/core/options.h"

#include <strings.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <plinth/text.hpp>

#include "host/core/abi_compat.h"

namespace plinth::host {
namespace {

bool ValidName(const char* n) {
  if (!n || !*n) return false;
  for (const char* p = n; *p; ++p)
    if (!(std::islower(static_cast<unsigned char>(*p)) ||
          std::isdigit(static_cast<unsigned char>(*p)) || *p == '-' || *p == '.' || *p == '_'))
      return false;
  return true;
}

}  // namespace

void Options::SetPending(const std::string& name, const std::string& value,
                         const std::string& scope) {
  pending_[scope.empty() ? name : scope + "/" + name] = Pending{value, false};
}

bool Options::Parse(const Option& o, std::string_view text, std::string* norm, int64_t* iv,
                    std::string* err) const {
  switch (o.type) {
    case PLINTH_OPT_STRING:
      *norm = std::string(text);
      *iv = 0;
      return true;
    case PLINTH_OPT_BOOL: {
      std::string l = text::ToLower(text);
      if (l == "yes" || l == "true" || l == "1") {
        *norm = "yes";
        *iv = 1;
      } else if (l == "no" || l == "false" || l == "0") {
        *norm = "no";
        *iv = 0;
      } else {
        *err = "argument must be 'yes' or 'no'";
        return false;
      }
      return true;
    }
    case PLINTH_OPT_INT:
    case PLINTH_OPT_MEMORY: {
      int64_t v;
      bool ok = o.type == PLINTH_OPT_INT ? text::ParseInt64Lenient(text, &v)
                                         : text::ParseMemoryLenient(text, &v);
      if (!ok) {
        *err = o.type == PLINTH_OPT_INT ? "argument couldn't be parsed into an integer"
                                        : "argument must be a memory value";
        return false;
      }
      if (v < o.min || v > o.max) {
        *err = "argument must be between " + std::to_string(o.min) + " and " +
               std::to_string(o.max) + " inclusive";
        return false;
      }
      *norm = std::to_string(v);
      *iv = v;
      return true;
    }
    case PLINTH_OPT_ENUM: {
      std::string l = text::ToLower(text);
      size_t start = 0;
      for (int64_t idx = 0;; ++idx) {
        size_t bar = o.enum_values.find('|', start);
        std::string word = o.enum_values.substr(start, bar - start);
        if (word == l) {
          *norm = word;
          *iv = idx;
          return true;
        }
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
      std::string words = o.enum_values;
      for (size_t bar; (bar = words.find('|')) != std::string::npos;) words.replace(bar, 1, ", ");
      *err = "argument(s) must be one of the following: " + words;
      return false;
    }
  }
  *err = "unknown option type";
  return false;
}

Option* Options::Register(const plinth_option_spec_t* spec, const std::string& owner,
                          std::string* err) {
  plinth_option_spec_t copy;
  if (!CopySpec(&copy, spec)) {
    *err = "option spec has a bad struct_size";
    return nullptr;
  }
  spec = &copy;
  if (!ValidName(spec->name)) {
    *err = "invalid option name";
    return nullptr;
  }
  Option o;
  o.owner = owner;
  // A plugin's bits beyond those the ABI defines are ignored, whatever minor it was built for
  // (1.0 and 1.1 plugins that set them kept loading, and still do); the host-only ones too.
  if (owner != "host") copy.flags &= kOptPluginFlags;
  bool global = (spec->flags & PLINTH_OPT_GLOBAL_NAME) || owner == "host";
  o.name = global ? spec->name : owner + "." + spec->name;
  auto existing = options_.find(o.name);
  bool takeover = existing != options_.end() && (existing->second.flags & kOptPlaceholder);
  if (existing != options_.end() && !takeover) {
    *err = "option '" + o.name + "' is already registered";
    return nullptr;
  }
  o.type = spec->type;
  o.flags = spec->flags;
  o.default_value = spec->default_value ? spec->default_value : "";
  o.min = spec->min;
  o.max = spec->max;
  if (o.type == PLINTH_OPT_ENUM) {
    if (!spec->enum_values) {
      *err = "enum option '" + o.name + "' has no values";
      return nullptr;
    }
    o.enum_values = text::ToLower(spec->enum_values);
  }
  o.description = spec->description ? spec->description : "";
  o.apply = spec->apply;
  o.ctx = spec->ctx;
  if (o.type < PLINTH_OPT_STRING || o.type > PLINTH_OPT_ENUM) {
    *err = "option '" + o.name + "' has an unknown type";
    return nullptr;
  }
  if (!Parse(o, o.default_value, &o.value, &o.int_value, err)) {
    *err = "option '" + o.name + "': bad default: " + *err;
    return nullptr;
  }
  // A configured value: inside the plugin's own config object, else under the full name. A
  // placeholder leaves configured values to the plugin that will replace it.
  Pending* p = nullptr;
  if (!(spec->flags & kOptPlaceholder)) {
    for (const std::string& k : {owner + "/" + spec->name, o.name}) {
      auto it = pending_.find(k);
      if (it != pending_.end()) {
        p = &it->second;
        break;
      }
    }
  }
  std::string name = o.name;
  // A plugin taking over a placeholder keeps its node, so handles found earlier stay valid.
  options_.insert_or_assign(name, std::move(o));
  if (p) {
    p->used = true;
    if (!Set(name, p->value, false, err)) {
      *err = "option '" + name + "': " + *err;
      options_.erase(name);
      return nullptr;
    }
  } else if (options_[name].apply) {
    Option& r = options_[name];
    char ebuf[256] = "";
    if (r.apply(r.ctx, r.name.c_str(), r.value.data(), r.value.size(), r.int_value, ebuf,
                sizeof ebuf) != PLINTH_OK) {
      *err = "option '" + name + "': " + ebuf;
      options_.erase(name);
      return nullptr;
    }
  }
  return &options_[name];
}

const Option* Options::Find(std::string_view name) const {
  auto it = options_.find(text::ToLower(name));
  return it == options_.end() ? nullptr : &it->second;
}

bool Options::Set(std::string_view name, std::string_view value, bool runtime, std::string* err,
                  bool protected_ok) {
  auto it = options_.find(text::ToLower(name));
  if (it == options_.end()) {
    *err = "Unknown option or number of arguments for CONFIG SET - '" + std::string(name) + "'";
    return false;
  }
  Option& o = it->second;
  if (runtime && !(o.flags & PLINTH_OPT_MUTABLE)) {
    *err = "can't set immutable config";
    return false;
  }
  if (runtime && (o.flags & PLINTH_OPT_PROTECTED) && !protected_ok) {
    *err = "can't set protected config";
    return false;
  }
  std::string norm;
  int64_t iv = 0;
  if (!Parse(o, value, &norm, &iv, err)) return false;
  if (o.apply) {
    char ebuf[256] = "";
    if (o.apply(o.ctx, o.name.c_str(), norm.data(), norm.size(), iv, ebuf, sizeof ebuf) !=
        PLINTH_OK) {
      *err = ebuf[0] ? ebuf : "the new value was refused";
      return false;
    }
  }
  o.value = std::move(norm);
  o.int_value = iv;
  return true;
}

void Options::UnregisterOwner(const std::string& owner) {
  for (auto it = options_.begin(); it != options_.end();)
    it = it->second.owner == owner ? options_.erase(it) : std::next(it);
}

bool Options::SettlePlaceholders(std::string* err) {
  for (auto& [key, p] : pending_) {
    auto it = options_.find(key);
    if (p.used || it == options_.end() || !(it->second.flags & kOptPlaceholder)) continue;
    p.used = true;
    if (!Set(key, p.value, false, err)) return false;
  }
  return true;
}

std::vector<std::string> Options::UnusedPending() const {
  std::vector<std::string> out;
  for (const auto& [k, p] : pending_)
    if (!p.used) out.push_back(k);
  return out;
}

}  // namespace plinth::host
