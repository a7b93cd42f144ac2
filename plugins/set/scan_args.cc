// SSCAN's argument parsing (see scan_args.h).
#include "set/scan_args.h"

#include <plinth/errors.hpp>
#include <plinth/text.hpp>

namespace plinth::set {

bool ParseCursor(std::string_view s, uint64_t* out) {
  size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  if (s.empty()) {
    *out = 0;
    return true;
  }
  bool negative = false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? 0 - v : v;
  return true;
}

bool ParseScanOptions(const std::vector<std::string_view>& words, ScanOptions* opts,
                      std::string* error) {
  for (size_t i = 0; i < words.size(); i += 2) {
    bool has_value = i + 1 < words.size();
    if (has_value && text::EqualsNoCase(words[i], "count")) {
      int64_t n = 0;
      if (!text::ParseInt64(words[i + 1], &n)) {
        *error = errors::kNotInteger;
        return false;
      }
      if (n < 1) {
        *error = errors::kSyntax;
        return false;
      }
      opts->count = static_cast<uint64_t>(n);
    } else if (has_value && text::EqualsNoCase(words[i], "match")) {
      opts->pattern = words[i + 1];
      opts->has_pattern = opts->pattern != "*";
    } else {
      *error = errors::kSyntax;
      return false;
    }
  }
  return true;
}

}  // namespace plinth::set
