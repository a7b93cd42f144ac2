// plinth/text.hpp - header-only C++17 text helpers with Redis's exact rules, for plugins (and
// the host): ASCII case, decimal integers, memory sizes ("512mb") and glob patterns.
//
// Standard library only, no ABI types. Every function is pure and THREAD: any.
#ifndef PLINTH_TEXT_HPP
#define PLINTH_TEXT_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one (Host::api above all).
#pragma GCC visibility push(hidden)
namespace plinth::text {

// ---- ASCII case ------------------------------------------------------------------------------
// Only 'A'-'Z' and 'a'-'z' change; every other byte (including UTF-8 and bytes >= 0x80) is kept,
// whatever the C locale says.

// Returns c with 'A'-'Z' mapped to 'a'-'z'. THREAD: any.
inline char ToLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Returns c with 'a'-'z' mapped to 'A'-'Z'. THREAD: any.
inline char ToUpper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

// Returns a copy of s with ASCII letters in lower case; same length, NUL bytes kept. THREAD: any.
inline std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToLower(c);
  return out;
}

// Returns a copy of s with ASCII letters in upper case; same length, NUL bytes kept. THREAD: any.
inline std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToUpper(c);
  return out;
}

// True when a and b have the same length and the same bytes once ASCII case is ignored (how
// Redis compares option words and command names). THREAD: any.
inline bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ToLower(a[i]) != ToLower(b[i])) return false;
  return true;
}

// ---- Secrets ---------------------------------------------------------------------------------

// True when a and b are the same bytes, compared in time that depends on their lengths only,
// never on where they first differ: for passwords and password hashes (AUTH, ACL users), so
// that timing a refusal says nothing about how much of a guess was right. THREAD: any.
inline bool SecretEquals(std::string_view a, std::string_view b) {
  const size_t n = a.size() > b.size() ? a.size() : b.size();
  // volatile: every byte is compared, the compiler cannot stop at the first difference.
  volatile unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
    const unsigned char y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
    diff = static_cast<unsigned char>(diff | (x ^ y));
  }
  return diff == 0;
}

// ---- Decimal integers ------------------------------------------------------------------------

namespace detail {

// Reads digits (at least one, nothing but '0'-'9') as a value of the given sign; false when a
// byte is not a digit or the value does not fit int64.
inline bool DigitsToInt64(std::string_view digits, bool negative, int64_t* out) {
  if (digits.empty()) return false;
  uint64_t v = 0;
  for (char c : digits) {
    const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
    if (d > 9) return false;
    if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
    v = v * 10 + d;
  }
  // INT64_MIN has no positive counterpart, hence the asymmetric bound.
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (v > limit) return false;
  if (out) *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

}  // namespace detail

// Parses s as a signed 64-bit decimal the way Redis's string2ll reads command arguments and
// protocol lengths: an optional '-', then "0" alone or digits without a leading zero; nothing
// else (no '+', no spaces, no "-0", no "007"), at most 20 bytes, within int64. Returns true and
// stores the value in *out (when out is not null); returns false and leaves *out untouched
// otherwise. THREAD: any.
inline bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  const bool negative = s[0] == '-';
  const std::string_view digits = s.substr(negative ? 1 : 0);
  // "0" is the only accepted text that starts with a zero.
  if (!digits.empty() && digits[0] == '0' && (negative || digits.size() > 1)) return false;
  return detail::DigitsToInt64(digits, negative, out);
}

// Like ParseInt64, then requires the value to fit an int32 (Redis's getIntFromObject, e.g. a
// database index). Returns false and leaves *out untouched otherwise; out may be null.
// THREAD: any.
inline bool ParseInt32(std::string_view s, int32_t* out) {
  int64_t v = 0;
  if (!ParseInt64(s, &v)) return false;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    return false;
  if (out) *out = static_cast<int32_t>(v);
  return true;
}

// Parses s with the looser syntax of strtoll (base 10) over the whole text, the syntax of
// option values (config file, command line, CONFIG SET): an optional '+' or '-', then at least
// one digit, leading zeros allowed ("+5", "007" and "-0" are fine); no spaces, at most 20
// bytes, within int64. Returns false and leaves *out untouched otherwise; out may be null.
// Command arguments use ParseInt64 instead. THREAD: any.
inline bool ParseInt64Lenient(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  const bool negative = s[0] == '-';
  return detail::DigitsToInt64(s.substr(negative || s[0] == '+' ? 1 : 0), negative, out);
}

// ---- Memory sizes ----------------------------------------------------------------------------

// Returns the multiplier of a memory unit as redis.conf writes them, in any case: "" and "b" 1,
// "k" 1000, "kb" 1024, "m" 1000^2, "mb" 1024^2, "g" 1000^3, "gb" 1024^3; 0 for anything else
// ("t", "kib", " kb"). THREAD: any.
inline int64_t MemoryUnit(std::string_view unit) {
  if (unit.empty() || EqualsNoCase(unit, "b")) return 1;
  if (EqualsNoCase(unit, "k")) return 1000;
  if (EqualsNoCase(unit, "kb")) return 1024;
  if (EqualsNoCase(unit, "m")) return int64_t{1000} * 1000;
  if (EqualsNoCase(unit, "mb")) return int64_t{1024} * 1024;
  if (EqualsNoCase(unit, "g")) return int64_t{1000} * 1000 * 1000;
  if (EqualsNoCase(unit, "gb")) return int64_t{1024} * 1024 * 1024;
  return 0;
}

// Parses a byte count the way redis.conf writes sizes: one or more digits (leading zeros
// allowed, no sign, no spaces) then an optional unit of MemoryUnit ("512mb", "1GB", "100k",
// "4096"). Returns false and leaves *out untouched when the text has another form or the
// result does not fit int64; out may be null. THREAD: any.
inline bool ParseMemory(std::string_view s, int64_t* out) {
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0) return false;
  const int64_t mul = MemoryUnit(s.substr(digits));
  int64_t v = 0;
  if (mul == 0 || !detail::DigitsToInt64(s.substr(0, digits), false, &v)) return false;
  if (v > std::numeric_limits<int64_t>::max() / mul) return false;
  if (out) *out = v * mul;
  return true;
}

// Parses a memory option value: a number in ParseInt64Lenient's syntax (so a sign is allowed and
// the result may be negative) then an optional unit of MemoryUnit ("-1", "+2kb", "007MB").
// Returns false and leaves *out untouched on another form or when the product does not fit
// int64; out may be null. THREAD: any.
inline bool ParseMemoryLenient(std::string_view s, int64_t* out) {
  size_t split = 0;
  while (split < s.size() &&
         ((s[split] >= '0' && s[split] <= '9') || s[split] == '+' || s[split] == '-'))
    ++split;
  const int64_t mul = MemoryUnit(s.substr(split));
  int64_t v = 0;
  if (mul == 0 || !ParseInt64Lenient(s.substr(0, split), &v)) return false;
  if (v != 0 && (v > std::numeric_limits<int64_t>::max() / mul ||
                 v < std::numeric_limits<int64_t>::min() / mul))
    return false;
  if (out) *out = v * mul;
  return true;
}

// ---- Glob patterns ---------------------------------------------------------------------------

namespace detail {

inline bool SameByte(char a, char b, bool nocase) {
  return nocase ? ToLower(a) == ToLower(b) : a == b;
}

// Matches byte c against the set whose body starts at pattern[i] (just past '['). Stores the
// index just past the closing ']' (or the pattern's end when unclosed) in *next.
inline bool GlobSet(std::string_view pattern, size_t i, char c, bool nocase, size_t* next) {
  const bool negate = i < pattern.size() && pattern[i] == '^';
  if (negate) ++i;
  bool found = false;
  while (i < pattern.size() && pattern[i] != ']') {
    if (pattern[i] == '\\' && i + 1 < pattern.size()) {
      // An escaped byte inside a set compares exactly, even with nocase, as in Redis.
      if (pattern[i + 1] == c) found = true;
      i += 2;
    } else if (i + 2 < pattern.size() && pattern[i + 1] == '-') {
      unsigned char lo = static_cast<unsigned char>(pattern[i]);
      unsigned char hi = static_cast<unsigned char>(pattern[i + 2]);
      unsigned char x = static_cast<unsigned char>(c);
      // Redis swaps reversed ends before folding case.
      if (lo > hi) std::swap(lo, hi);
      if (nocase) {
        lo = static_cast<unsigned char>(ToLower(static_cast<char>(lo)));
        hi = static_cast<unsigned char>(ToLower(static_cast<char>(hi)));
        x = static_cast<unsigned char>(ToLower(static_cast<char>(x)));
      }
      if (x >= lo && x <= hi) found = true;
      i += 3;
    } else {
      if (SameByte(pattern[i], c, nocase)) found = true;
      ++i;
    }
  }
  *next = i < pattern.size() ? i + 1 : i;
  return found != negate;
}

// Matches one non-star element at pattern[i] against byte c; *next gets the index after it.
inline bool GlobOne(std::string_view pattern, size_t i, char c, bool nocase, size_t* next) {
  const char p = pattern[i];
  if (p == '?') {
    *next = i + 1;
    return true;
  }
  if (p == '[') return GlobSet(pattern, i + 1, c, nocase, next);
  if (p == '\\' && i + 1 < pattern.size()) ++i;
  *next = i + 1;
  return SameByte(pattern[i], c, nocase);
}

}  // namespace detail

// True when subject matches the glob pattern with Redis's stringmatchlen rules:
//   *        any run of bytes (also an empty one)
//   ?        exactly one byte
//   [abc]    one byte of the set; [^abc] one byte not in it; [a-z] a range (ends may be given in
//            either order); \x inside a set is a literal x; "[]" never matches; an unclosed [
//            runs to the end of the pattern
//   \x       a literal x (a trailing \ is a literal backslash)
// Bytes, not characters: NUL and bytes >= 0x80 are ordinary. With nocase, ASCII letters compare
// case-insensitively (an escaped byte inside a set stays exact, as in Redis). Like Redis, an
// empty subject only matches an empty pattern (callers treat a lone "*" as "match all" before
// calling). O(len(pattern) * len(subject)) at worst and no recursion, so hostile patterns cannot
// exhaust the stack or take exponential time. THREAD: any.
inline bool GlobMatch(std::string_view pattern, std::string_view subject, bool nocase = false) {
  if (subject.empty()) return pattern.empty();
  // Single-star backtracking: on a mismatch, return to the latest '*' and let it swallow one
  // more byte. Every other element matches exactly one byte, so the latest star is enough.
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t p = 0, s = 0;
  size_t star_p = kNone, star_s = 0;
  while (s < subject.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      while (p < pattern.size() && pattern[p] == '*') ++p;
      if (p == pattern.size()) return true;
      star_p = p;
      star_s = s;
      continue;
    }
    size_t next = 0;
    if (p < pattern.size() && detail::GlobOne(pattern, p, subject[s], nocase, &next)) {
      p = next;
      ++s;
      continue;
    }
    if (star_p == kNone) return false;
    p = star_p;
    s = ++star_s;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Redis's quoting of arbitrary bytes (sdscatrepr, what redis-cli prints and the AOF manifest
// uses for odd file names): "..." with \\, \", \n, \r, \t, \a and \b escaped and any other
// byte outside printable ASCII as \xHH. THREAD: any.
inline std::string QuoteRepr(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    const char* esc = nullptr;
    switch (c) {
      case '\\':
        esc = "\\\\";
        break;
      case '"':
        esc = "\\\"";
        break;
      case '\n':
        esc = "\\n";
        break;
      case '\r':
        esc = "\\r";
        break;
      case '\t':
        esc = "\\t";
        break;
      case '\a':
        esc = "\\a";
        break;
      case '\b':
        esc = "\\b";
        break;
      default:
        break;
    }
    if (esc) {
      out += esc;
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "\"";
}

}  // namespace plinth::text
#pragma GCC visibility pop

#endif  // PLINTH_TEXT_HPP
