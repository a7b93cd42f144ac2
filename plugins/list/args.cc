// List command argument parsing (see args.h).
#include "list/args.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <plinth/text.hpp>

#include "list/errors.h"

namespace plinth::list {
namespace {

constexpr size_t kMaxFloatText = 5 * 1024;  // Redis's MAX_LONG_DOUBLE_CHARS
// A deadline this far out never comes; it keeps now + timeout clear of overflow.
constexpr int64_t kMaxTimeoutMs = int64_t{1} << 50;

}  // namespace

bool IsToken(std::string_view arg, std::string_view upper) {
  const size_t nul = arg.find('\0');
  if (nul != std::string_view::npos) arg = arg.substr(0, nul);
  return text::EqualsNoCase(arg, upper);
}

bool ParseSide(std::string_view arg, bool* left) {
  if (IsToken(arg, "LEFT")) {
    *left = true;
    return true;
  }
  if (IsToken(arg, "RIGHT")) {
    *left = false;
    return true;
  }
  return false;
}

const char* ParseTimeoutMs(std::string_view arg, int64_t* ms) {
  if (arg.empty() || arg.size() >= kMaxFloatText) return errors::kTimeoutNotFloat.data();
  char buf[kMaxFloatText];
  std::memcpy(buf, arg.data(), arg.size());
  buf[arg.size()] = '\0';
  errno = 0;
  char* end = nullptr;
  const long double v = std::strtold(buf, &end);
  if (std::isspace(static_cast<unsigned char>(buf[0])) || *end != '\0' ||
      static_cast<size_t>(end - buf) != arg.size() || std::isnan(v) ||
      (errno == ERANGE && (std::isinf(v) || std::fpclassify(v) == FP_ZERO)))
    return errors::kTimeoutNotFloat.data();
  const long double t = v * 1000.0L;
  // Redis casts to long long: out of range (and infinity) comes out as LLONG_MIN on x86-64,
  // hence "negative".
  if (!(t > -9223372036854775808.0L && t < 9223372036854775808.0L))
    return errors::kTimeoutNegative.data();
  const auto whole = static_cast<int64_t>(std::ceil(t));  // Redis rounds up to a millisecond
  if (whole < 0) return errors::kTimeoutNegative.data();
  *ms = whole > kMaxTimeoutMs ? kMaxTimeoutMs : whole;
  return nullptr;
}

bool ClampRange(int64_t start, int64_t stop, uint64_t len, uint64_t* first, uint64_t* count) {
  const auto n = static_cast<int64_t>(len);  // lists never reach 2^63 entries
  if (start < 0) start = n + start;
  if (stop < 0) stop = n + stop;
  if (start < 0) start = 0;
  if (start > stop || start >= n) return false;
  if (stop >= n) stop = n - 1;
  *first = static_cast<uint64_t>(start);
  *count = static_cast<uint64_t>(stop - start + 1);
  return true;
}

}  // namespace plinth::list
