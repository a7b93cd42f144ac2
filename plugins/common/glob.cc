// Glob matching with single-star backtracking: on a mismatch the matcher returns to the most
// recent '*' and lets it swallow one more byte. Every element other than '*' matches exactly one
// byte, so remembering only the last star is enough and the cost stays polynomial.
#include "glob.h"

#include <cstddef>
#include <utility>

namespace plinth::common {
namespace {

unsigned char Lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c; }

bool SameByte(unsigned char a, unsigned char b, bool nocase) {
  return nocase ? Lower(a) == Lower(b) : a == b;
}

// Matches byte c against the set whose body starts at pattern[i] (just past '['). Stores the
// index just past the closing ']' (or the pattern's end when unclosed) in *next.
bool MatchSet(std::string_view pattern, size_t i, unsigned char c, bool nocase, size_t* next) {
  bool negate = i < pattern.size() && pattern[i] == '^';
  if (negate) ++i;
  bool found = false;
  while (i < pattern.size() && pattern[i] != ']') {
    unsigned char p = static_cast<unsigned char>(pattern[i]);
    if (p == '\\' && i + 1 < pattern.size()) {
      if (static_cast<unsigned char>(pattern[i + 1]) == c) found = true;
      i += 2;
    } else if (i + 2 < pattern.size() && pattern[i + 1] == '-') {
      unsigned char lo = p;
      unsigned char hi = static_cast<unsigned char>(pattern[i + 2]);
      if (lo > hi) std::swap(lo, hi);
      unsigned char x = c;
      if (nocase) {
        lo = Lower(lo);
        hi = Lower(hi);
        x = Lower(x);
      }
      if (x >= lo && x <= hi) found = true;
      i += 3;
    } else {
      if (SameByte(p, c, nocase)) found = true;
      ++i;
    }
  }
  *next = i < pattern.size() ? i + 1 : i;
  return found != negate;
}

// Matches one non-star element at pattern[i] against byte c; *next gets the index after it.
bool MatchOne(std::string_view pattern, size_t i, unsigned char c, bool nocase, size_t* next) {
  char p = pattern[i];
  if (p == '?') {
    *next = i + 1;
    return true;
  }
  if (p == '[') return MatchSet(pattern, i + 1, c, nocase, next);
  if (p == '\\' && i + 1 < pattern.size()) ++i;
  *next = i + 1;
  return SameByte(static_cast<unsigned char>(pattern[i]), c, nocase);
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view subject, bool nocase) {
  if (subject.empty()) return pattern.empty();
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
    if (p < pattern.size() &&
        MatchOne(pattern, p, static_cast<unsigned char>(subject[s]), nocase, &next)) {
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

}  // namespace plinth::common
