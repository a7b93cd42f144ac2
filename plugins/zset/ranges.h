// Parsing of sorted-set arguments with Redis 7.0's rules: scores, score ranges ("(1" "+inf"),
// lex ranges ("[a" "(a" "-" "+"), rank ranges, and the blocking timeout. Pure logic; THREAD:
// any.
#ifndef PLINTH_ZSET_RANGES_H
#define PLINTH_ZSET_RANGES_H

#include <cstddef>
#include <cstdint>
#include <plinth/errors.hpp>
#include <string>
#include <string_view>

#include "zset/zset.h"

namespace plinth::zset {

inline constexpr const char* kErrScoreRange = "ERR min or max is not a float";
inline constexpr const char* kErrLexRange = "ERR min or max not valid string range item";
inline constexpr const char* kErrNan = "ERR resulting score is not a number (NaN)";

// Parses a score as Redis's getDoubleFromObject: strtod over the whole text, no leading space,
// no overflow or underflow to zero, not NaN ("inf", "-inf", "+inf" are fine).
bool ParseScore(std::string_view s, double* out);

// A score interval: min/max with exclusive ends.
struct ScoreRange {
  double min = 0, max = 0;
  bool minex = false, maxex = false;
};
// Parses "min max" as ZRANGEBYSCORE does ("(" makes an end exclusive; strtod on the rest).
bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* out);

// A lex interval end: -inf, +inf, or a member inclusive/exclusive.
struct LexBound {
  enum Kind { kNegInf, kPosInf, kValue } kind = kNegInf;
  bool exclusive = false;
  std::string value;
};
struct LexRange {
  LexBound min, max;
};
// Parses "min max" as ZRANGEBYLEX does.
bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out);

// The ranks [first, last) of z that fall in the range (first == last when empty).
struct RankSpan {
  size_t first = 0, last = 0;
};
RankSpan SpanOfScores(const ZSet& z, const ScoreRange& r);
RankSpan SpanOfLex(const ZSet& z, const LexRange& r);
// Normalises ZRANGE-style start/stop (negatives count from the end) over size entries.
RankSpan SpanOfRanks(int64_t start, int64_t stop, size_t size);

// Parses a blocking timeout in seconds (a long double) into ms; 0 means forever. false with
// Redis's error text in *error.
bool ParseTimeout(std::string_view s, int64_t* ms, std::string* error);

// Formats a score as Redis's RESP2 text (%.17g, "inf", "-inf"); returns the length.
size_t FormatScore(double v, char* buf, size_t cap);

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_RANGES_H
