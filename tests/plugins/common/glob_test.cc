// Redis glob semantics of plinth::common::GlobMatch (the expected values were checked against
// Redis 7.0's KEYS on the same subjects).
#include "glob.h"

#include <doctest/doctest.h>

#include <string>

using plinth::common::GlobMatch;

TEST_CASE("glob: literals match only themselves") {
  CHECK(GlobMatch("foo", "foo"));
  CHECK_FALSE(GlobMatch("foo", "fo"));
  CHECK_FALSE(GlobMatch("foo", "fooo"));
  CHECK_FALSE(GlobMatch("foo", "Foo"));
  CHECK(GlobMatch("", ""));
  CHECK_FALSE(GlobMatch("", "a"));
}

TEST_CASE("glob: star matches any run, including an empty one") {
  CHECK(GlobMatch("*", "anything"));
  CHECK(GlobMatch("h*llo", "hllo"));
  CHECK(GlobMatch("h*llo", "heeeello"));
  CHECK(GlobMatch("*o", "hello"));
  CHECK(GlobMatch("he*", "he"));
  CHECK(GlobMatch("a**b", "ab"));
  CHECK(GlobMatch("*a*b*c*", "xxaxxbxxcxx"));
  CHECK_FALSE(GlobMatch("*a*b*c*", "xxcxxbxxaxx"));
  CHECK_FALSE(GlobMatch("h*llo", "hella"));
}

TEST_CASE("glob: an empty subject only matches an empty pattern, as in Redis") {
  CHECK_FALSE(GlobMatch("*", ""));
  CHECK_FALSE(GlobMatch("**", ""));
  CHECK_FALSE(GlobMatch("?", ""));
}

TEST_CASE("glob: question mark matches exactly one byte") {
  CHECK(GlobMatch("h?llo", "hello"));
  CHECK(GlobMatch("h?llo", "hallo"));
  CHECK_FALSE(GlobMatch("h?llo", "hllo"));
  CHECK_FALSE(GlobMatch("h?llo", "heello"));
  CHECK(GlobMatch("??", "\x01\xff"));
}

TEST_CASE("glob: sets, negated sets and ranges") {
  CHECK(GlobMatch("h[ae]llo", "hello"));
  CHECK(GlobMatch("h[ae]llo", "hallo"));
  CHECK_FALSE(GlobMatch("h[ae]llo", "hillo"));
  CHECK(GlobMatch("h[^e]llo", "hallo"));
  CHECK_FALSE(GlobMatch("h[^e]llo", "hello"));
  CHECK(GlobMatch("h[a-b]llo", "hbllo"));
  CHECK_FALSE(GlobMatch("h[a-b]llo", "hcllo"));
  CHECK(GlobMatch("[z-a]", "m"));  // reversed ends are swapped
  CHECK(GlobMatch("[0-9][0-9]", "42"));
  CHECK_FALSE(GlobMatch("[^0-9]", "5"));
}

TEST_CASE("glob: an unclosed set runs to the end of the pattern") {
  CHECK(GlobMatch("a[bc", "ab"));
  CHECK(GlobMatch("a[bc", "ac"));
  CHECK_FALSE(GlobMatch("a[bc", "ad"));
  CHECK_FALSE(GlobMatch("a[", "a"));
}

TEST_CASE("glob: a range whose end is the closing bracket takes it literally") {
  // "[a-]" is the range a..']' in Redis, and the set stays unclosed.
  CHECK(GlobMatch("[a-]", "a"));
  CHECK(GlobMatch("[a-]", "]"));
  CHECK_FALSE(GlobMatch("[a-]", "b"));
}

TEST_CASE("glob: backslash escapes outside and inside sets") {
  CHECK(GlobMatch("h\\*llo", "h*llo"));
  CHECK_FALSE(GlobMatch("h\\*llo", "hello"));
  CHECK(GlobMatch("\\?", "?"));
  CHECK_FALSE(GlobMatch("\\?", "a"));
  CHECK(GlobMatch("[\\]]", "]"));
  CHECK(GlobMatch("[\\^a]", "^"));
  CHECK(GlobMatch("a\\", "a\\"));       // trailing backslash is literal
  CHECK_FALSE(GlobMatch("[]a]", "a"));  // "[]" is an empty set: it never matches
  CHECK(GlobMatch("[^]a]", "xa]"));     // and negated, it matches any byte
}

TEST_CASE("glob: nocase folds letters in literals and ranges") {
  CHECK(GlobMatch("HeLLo", "hello", true));
  CHECK(GlobMatch("h[A-C]llo", "hbllo", true));
  CHECK(GlobMatch("h[b]llo", "HBLLO", true));
  CHECK_FALSE(GlobMatch("HeLLo", "hello", false));
}

TEST_CASE("glob: binary subjects with NUL bytes match") {
  std::string subject("a\0b", 3);
  CHECK(GlobMatch("a?b", subject));
  CHECK(GlobMatch(std::string_view("a\0*", 3), subject));
}

TEST_CASE("glob: hostile patterns finish quickly") {
  std::string subject(20000, 'a');
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "*a";
  pattern += "b";
  CHECK_FALSE(GlobMatch(pattern, subject));
  CHECK(GlobMatch("*a*a*a*a*a*a*a*a", subject));
}
