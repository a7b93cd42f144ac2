// Unit tests of the sorted-set argument parsers: scores, score and lex ranges, rank spans and
// the blocking timeout, with Redis 7.0's accept/refuse rules.
#include "zset/ranges.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace plinth::zset {
namespace {

TEST_CASE("zset ranges: scores parse as Redis's strtod rules") {
  double v = 0;
  CHECK(ParseScore("1.5", &v));
  CHECK(v == 1.5);
  CHECK(ParseScore("+inf", &v));
  CHECK(std::isinf(v));
  CHECK(ParseScore("-inf", &v));
  CHECK(v < 0);
  CHECK(ParseScore("0x10", &v));
  CHECK(v == 16);
  CHECK_FALSE(ParseScore("nan", &v));
  CHECK_FALSE(ParseScore("", &v));
  CHECK_FALSE(ParseScore(" 1", &v));
  CHECK_FALSE(ParseScore("1 ", &v));
  CHECK_FALSE(ParseScore("1e400", &v));
  CHECK_FALSE(ParseScore("1e-400", &v));
  CHECK_FALSE(ParseScore(std::string("1\0", 2), &v));
}

TEST_CASE("zset ranges: score ranges take a paren for exclusive ends") {
  ScoreRange r;
  CHECK(ParseScoreRange("(1", "5", &r));
  CHECK(r.minex);
  CHECK_FALSE(r.maxex);
  CHECK(r.min == 1);
  CHECK(ParseScoreRange("-inf", "(+inf", &r));
  CHECK(r.maxex);
  CHECK_FALSE(ParseScoreRange("x", "1", &r));
  CHECK_FALSE(ParseScoreRange("1", "nan", &r));
}

TEST_CASE("zset ranges: lex ranges need a bracket or paren or a minus or plus") {
  LexRange r;
  CHECK(ParseLexRange("[a", "(b", &r));
  CHECK(r.min.kind == LexBound::kValue);
  CHECK_FALSE(r.min.exclusive);
  CHECK(r.max.exclusive);
  CHECK(ParseLexRange("-", "+", &r));
  CHECK(r.min.kind == LexBound::kNegInf);
  CHECK(r.max.kind == LexBound::kPosInf);
  CHECK_FALSE(ParseLexRange("a", "+", &r));
  CHECK_FALSE(ParseLexRange("", "+", &r));
  CHECK_FALSE(ParseLexRange("-x", "+", &r));
}

TEST_CASE("zset ranges: rank spans clamp to the data") {
  RankSpan s = SpanOfRanks(0, -1, 5);
  CHECK(s.first == 0);
  CHECK(s.last == 5);
  s = SpanOfRanks(-100, 100, 5);
  CHECK(s.last == 5);
  s = SpanOfRanks(3, 1, 5);
  CHECK(s.first == s.last);
  s = SpanOfRanks(INT64_MIN, INT64_MAX, 5);
  CHECK(s.last - s.first == 5);
}

TEST_CASE("zset ranges: timeouts are seconds rounded up to ms") {
  int64_t ms = -1;
  std::string err;
  CHECK(ParseTimeout("0", &ms, &err));
  CHECK(ms == 0);
  CHECK(ParseTimeout("1.5", &ms, &err));
  CHECK(ms == 1500);
  CHECK(ParseTimeout("1e-300", &ms, &err));
  CHECK(ms == 1);
  CHECK(ParseTimeout("-0.0001", &ms, &err));
  CHECK(ms == 0);
  CHECK_FALSE(ParseTimeout("-1", &ms, &err));
  CHECK(err == "ERR timeout is negative");
  CHECK_FALSE(ParseTimeout("inf", &ms, &err));
  CHECK(err == "ERR timeout is negative");
  CHECK_FALSE(ParseTimeout("abc", &ms, &err));
  CHECK(err == "ERR timeout is not a float or out of range");
  CHECK_FALSE(ParseTimeout("nan", &ms, &err));
  CHECK_FALSE(ParseTimeout("", &ms, &err));
}

TEST_CASE("zset ranges: scores format with 17 significant digits") {
  char buf[64];
  CHECK(std::string(buf, FormatScore(1.1, buf, sizeof buf)) == "1.1000000000000001");
  CHECK(std::string(buf, FormatScore(3, buf, sizeof buf)) == "3");
  CHECK(std::string(buf, FormatScore(-INFINITY, buf, sizeof buf)) == "-inf");
}

}  // namespace
}  // namespace plinth::zset
