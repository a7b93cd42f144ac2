// Shebang and library metadata parsing (Redis 7.0 eval.c / functions.c rules).
#include "scripting/shebang.h"

#include <cctype>
#include <plinth/text.hpp>

namespace plinth::scripting {
namespace {

struct FlagName {
  std::string_view name;
  uint32_t flag;
};
constexpr FlagName kFlags[] = {
    {"no-writes", kFlagNoWrites},
    {"allow-oom", kFlagAllowOom},
    {"allow-stale", kFlagAllowStale},
    {"no-cluster", kFlagNoCluster},
    {"allow-cross-slot-keys", kFlagAllowCrossSlot},
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Reads one argument starting at line[*i] (not a space). Returns false on a quoting error.
bool ReadArg(std::string_view line, size_t* i, std::string* arg) {
  bool dq = false, sq = false;
  size_t p = *i;
  for (;;) {
    if (dq) {
      if (p >= line.size()) return false;
      char c = line[p];
      if (c == '\\' && p + 3 < line.size() && line[p + 1] == 'x' && HexDigit(line[p + 2]) >= 0 &&
          HexDigit(line[p + 3]) >= 0) {
        arg->push_back(static_cast<char>(HexDigit(line[p + 2]) * 16 + HexDigit(line[p + 3])));
        p += 3;
      } else if (c == '\\' && p + 1 < line.size()) {
        char e = line[++p];
        switch (e) {
          case 'n':
            e = '\n';
            break;
          case 'r':
            e = '\r';
            break;
          case 't':
            e = '\t';
            break;
          case 'b':
            e = '\b';
            break;
          case 'a':
            e = '\a';
            break;
          default:
            break;
        }
        arg->push_back(e);
      } else if (c == '"') {
        if (p + 1 < line.size() && !IsSpace(line[p + 1])) return false;
        dq = false;
        *i = p + 1;
        return true;
      } else {
        arg->push_back(c);
      }
    } else if (sq) {
      if (p >= line.size()) return false;
      char c = line[p];
      if (c == '\\' && p + 1 < line.size() && line[p + 1] == '\'') {
        ++p;
        arg->push_back('\'');
      } else if (c == '\'') {
        if (p + 1 < line.size() && !IsSpace(line[p + 1])) return false;
        *i = p + 1;
        return true;
      } else {
        arg->push_back(c);
      }
    } else {
      if (p >= line.size() || IsSpace(line[p])) {
        *i = p;
        return true;
      }
      char c = line[p];
      if (c == '"') {
        dq = true;
      } else if (c == '\'') {
        sq = true;
      } else {
        arg->push_back(c);
      }
    }
    ++p;
  }
}

}  // namespace

uint32_t ScriptFlagByName(std::string_view name) {
  for (const FlagName& f : kFlags)
    if (f.name == name) return f.flag;
  return 0;
}

std::vector<std::string_view> ScriptFlagNames(uint32_t flags) {
  std::vector<std::string_view> out;
  for (const FlagName& f : kFlags)
    if (flags & f.flag) out.push_back(f.name);
  return out;
}

bool SplitArgs(std::string_view line, std::vector<std::string>* out) {
  out->clear();
  size_t i = 0;
  for (;;) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i >= line.size()) return true;
    std::string arg;
    if (!ReadArg(line, &i, &arg)) {
      out->clear();
      return false;
    }
    out->push_back(std::move(arg));
  }
}

bool ParseEvalShebang(std::string_view body, uint32_t* flags, size_t* shebang_len,
                      std::string* error) {
  *flags = kFlagEvalCompat;
  *shebang_len = 0;
  if (body.substr(0, 2) != "#!") return true;
  size_t nl = body.find('\n');
  if (nl == std::string_view::npos) {
    *error = "ERR Invalid script shebang";
    return false;
  }
  // Redis reads the line as a C string: a NUL ends it.
  std::string_view line = body.substr(0, nl);
  line = line.substr(0, line.find('\0'));
  std::vector<std::string> parts;
  if (!SplitArgs(line, &parts) || parts.empty()) {
    *error = "ERR Invalid engine in script shebang";
    return false;
  }
  if (parts[0] != "#!lua") {
    *error = "ERR Unexpected engine in script shebang: " + parts[0];
    return false;
  }
  uint32_t f = 0;
  for (size_t j = 1; j < parts.size(); ++j) {
    if (parts[j].compare(0, 6, "flags=") != 0) {
      *error = "ERR Unknown lua shebang option: " + parts[j];
      return false;
    }
    std::string_view list = std::string_view(parts[j]).substr(6);
    size_t start = 0;
    while (!list.empty() && start <= list.size()) {
      size_t comma = list.find(',', start);
      std::string_view name = list.substr(
          start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      uint32_t bit = ScriptFlagByName(name);
      if (!bit) {
        *error = "ERR Unexpected flag in script shebang: " + std::string(name);
        return false;
      }
      f |= bit;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  *flags = f;
  *shebang_len = nl;
  return true;
}

bool ParseLibraryMeta(std::string_view payload, LibraryMeta* meta, std::string* error) {
  if (payload.substr(0, 2) != "#!") {
    *error = "Missing library metadata";
    return false;
  }
  size_t nl = payload.find('\n');
  if (nl == std::string_view::npos) {
    *error = "Invalid library metadata";
    return false;
  }
  std::string_view line = payload.substr(0, nl);
  line = line.substr(0, line.find('\0'));
  std::vector<std::string> parts;
  if (!SplitArgs(line, &parts) || parts.empty()) {
    *error = "Invalid library metadata";
    return false;
  }
  meta->engine = parts[0].substr(2);
  bool have_name = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].size() >= 5 &&
        text::EqualsNoCase(std::string_view(parts[i]).substr(0, 5), "name=")) {
      if (have_name) {
        *error = "Invalid metadata value, name argument was given multiple times";
        return false;
      }
      meta->name = parts[i].substr(5);
      have_name = true;
      continue;
    }
    *error = "Invalid metadata value given: " + parts[i];
    return false;
  }
  if (!have_name) {
    *error = "Library name was not given";
    return false;
  }
  meta->code = std::string(payload.substr(nl));
  return true;
}

bool ValidFunctionName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace plinth::scripting
