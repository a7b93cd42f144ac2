// Strict decimal parsing for command arguments, mirroring Redis's accepted forms exactly so
// that error replies ("value is not an integer or out of range") appear for the same inputs.
#include "numbers.h"

#include <cstdio>
#include <limits>

namespace plinth::common {

bool ParseInt64(std::string_view s, int64_t* out) {
  constexpr size_t kMaxLen = 20;
  if (s.empty() || s.size() > kMaxLen) return false;
  if (s == "0") {
    *out = 0;
    return true;
  }
  size_t i = 0;
  bool negative = s[0] == '-';
  if (negative) ++i;
  if (i == s.size() || s[i] < '1' || s[i] > '9') return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (v > kMaxPositive + 1) return false;
    *out = v == kMaxPositive + 1 ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
  } else {
    if (v > kMaxPositive) return false;
    *out = static_cast<int64_t>(v);
  }
  return true;
}

bool ParseInt32(std::string_view s, int32_t* out) {
  int64_t v = 0;
  if (!ParseInt64(s, &v)) return false;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    return false;
  *out = static_cast<int32_t>(v);
  return true;
}

std::string_view FormatInt64(int64_t v, char (&buf)[24]) {
  int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  return std::string_view(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

}  // namespace plinth::common
