// Server command argument grammars with Redis 7.0's error texts.
#include "server/server_args.h"

#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::server {

using text::EqualsNoCase;

bool ParseShutdown(const std::vector<std::string_view>& words, ShutdownArgs* out,
                   std::string* error) {
  ShutdownArgs a;
  for (std::string_view w : words) {
    if (EqualsNoCase(w, "nosave")) {
      a.nosave = true;
    } else if (EqualsNoCase(w, "save")) {
      a.save = true;
    } else if (EqualsNoCase(w, "now")) {
      a.now = true;
    } else if (EqualsNoCase(w, "force")) {
      a.force = true;
    } else if (EqualsNoCase(w, "abort")) {
      a.abort = true;
    } else {
      *error = errors::kSyntax;
      return false;
    }
  }
  bool others = a.nosave || a.save || a.now || a.force;
  if ((a.abort && others) || (a.nosave && a.save)) {
    *error = errors::kSyntax;
    return false;
  }
  *out = a;
  return true;
}

bool CheckConfigSetNames(const std::vector<std::string_view>& names, const std::vector<bool>& known,
                         std::string* error) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (i < known.size() && known[i]) continue;
    *error = "ERR Unknown option or number of arguments for CONFIG SET - '" +
             common::ErrorArg(names[i], std::string_view::npos) + "'";
    return false;
  }
  for (size_t i = 1; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (!EqualsNoCase(names[i], names[j])) continue;
      *error = ConfigSetFailed(names[i], "duplicate parameter");
      return false;
    }
  }
  return true;
}

std::string ConfigSetFailed(std::string_view name, std::string_view reason) {
  return "ERR CONFIG SET failed (possibly related to argument '" +
         common::ErrorArg(name, std::string_view::npos) + "') - " +
         common::ErrorArg(reason, std::string_view::npos);
}

std::vector<std::string> InfoSections(const std::vector<std::string_view>& words) {
  std::vector<std::string> out;
  for (std::string_view w : words) {
    std::string s = text::ToLower(w);
    bool seen = false;
    for (const std::string& prev : out) seen = seen || prev == s;
    if (!seen) out.push_back(std::move(s));
  }
  return out;
}

bool ParseListFilter(const std::vector<std::string_view>& words, ListFilter* out,
                     std::string* error) {
  if (words.empty()) return true;
  if (words.size() != 3 || !EqualsNoCase(words[0], "filterby")) {
    *error = errors::kSyntax;
    return false;
  }
  if (EqualsNoCase(words[1], "module")) {
    out->kind = ListFilter::Kind::kModule;
  } else if (EqualsNoCase(words[1], "aclcat")) {
    out->kind = ListFilter::Kind::kAclCat;
  } else if (EqualsNoCase(words[1], "pattern")) {
    out->kind = ListFilter::Kind::kPattern;
  } else {
    *error = errors::kSyntax;
    return false;
  }
  out->arg = words[2];
  return true;
}

int64_t VersionNumber(std::string_view version) {
  int64_t parts[3] = {0, 0, 0};
  size_t i = 0;
  for (int p = 0; p < 3; ++p) {
    if (i >= version.size() || version[i] < '0' || version[i] > '9') {
      if (p == 0) return 0;
      break;
    }
    int64_t v = 0;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9' && v < 100000)
      v = v * 10 + (version[i++] - '0');
    parts[p] = v;
    if (i < version.size() && version[i] == '.')
      ++i;
    else
      break;
  }
  return parts[0] * 10000 + (parts[1] % 100) * 100 + parts[2] % 100;
}

}  // namespace plinth::server
