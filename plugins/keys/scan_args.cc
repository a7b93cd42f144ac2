// SCAN argument parsing. The cursor syntax copies strtoul's leniency because clients send back
// whatever the server returned and some send odd forms ("", "-1") that Redis accepts.
#include "keys/scan_args.h"

#include <limits>
#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::keys {

using text::EqualsNoCase;

bool ParseScanCursor(std::string_view s, uint64_t* out) {
  size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  if (s.empty()) {
    *out = 0;
    return true;
  }
  size_t i = 0;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    ++i;
  }
  if (i == s.size()) return false;
  uint64_t v = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (v > (kMax - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = negative ? (~v + 1) : v;
  return true;
}

bool ParseScanOptions(const std::vector<std::string_view>& words, ScanOptions* opts,
                      std::string* error) {
  for (size_t i = 0; i < words.size(); i += 2) {
    bool has_value = i + 1 < words.size();
    if (EqualsNoCase(words[i], "count") && has_value) {
      int64_t count = 0;
      if (!text::ParseInt64(words[i + 1], &count)) {
        *error = errors::kNotInteger;
        return false;
      }
      if (count < 1) {
        *error = errors::kSyntax;
        return false;
      }
      opts->count = static_cast<uint64_t>(count);
    } else if (EqualsNoCase(words[i], "match") && has_value) {
      opts->pattern = words[i + 1];
      opts->has_pattern = opts->pattern != "*";
    } else if (EqualsNoCase(words[i], "type") && has_value) {
      opts->type = words[i + 1];
      opts->has_type = true;
    } else {
      *error = errors::kSyntax;
      return false;
    }
  }
  return true;
}

}  // namespace plinth::keys
