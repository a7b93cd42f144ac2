// Tests of the LCS computation (lcs.h): text, length and matched ranges, checked against what
// Redis 7.0's LCS command answers for the same strings, plus the size limits.
#include "strings/lcs.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace plinth::strings;

namespace {

struct Run {
  uint32_t a0, a1, b0, b1;
};

LcsResult Lcs(std::string_view a, std::string_view b, int64_t min_len = 0) {
  LcsOptions o;
  o.want_text = true;
  o.want_matches = true;
  o.min_match_len = min_len;
  LcsResult r;
  REQUIRE(ComputeLcs(a, b, o, &r) == LcsStatus::kOk);
  return r;
}

void CheckRuns(const LcsResult& r, const std::vector<Run>& want) {
  REQUIRE(r.matches.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(r.matches[i].a_start == want[i].a0);
    CHECK(r.matches[i].a_end == want[i].a1);
    CHECK(r.matches[i].b_start == want[i].b0);
    CHECK(r.matches[i].b_end == want[i].b1);
  }
}

}  // namespace

TEST_CASE("strings lcs: finds the text and the runs Redis reports") {
  LcsResult r = Lcs("ohmytext", "mynewtext");
  CHECK(r.text == "mytext");
  CHECK(r.length == 6);
  CheckRuns(r, {{4, 7, 5, 8}, {2, 3, 0, 1}});
  CHECK(r.matches[0].Length() == 4);

  r = Lcs("abcXdefYghi", "abcZdefWghi");
  CHECK(r.text == "abcdefghi");
  CheckRuns(r, {{8, 10, 8, 10}, {4, 6, 4, 6}, {0, 2, 0, 2}});

  r = Lcs("ABCBDAB", "BDCABA");
  CHECK(r.text == "BDAB");
  CheckRuns(r, {{5, 6, 3, 4}, {3, 4, 0, 1}});

  r = Lcs("aaaa", "aa");
  CHECK(r.text == "aa");
  CheckRuns(r, {{2, 3, 0, 1}});

  r = Lcs("abcdef", "abcdef");
  CheckRuns(r, {{0, 5, 0, 5}});
}

TEST_CASE("strings lcs: empty and disjoint strings have an empty LCS") {
  for (auto [a, b] : {std::pair{"", "abc"}, std::pair{"abc", ""}, std::pair{"xyz", "abc"}}) {
    LcsResult r = Lcs(a, b);
    CHECK(r.length == 0);
    CHECK(r.text.empty());
    CHECK(r.matches.empty());
  }
}

TEST_CASE("strings lcs: MINMATCHLEN leaves out shorter runs but not the length") {
  LcsResult r = Lcs("ohmytext", "mynewtext", 3);
  CHECK(r.length == 6);
  CheckRuns(r, {{4, 7, 5, 8}});
  r = Lcs("ABCBDAB", "BDCABA", 3);
  CHECK(r.matches.empty());
  CHECK(r.length == 4);
}

TEST_CASE("strings lcs: LEN alone skips the walk") {
  LcsOptions o;
  o.want_text = false;
  LcsResult r;
  REQUIRE(ComputeLcs("ohmytext", "mynewtext", o, &r) == LcsStatus::kOk);
  CHECK(r.length == 6);
  CHECK(r.text.empty());
  CHECK(r.matches.empty());
}

TEST_CASE("strings lcs: refuses a table larger than the limit without allocating it") {
  LcsOptions o;
  o.max_table_bytes = 4 * 11 * 11 - 1;  // (10+1) * (10+1) cells of 4 bytes, minus one
  LcsResult r;
  std::string ten(10, 'x');
  CHECK(ComputeLcs(ten, ten, o, &r) == LcsStatus::kTableTooLarge);
  o.max_table_bytes += 1;
  CHECK(ComputeLcs(ten, ten, o, &r) == LcsStatus::kOk);
  CHECK(r.text == ten);
}
