// Tests of <plinth/errors.hpp>: every text is a whole Redis error line (an upper-case code,
// one space, no CR or LF), and a few against Redis 7.0's wording. Compiled as C++17, like any
// out-of-tree plugin.
#include <doctest/doctest.h>

#include <plinth/errors.hpp>
#include <string_view>

namespace errors = plinth::errors;

namespace {

bool IsErrorLine(std::string_view s) {
  const size_t space = s.find(' ');
  if (space == 0 || space == std::string_view::npos || space + 1 == s.size()) return false;
  for (size_t i = 0; i < space; i++)
    if (s[i] < 'A' || s[i] > 'Z') return false;
  return s.find_first_of("\r\n") == std::string_view::npos;
}

}  // namespace

TEST_CASE("every text is one error line with its code") {
  for (std::string_view s : {errors::kWrongType,
                             errors::kSyntax,
                             errors::kNoSuchKey,
                             errors::kNotInteger,
                             errors::kNotFloat,
                             errors::kOutOfRange,
                             errors::kNotPositive,
                             errors::kOverflow,
                             errors::kNanOrInf,
                             errors::kRandomCountRange,
                             errors::kDbIndexOutOfRange,
                             errors::kInvalidCursor,
                             errors::kNumkeysNotPositive,
                             errors::kNumkeysOverArgs,
                             errors::kCountNotPositive,
                             errors::kLimitNegative,
                             errors::kTimeoutNotFloat,
                             errors::kTimeoutNotInteger,
                             errors::kTimeoutNegative,
                             errors::kTimeoutOutOfRange,
                             errors::kWrongArgumentsPrefix,
                             errors::kInvalidExpirePrefix}) {
    CAPTURE(s);
    CHECK(IsErrorLine(s));
  }
}

TEST_CASE("Redis's wording") {
  CHECK(errors::kWrongType == "WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(errors::kSyntax == "ERR syntax error");
  CHECK(errors::kNotInteger == "ERR value is not an integer or out of range");
  static_assert(errors::kRandomCountRange.size() == 90);
}

TEST_CASE("the prefixes end where the command's name goes") {
  CHECK(errors::kWrongArgumentsPrefix.back() == '\'');
  CHECK(errors::kInvalidExpirePrefix.back() == '\'');
}
