// plinth/number.hpp - header-only C++17 float parsing and formatting with Redis's exact rules,
// for plugins: string2ld and ld2string's human mode (INCRBYFLOAT, HINCRBYFLOAT), and the bound
// on repeated random picks (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER with a negative count).
//
// Standard library only, no ABI types. Every function is pure and THREAD: any (strtold and
// snprintf read the C locale; the server never changes it from "C").
#ifndef PLINTH_NUMBER_HPP
#define PLINTH_NUMBER_HPP

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one (Host::api above all).
#pragma GCC visibility push(hidden)
namespace plinth::number {

// Redis refuses float texts of MAX_LONG_DOUBLE_CHARS (5 KiB) or more.
inline constexpr size_t kMaxLongDoubleChars = 5 * 1024;

// Parses s as a long double the way Redis's string2ld does (INCRBYFLOAT, HINCRBYFLOAT): strtold
// over the whole text, no leading space, no NaN, no overflow to infinity and no underflow to
// zero ("inf" and hex floats are accepted) and no embedded NUL. Texts of kMaxLongDoubleChars
// bytes or more are refused. Returns true and stores the value in *out (when out is not null);
// returns false and leaves *out untouched otherwise. THREAD: any.
inline bool ParseLongDouble(std::string_view s, long double* out) {
  if (s.empty() || s.size() >= kMaxLongDoubleChars) return false;
  char buf[kMaxLongDoubleChars];
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
  if (errno == ERANGE && (std::isinf(value) || std::fpclassify(value) == FP_ZERO)) return false;
  if (std::isnan(value)) return false;
  if (out) *out = value;
  return true;
}

// Formats v like Redis's human-friendly long double form (ld2string with LD_STR_HUMAN):
// "%.17Lf" with the trailing zeros (and a trailing '.') removed, "-0" written as "0", and
// "inf", "-inf", "nan" for the special values. Returns the text (a new string; it may be a few
// thousand bytes for huge values). THREAD: any.
inline std::string FormatLongDouble(long double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  // The largest long double needs about 4950 characters in %.17Lf.
  std::string buf(kMaxLongDoubleChars, '\0');
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

// The most elements a negative count of SRANDMEMBER, HRANDFIELD or ZRANDMEMBER may ask for.
// Such a count allows repeats, so the collection's size does not bound the reply: Redis 7.0
// loops -count times, which for -9223372036854775807 never ends. 2^24 picks already build a
// reply of at least 117 MiB (three times that WITHSCORES) in about a second.
inline constexpr uint64_t kMaxRepeatedPicks = uint64_t{1} << 24;

// The reply to a negative count past kMaxRepeatedPicks. It starts as Redis's own range errors
// do, so clients that match "value is out of range" still match.
inline constexpr std::string_view kErrTooManyPicks =
    "ERR value is out of range, a negative count may repeat at most 16777216 elements";

// |v| as an unsigned number; defined for INT64_MIN too (2^63), where -v would overflow.
// THREAD: any.
constexpr uint64_t Magnitude(int64_t v) {
  return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace plinth::number
#pragma GCC visibility pop

#endif  // PLINTH_NUMBER_HPP
