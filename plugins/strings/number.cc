// Redis-exact number parsing and formatting (see number.h).
#include "number.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plinth::strings {
namespace {

// Redis refuses float texts of MAX_LONG_DOUBLE_CHARS (5 KiB) or more.
constexpr size_t kMaxFloatText = 5 * 1024;

}  // namespace

bool ParseLongDouble(std::string_view s, long double* out) {
  if (s.empty() || s.size() >= kMaxFloatText) return false;
  char buf[kMaxFloatText];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end = nullptr;
  long double value = std::strtold(buf, &end);
  // An embedded NUL stops strtold early: the whole text must have been read.
  if (std::isspace(static_cast<unsigned char>(buf[0])) || *end != '\0' ||
      static_cast<size_t>(end - buf) != s.size()) {
    return false;
  }
  if (errno == ERANGE && (std::isinf(value) || std::fpclassify(value) == FP_ZERO)) {
    return false;
  }
  if (std::isnan(value)) return false;
  if (out) *out = value;
  return true;
}

std::string FormatLongDouble(long double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  // The largest long double needs about 4950 characters in %.17Lf.
  std::string buf(kMaxFloatText, '\0');
  int n = std::snprintf(buf.data(), buf.size(), "%.17Lf", v);
  if (n < 0) return "0";
  if (static_cast<size_t>(n) >= buf.size()) {
    buf.assign(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(buf.data(), buf.size(), "%.17Lf", v);
  }
  buf.resize(static_cast<size_t>(n));
  if (buf.find('.') != std::string::npos) {
    while (buf.back() == '0') buf.pop_back();
    if (buf.back() == '.') buf.pop_back();
  }
  if (buf == "-0") buf = "0";
  return buf;
}

bool AddInt64(int64_t value, int64_t incr, int64_t* out) {
  int64_t sum = 0;
  if (__builtin_add_overflow(value, incr, &sum)) return false;
  *out = sum;
  return true;
}

}  // namespace plinth::strings
