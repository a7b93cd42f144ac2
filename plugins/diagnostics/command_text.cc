#include "diagnostics/command_text.h"

#include <algorithm>
#include <plinth/text.hpp>

namespace plinth::diagnostics {
namespace {

constexpr size_t kMaxArgs = 32;
constexpr size_t kMaxArgBytes = 128;

bool Is(std::string_view a, std::string_view word) { return text::EqualsNoCase(a, word); }

}  // namespace

std::vector<bool> Redactions(const Args& args) {
  std::vector<bool> hide(args.size(), false);
  if (args.empty()) return hide;
  const std::string_view cmd = args[0];
  if (Is(cmd, "auth")) {
    for (size_t i = 1; i < args.size(); ++i) hide[i] = true;
  } else if (Is(cmd, "hello")) {
    for (size_t i = 2; i + 2 < args.size(); ++i) {
      if (!Is(args[i], "auth")) continue;
      hide[i + 1] = hide[i + 2] = true;
      i += 2;
    }
  } else if (Is(cmd, "migrate")) {
    for (size_t i = 6; i < args.size(); ++i) {
      if (Is(args[i], "auth") && i + 1 < args.size()) hide[i + 1] = true;
      if (Is(args[i], "auth2") && i + 2 < args.size()) hide[i + 1] = hide[i + 2] = true;
    }
  } else if (Is(cmd, "config") && args.size() > 1 && Is(args[1], "set")) {
    for (size_t i = 2; i + 1 < args.size(); i += 2)
      if (Is(args[i], "requirepass") || Is(args[i], "masterauth")) hide[i + 1] = true;
  }
  return hide;
}

std::vector<std::string> SlowlogArgs(const Args& args) {
  const std::vector<bool> hide = Redactions(args);
  const size_t shown = std::min(args.size(), kMaxArgs);
  std::vector<std::string> out;
  out.reserve(shown);
  for (size_t i = 0; i < shown; ++i) {
    if (i == kMaxArgs - 1 && args.size() > kMaxArgs) {
      out.push_back("... (" + std::to_string(args.size() - kMaxArgs + 1) + " more arguments)");
    } else if (hide[i]) {
      out.emplace_back(kRedacted);
    } else if (args[i].size() > kMaxArgBytes) {
      out.push_back(std::string(args[i].substr(0, kMaxArgBytes)) + "... (" +
                    std::to_string(args[i].size() - kMaxArgBytes) + " more bytes)");
    } else {
      out.emplace_back(args[i]);
    }
  }
  return out;
}

void AppendQuoted(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (unsigned char ch : s) {
    switch (ch) {
      case '\\':
      case '"':
        out->push_back('\\');
        out->push_back(static_cast<char>(ch));
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\a':
        out->append("\\a");
        break;
      case '\b':
        out->append("\\b");
        break;
      default:
        if (ch >= 0x20 && ch < 0x7f) {
          out->push_back(static_cast<char>(ch));
        } else {
          out->append("\\x");
          out->push_back(kHex[ch >> 4]);
          out->push_back(kHex[ch & 15]);
        }
    }
  }
  out->push_back('"');
}

std::string MonitorLine(int64_t unix_us, int32_t db, std::string_view source, const Args& args) {
  std::string frac = std::to_string(unix_us % 1000000);
  std::string line = std::to_string(unix_us / 1000000) + "." + std::string(6 - frac.size(), '0') +
                     frac + " [" + std::to_string(db) + " " + std::string(source) + "]";
  const std::vector<bool> hide = Redactions(args);
  for (size_t i = 0; i < args.size(); ++i) {
    line.push_back(' ');
    AppendQuoted(&line, hide[i] ? kRedacted : args[i]);
  }
  return line;
}

}  // namespace plinth::diagnostics
