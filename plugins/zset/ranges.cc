// Argument parsing of the sorted-set commands (see ranges.h).
#include "zset/ranges.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <plinth/errors.hpp>

namespace plinth::zset {

namespace {

// A NUL-terminated copy of s for strtod, on the stack when short.
class CText {
 public:
  explicit CText(std::string_view s) {
    if (s.size() < sizeof small_) {
      std::memcpy(small_, s.data(), s.size());
      small_[s.size()] = '\0';
      p_ = small_;
    } else {
      big_.assign(s);
      p_ = big_.c_str();
    }
  }
  const char* c_str() const { return p_; }

 private:
  char small_[96];
  std::string big_;
  const char* p_;
};

}  // namespace

bool ParseScore(std::string_view s, double* out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  const CText text(s);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (static_cast<size_t>(end - text.c_str()) != s.size()) return false;
  if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL || std::fpclassify(v) == FP_ZERO))
    return false;
  if (std::isnan(v)) return false;
  *out = v;
  return true;
}

namespace {

// One end of a score range: strtod must stop at the text's end (or at an embedded NUL, as
// Redis's C string check does).
bool ParseScoreEnd(std::string_view s, double* v, bool* exclusive) {
  *exclusive = !s.empty() && s[0] == '(';
  const CText text(s.substr(*exclusive ? 1 : 0));
  char* end = nullptr;
  *v = std::strtod(text.c_str(), &end);
  return *end == '\0' && !std::isnan(*v);
}

bool ParseLexEnd(std::string_view s, LexBound* b) {
  if (s.empty()) return false;
  switch (s[0]) {
    case '+':
      if (s.size() != 1) return false;
      b->kind = LexBound::kPosInf;
      return true;
    case '-':
      if (s.size() != 1) return false;
      b->kind = LexBound::kNegInf;
      return true;
    case '(':
    case '[':
      b->kind = LexBound::kValue;
      b->exclusive = s[0] == '(';
      b->value.assign(s.substr(1));
      return true;
    default:
      return false;
  }
}

}  // namespace

bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* out) {
  return ParseScoreEnd(min, &out->min, &out->minex) && ParseScoreEnd(max, &out->max, &out->maxex);
}

bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out) {
  return ParseLexEnd(min, &out->min) && ParseLexEnd(max, &out->max);
}

RankSpan SpanOfScores(const ZSet& z, const ScoreRange& r) {
  RankSpan s;
  if (r.min > r.max || (r.min == r.max && (r.minex || r.maxex))) return s;
  s.first = z.CountScoreBelow(r.min, r.minex);
  s.last = z.CountScoreBelow(r.max, !r.maxex);
  if (s.last < s.first) s.last = s.first;
  return s;
}

namespace {

// Entries sorting before bound b used as a lower end (lower) or as an upper end.
size_t LexCount(const ZSet& z, const LexBound& b, bool lower) {
  if (b.kind == LexBound::kNegInf) return 0;
  if (b.kind == LexBound::kPosInf) return z.Size();
  return z.CountLexBelow(b.value, lower ? b.exclusive : !b.exclusive);
}

}  // namespace

RankSpan SpanOfLex(const ZSet& z, const LexRange& r) {
  RankSpan s;
  // Empty ranges as Redis's zslIsInLexRange rejects them up front.
  if (r.min.kind == LexBound::kPosInf || r.max.kind == LexBound::kNegInf) return s;
  if (r.min.kind == LexBound::kValue && r.max.kind == LexBound::kValue) {
    const int c = r.min.value.compare(r.max.value);
    if (c > 0 || (c == 0 && (r.min.exclusive || r.max.exclusive))) return s;
  }
  s.first = LexCount(z, r.min, true);
  s.last = LexCount(z, r.max, false);
  if (s.last < s.first) s.last = s.first;
  return s;
}

RankSpan SpanOfRanks(int64_t start, int64_t stop, size_t size) {
  const auto n = static_cast<int64_t>(size);
  if (start < 0) start += n;
  if (stop < 0) stop += n;
  if (start < 0) start = 0;
  RankSpan s;
  if (start > stop || start >= n) return s;
  if (stop >= n) stop = n - 1;
  s.first = static_cast<size_t>(start);
  s.last = static_cast<size_t>(stop) + 1;
  return s;
}

bool ParseTimeout(std::string_view s, int64_t* ms, std::string* error) {
  const std::string text(s);
  char* end = nullptr;
  errno = 0;
  long double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                      ? NAN
                      : std::strtold(text.c_str(), &end);
  if (std::isnan(v) || static_cast<size_t>(end - text.c_str()) != text.size() ||
      (errno == ERANGE && (v == HUGE_VALL || v == -HUGE_VALL || v == 0))) {
    *error = errors::kTimeoutNotFloat;
    return false;
  }
  v *= 1000.0L;
  // Redis rounds up to a long long (-0.1 ms is 0: forever); a value past its range (inf
  // included) comes out as LLONG_MIN on x86, hence "negative".
  v = std::ceil(v);
  const long double kLimit = 9.2233720368547758e18L;
  const int64_t t = (v >= kLimit || v <= -kLimit) ? INT64_MIN : static_cast<int64_t>(v);
  if (t < 0) {
    *error = errors::kTimeoutNegative;
    return false;
  }
  *ms = t;
  return true;
}

size_t FormatScore(double v, char* buf, size_t cap) {
  if (std::isinf(v)) {
    const char* t = v > 0 ? "inf" : "-inf";
    const int n = std::snprintf(buf, cap, "%s", t);
    return static_cast<size_t>(n);
  }
  const int n = std::snprintf(buf, cap, "%.17g", v);
  return n < 0 ? 0 : static_cast<size_t>(n);
}

}  // namespace plinth::zset
