// Option values of the fake host (see options.h).
#include "options.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

namespace plinth::fakehost {
namespace {

char LowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string LowerText(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerChar(c);
  return out;
}

std::vector<std::string> SplitWords(std::string_view s) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= s.size()) {
    size_t bar = s.find('|', start);
    if (bar == std::string_view::npos) bar = s.size();
    if (bar > start) words.push_back(LowerText(s.substr(start, bar - start)));
    start = bar + 1;
  }
  return words;
}

// Redis memory syntax: digits with an optional b, k, kb, m, mb, g, gb suffix (k = 1000,
// kb = 1024). Returns false on anything else or overflow.
bool ParseMemory(std::string_view s, int64_t* out) {
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  int64_t number = 0;
  if (digits == 0 || !ParseInt64(s.substr(0, digits), &number)) return false;
  std::string unit = LowerText(s.substr(digits));
  int64_t mul = 1;
  if (unit.empty() || unit == "b")
    mul = 1;
  else if (unit == "k")
    mul = 1000;
  else if (unit == "kb")
    mul = 1024;
  else if (unit == "m")
    mul = 1000 * 1000;
  else if (unit == "mb")
    mul = 1024 * 1024;
  else if (unit == "g")
    mul = 1000LL * 1000 * 1000;
  else if (unit == "gb")
    mul = 1024LL * 1024 * 1024;
  else
    return false;
  if (number > INT64_MAX / mul) return false;
  *out = number * mul;
  return true;
}

bool InRange(const plinth_option_spec_t& spec, int64_t v, std::string* err) {
  if (v >= spec.min && v <= spec.max) return true;
  *err = "argument must be between " + std::to_string(spec.min) + " and " +
         std::to_string(spec.max) + " inclusive";
  return false;
}

}  // namespace

bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  if (s.size() - i > 1 && s[i] == '0') return false;  // no leading zeros, like Redis's string2ll
  std::string text(s);
  errno = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return false;
  *out = v;
  return true;
}

bool NormalizeOption(const plinth_option_spec_t& spec, std::string_view text, std::string* out,
                     std::string* err) {
  int64_t v = 0;
  switch (spec.type) {
    case PLINTH_OPT_STRING:
      *out = std::string(text);
      return true;
    case PLINTH_OPT_INT:
      if (!ParseInt64(text, &v)) {
        *err = "argument couldn't be parsed into an integer";
        return false;
      }
      if (!InRange(spec, v, err)) return false;
      *out = std::to_string(v);
      return true;
    case PLINTH_OPT_MEMORY:
      if (!ParseMemory(text, &v)) {
        *err = "argument must be a memory value";
        return false;
      }
      if (!InRange(spec, v, err)) return false;
      *out = std::to_string(v);
      return true;
    case PLINTH_OPT_BOOL: {
      std::string t = LowerText(text);
      if (t == "yes" || t == "true" || t == "1")
        *out = "yes";
      else if (t == "no" || t == "false" || t == "0")
        *out = "no";
      else {
        *err = "argument must be 'yes' or 'no'";
        return false;
      }
      return true;
    }
    case PLINTH_OPT_ENUM: {
      std::string t = LowerText(text);
      std::vector<std::string> words = SplitWords(spec.enum_values ? spec.enum_values : "");
      for (const std::string& w : words)
        if (w == t) {
          *out = t;
          return true;
        }
      std::string list;
      for (const std::string& w : words) list += (list.empty() ? "" : ", ") + w;
      *err = "argument(s) must be one of the following: " + list;
      return false;
    }
    default:
      *err = "unknown option type " + std::to_string(spec.type);
      return false;
  }
}

bool OptionAsInt(const plinth_option_spec_t& spec, const std::string& value, int64_t* out) {
  switch (spec.type) {
    case PLINTH_OPT_BOOL:
      *out = value == "yes" ? 1 : 0;
      return true;
    case PLINTH_OPT_ENUM: {
      std::vector<std::string> words = SplitWords(spec.enum_values ? spec.enum_values : "");
      for (size_t i = 0; i < words.size(); ++i)
        if (words[i] == value) {
          *out = static_cast<int64_t>(i);
          return true;
        }
      return false;
    }
    default:
      return ParseInt64(value, out);
  }
}

bool GlobMatch(std::string_view p, std::string_view s, bool nocase) {
  auto same = [nocase](char a, char b) { return nocase ? LowerChar(a) == LowerChar(b) : a == b; };
  while (!p.empty()) {
    switch (p[0]) {
      case '*':
        while (p.size() > 1 && p[1] == '*') p.remove_prefix(1);
        if (p.size() == 1) return true;
        for (size_t i = 0; i <= s.size(); ++i)
          if (GlobMatch(p.substr(1), s.substr(i), nocase)) return true;
        return false;
      case '?':
        if (s.empty()) return false;
        s.remove_prefix(1);
        p.remove_prefix(1);
        break;
      case '[': {
        if (s.empty()) return false;
        size_t i = 1;
        bool negate = i < p.size() && p[i] == '^';
        if (negate) ++i;
        bool match = false;
        for (; i < p.size() && p[i] != ']'; ++i) {
          if (p[i] == '\\' && i + 1 < p.size()) {
            match |= same(p[++i], s[0]);
          } else if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
            char lo = p[i], hi = p[i + 2], c = s[0];
            if (nocase) lo = LowerChar(lo), hi = LowerChar(hi), c = LowerChar(c);
            if (lo > hi) std::swap(lo, hi);
            match |= c >= lo && c <= hi;
            i += 2;
          } else {
            match |= same(p[i], s[0]);
          }
        }
        if (match == negate) return false;
        p.remove_prefix(i < p.size() ? i + 1 : p.size());
        s.remove_prefix(1);
        break;
      }
      case '\\':
        if (p.size() > 1) p.remove_prefix(1);
        [[fallthrough]];
      default:
        if (s.empty() || !same(p[0], s[0])) return false;
        p.remove_prefix(1);
        s.remove_prefix(1);
    }
  }
  return s.empty();
}

}  // namespace plinth::fakehost
