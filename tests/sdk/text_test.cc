// Tests of <plinth/text.hpp>: ASCII case, Redis-strict and lenient integers, memory sizes and
// glob matching. Compiled as C++17, like any out-of-tree plugin. The glob expectations were
// checked against Redis 7.0's KEYS on the same subjects.
#include <doctest/doctest.h>

#include <cstdint>
#include <plinth/text.hpp>
#include <string>
#include <string_view>

using plinth::text::EqualsNoCase;
using plinth::text::GlobMatch;
using plinth::text::MemoryUnit;
using plinth::text::ParseInt32;
using plinth::text::ParseInt64;
using plinth::text::ParseInt64Lenient;
using plinth::text::ParseMemory;
using plinth::text::ParseMemoryLenient;
using plinth::text::ToLower;
using plinth::text::ToUpper;

namespace {

constexpr int64_t kUntouched = 12345;

template <typename Parse>
bool Accepts(Parse parse, std::string_view s, int64_t want) {
  int64_t v = kUntouched;
  return parse(s, &v) && v == want;
}

// Refused, and the output left as it was.
template <typename Parse>
bool Refuses(Parse parse, std::string_view s) {
  int64_t v = kUntouched;
  return !parse(s, &v) && v == kUntouched;
}

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
constexpr int64_t kGiB = 1024 * kMiB;

}  // namespace

// ---- ASCII case ----

TEST_CASE("text case: only ASCII letters change") {
  CHECK(ToLower('A') == 'a');
  CHECK(ToLower('z') == 'z');
  CHECK(ToUpper('a') == 'A');
  CHECK(ToUpper('Z') == 'Z');
  for (char c : {'@', '[', '`', '{', '0', '\0', '\xc4', '\xe4', '\xff'}) {
    CAPTURE(static_cast<int>(c));
    CHECK(ToLower(c) == c);
    CHECK(ToUpper(c) == c);
  }
  CHECK(ToLower("HeLLo-World_42") == "hello-world_42");
  CHECK(ToUpper("client") == "CLIENT");
  CHECK(ToLower(std::string_view("A\0B", 3)) == std::string("a\0b", 3));
  CHECK(ToLower("") == "");
}

TEST_CASE("text case: EqualsNoCase folds ASCII letters and nothing else") {
  CHECK(EqualsNoCase("SET", "set"));
  CHECK(EqualsNoCase("KeepTTL", "KEEPttl"));
  CHECK(EqualsNoCase("", ""));
  CHECK_FALSE(EqualsNoCase("set", "sets"));
  CHECK_FALSE(EqualsNoCase("set", "se"));
  CHECK_FALSE(EqualsNoCase("@", "`"));  // 0x40 and 0x60 differ only in the case bit
  CHECK_FALSE(EqualsNoCase("[", "{"));
  CHECK_FALSE(EqualsNoCase("\xc4", "\xe4"));  // Latin-1 letters are not ASCII
  CHECK(EqualsNoCase(std::string_view("a\0b", 3), std::string_view("A\0B", 3)));
  CHECK_FALSE(EqualsNoCase(std::string_view("a\0b", 3), "a"));
}

// ---- Redis-strict integers (string2ll) ----

TEST_CASE("text ParseInt64: accepts canonical decimals up to the int64 extremes") {
  CHECK(Accepts(ParseInt64, "0", 0));
  CHECK(Accepts(ParseInt64, "7", 7));
  CHECK(Accepts(ParseInt64, "-7", -7));
  CHECK(Accepts(ParseInt64, "1234567890", 1234567890));
  CHECK(Accepts(ParseInt64, "9223372036854775807", INT64_MAX));
  CHECK(Accepts(ParseInt64, "-9223372036854775808", INT64_MIN));
  CHECK(Accepts(ParseInt64, "-9223372036854775807", INT64_MIN + 1));
  CHECK(ParseInt64("42", nullptr));
  CHECK_FALSE(ParseInt64("x", nullptr));
}

TEST_CASE("text ParseInt64: refuses what Redis's string2ll refuses") {
  for (std::string_view bad :
       {"",    "-",  "+",  "+1",  "-0",  "01",  "00",   "-01", " 1",  "1 ",   "\t1",
        "1\n", "1a", "a1", "1.0", "1.5", "1e3", "0x10", "abc", "--1", "\xb1", "1\xb1"}) {
    CAPTURE(bad);
    CHECK(Refuses(ParseInt64, bad));
  }
  CHECK(Refuses(ParseInt64, std::string_view("1\0", 2)));
  CHECK(Refuses(ParseInt64, std::string_view("\0"
                                             "1",
                                             2)));
}

TEST_CASE("text ParseInt64: refuses overflow and texts longer than 20 bytes") {
  CHECK(Refuses(ParseInt64, "9223372036854775808"));    // INT64_MAX + 1
  CHECK(Refuses(ParseInt64, "-9223372036854775809"));   // INT64_MIN - 1
  CHECK(Refuses(ParseInt64, "18446744073709551615"));   // UINT64_MAX
  CHECK(Refuses(ParseInt64, "18446744073709551616"));   // UINT64_MAX + 1
  CHECK(Refuses(ParseInt64, "99999999999999999999"));   // 20 digits, past uint64
  CHECK(Refuses(ParseInt64, "00000000000000000001"));   // 20 bytes, leading zeros
  CHECK(Refuses(ParseInt64, "-00000000000000000001"));  // 21 bytes: refused before the digits
  CHECK(Refuses(ParseInt64, "100000000000000000000"));
  CHECK(Refuses(ParseInt64, "123456789012345678901"));
  CHECK(Refuses(ParseInt64, std::string(100, '9')));
}

TEST_CASE("text ParseInt32: the strict syntax within the int32 range") {
  int32_t v = 7;
  CHECK(ParseInt32("2147483647", &v));
  CHECK(v == INT32_MAX);
  CHECK(ParseInt32("-2147483648", &v));
  CHECK(v == INT32_MIN);
  v = 7;
  CHECK_FALSE(ParseInt32("2147483648", &v));
  CHECK_FALSE(ParseInt32("-2147483649", &v));
  CHECK_FALSE(ParseInt32("9223372036854775807", &v));
  CHECK_FALSE(ParseInt32("+1", &v));
  CHECK_FALSE(ParseInt32("01", &v));
  CHECK_FALSE(ParseInt32("x", &v));
  CHECK(v == 7);
  CHECK(ParseInt32("5", nullptr));
}

// ---- Lenient integers (option values) ----

TEST_CASE("text ParseInt64Lenient: also takes a '+', leading zeros and -0") {
  CHECK(Accepts(ParseInt64Lenient, "0", 0));
  CHECK(Accepts(ParseInt64Lenient, "42", 42));
  CHECK(Accepts(ParseInt64Lenient, "+5", 5));
  CHECK(Accepts(ParseInt64Lenient, "007", 7));
  CHECK(Accepts(ParseInt64Lenient, "-007", -7));
  CHECK(Accepts(ParseInt64Lenient, "-0", 0));
  CHECK(Accepts(ParseInt64Lenient, "+0", 0));
  CHECK(Accepts(ParseInt64Lenient, "+9223372036854775807", INT64_MAX));  // 20 bytes
  CHECK(Accepts(ParseInt64Lenient, "-9223372036854775808", INT64_MIN));
  CHECK(Accepts(ParseInt64Lenient, "00000000000000000042", 42));  // 20 bytes
  CHECK(ParseInt64Lenient("1", nullptr));
}

TEST_CASE("text ParseInt64Lenient: still refuses spaces, junk, overflow and 21+ bytes") {
  for (std::string_view bad :
       {"", "+", "-", "+-1", "-+1", "++1", " 1", "1 ", "\t1", "1.5", "1e3", "0x10", "abc",
        "9223372036854775808", "-9223372036854775809", "99999999999999999999",
        "000000000000000000042", "+09223372036854775807"}) {
    CAPTURE(bad);
    CHECK(Refuses(ParseInt64Lenient, bad));
  }
  CHECK(Refuses(ParseInt64Lenient, std::string_view("1\0", 2)));
}

// ---- Memory sizes ----

TEST_CASE("text MemoryUnit: each redis.conf unit, in any case") {
  CHECK(MemoryUnit("") == 1);
  CHECK(MemoryUnit("b") == 1);
  CHECK(MemoryUnit("B") == 1);
  CHECK(MemoryUnit("k") == 1000);
  CHECK(MemoryUnit("K") == 1000);
  CHECK(MemoryUnit("kb") == kKiB);
  CHECK(MemoryUnit("kB") == kKiB);
  CHECK(MemoryUnit("KB") == kKiB);
  CHECK(MemoryUnit("m") == 1000 * 1000);
  CHECK(MemoryUnit("mb") == kMiB);
  CHECK(MemoryUnit("Mb") == kMiB);
  CHECK(MemoryUnit("g") == 1000 * 1000 * 1000);
  CHECK(MemoryUnit("gb") == kGiB);
  CHECK(MemoryUnit("GB") == kGiB);
  for (std::string_view bad : {"t", "tb", "kib", "KiB", " kb", "kb ", "bb", "bk", "mbb", "x"}) {
    CAPTURE(bad);
    CHECK(MemoryUnit(bad) == 0);
  }
}

TEST_CASE("text ParseMemory: digits and a unit, the way redis.conf writes sizes") {
  CHECK(Accepts(ParseMemory, "4096", 4096));
  CHECK(Accepts(ParseMemory, "10b", 10));
  CHECK(Accepts(ParseMemory, "2k", 2000));
  CHECK(Accepts(ParseMemory, "2kb", 2 * kKiB));
  CHECK(Accepts(ParseMemory, "1m", 1000000));
  CHECK(Accepts(ParseMemory, "512mb", 512 * kMiB));
  CHECK(Accepts(ParseMemory, "1g", 1000000000));
  CHECK(Accepts(ParseMemory, "1GB", kGiB));
  CHECK(Accepts(ParseMemory, "3Mb", 3 * kMiB));
  CHECK(Accepts(ParseMemory, "0", 0));
  CHECK(Accepts(ParseMemory, "0gb", 0));
  CHECK(Accepts(ParseMemory, "007kb", 7 * kKiB));
  CHECK(Accepts(ParseMemory, "9223372036854775807", INT64_MAX));
  CHECK(Accepts(ParseMemory, "8589934591gb", INT64_MAX - kGiB + 1));
  CHECK(Accepts(ParseMemory, std::string(30, '0') + "1kb", kKiB));  // no length limit
  CHECK(ParseMemory("1mb", nullptr));
}

TEST_CASE("text ParseMemory: refuses signs, spaces, unknown units and overflow") {
  for (std::string_view bad : {"", "mb", "b", "-1", "+1", "-1mb", " 1mb", "1 mb", "1mb ", "1.5mb",
                               "1tb", "1kib", "1bb", "1kbkb", "0x10", "9223372036854775808",
                               "99999999999gb", "8589934592gb", "9223372036854775807k"}) {
    CAPTURE(bad);
    CHECK(Refuses(ParseMemory, bad));
  }
  CHECK(Refuses(ParseMemory, std::string_view("1\0mb", 4)));
}

TEST_CASE("text ParseMemoryLenient: a lenient, possibly negative number and a unit") {
  CHECK(Accepts(ParseMemoryLenient, "4096", 4096));
  CHECK(Accepts(ParseMemoryLenient, "512mb", 512 * kMiB));
  CHECK(Accepts(ParseMemoryLenient, "2k", 2000));
  CHECK(Accepts(ParseMemoryLenient, "1G", 1000000000));
  CHECK(Accepts(ParseMemoryLenient, "10B", 10));
  CHECK(Accepts(ParseMemoryLenient, "+2kb", 2 * kKiB));
  CHECK(Accepts(ParseMemoryLenient, "007MB", 7 * kMiB));
  CHECK(Accepts(ParseMemoryLenient, "-1", -1));
  CHECK(Accepts(ParseMemoryLenient, "-1kb", -kKiB));
  CHECK(Accepts(ParseMemoryLenient, "-0gb", 0));
  CHECK(Accepts(ParseMemoryLenient, "8589934591gb", INT64_MAX - kGiB + 1));
  CHECK(Accepts(ParseMemoryLenient, "-8589934592gb", INT64_MIN));
  CHECK(ParseMemoryLenient("1mb", nullptr));
}

TEST_CASE("text ParseMemoryLenient: refuses what option values never accepted") {
  for (std::string_view bad :
       {"", "kb", "b", "+", "-kb", "+-1kb", "1-2kb", " 1kb", "1 kb", "1kb ", "1kbkb", "1tb",
        "1.5mb", "8589934592gb", "-8589934593gb", "9223372036854775808",
        "000000000000000000001kb"}) {  // the number part is limited to 20 bytes
    CAPTURE(bad);
    CHECK(Refuses(ParseMemoryLenient, bad));
  }
}

// ---- Glob ----

TEST_CASE("text glob: literals match only themselves") {
  CHECK(GlobMatch("foo", "foo"));
  CHECK_FALSE(GlobMatch("foo", "fo"));
  CHECK_FALSE(GlobMatch("foo", "fooo"));
  CHECK_FALSE(GlobMatch("foo", "Foo"));
  CHECK(GlobMatch("", ""));
  CHECK_FALSE(GlobMatch("", "a"));
}

TEST_CASE("text glob: star matches any run, including an empty one") {
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

TEST_CASE("text glob: an empty subject only matches an empty pattern, as in Redis") {
  CHECK_FALSE(GlobMatch("*", ""));
  CHECK_FALSE(GlobMatch("**", ""));
  CHECK_FALSE(GlobMatch("?", ""));
  CHECK_FALSE(GlobMatch("[^a]", ""));
}

TEST_CASE("text glob: question mark matches exactly one byte") {
  CHECK(GlobMatch("h?llo", "hello"));
  CHECK(GlobMatch("h?llo", "hallo"));
  CHECK_FALSE(GlobMatch("h?llo", "hllo"));
  CHECK_FALSE(GlobMatch("h?llo", "heello"));
  CHECK(GlobMatch("??", "\x01\xff"));
}

TEST_CASE("text glob: sets, negated sets and ranges") {
  CHECK(GlobMatch("h[ae]llo", "hello"));
  CHECK(GlobMatch("h[ae]llo", "hallo"));
  CHECK_FALSE(GlobMatch("h[ae]llo", "hillo"));
  CHECK(GlobMatch("h[^e]llo", "hallo"));
  CHECK_FALSE(GlobMatch("h[^e]llo", "hello"));
  CHECK(GlobMatch("h[a-b]llo", "hbllo"));
  CHECK_FALSE(GlobMatch("h[a-b]llo", "hcllo"));
  CHECK(GlobMatch("[0-9][0-9]", "42"));
  CHECK_FALSE(GlobMatch("[^0-9]", "5"));
  CHECK(GlobMatch("[a-cx-z]", "y"));
  CHECK_FALSE(GlobMatch("[a-cx-z]", "m"));
}

TEST_CASE("text glob: a reversed range is swapped, before case is folded as in Redis") {
  CHECK(GlobMatch("[z-a]", "m"));
  CHECK(GlobMatch("[9-0]", "0"));
  CHECK_FALSE(GlobMatch("[z-a]", "A"));
  // [Z-a] is 0x5a..0x61; with nocase its ends fold to 'z'..'a', a range that holds nothing.
  CHECK(GlobMatch("[Z-a]", "_"));
  CHECK_FALSE(GlobMatch("[Z-a]", "_", true));
  CHECK_FALSE(GlobMatch("[Z-a]", "m", true));
}

TEST_CASE("text glob: an unclosed set runs to the end of the pattern") {
  CHECK(GlobMatch("a[bc", "ab"));
  CHECK(GlobMatch("a[bc", "ac"));
  CHECK_FALSE(GlobMatch("a[bc", "ad"));
  CHECK_FALSE(GlobMatch("a[", "a"));
  CHECK_FALSE(GlobMatch("[", "["));
  CHECK(GlobMatch("[^", "x"));  // an empty negated set matches any one byte
  CHECK_FALSE(GlobMatch("[^", "xy"));
  CHECK(GlobMatch("[a-", "-"));  // too short for a range: 'a' and '-' are members
  CHECK(GlobMatch("[a-", "a"));
  CHECK_FALSE(GlobMatch("[a-", "b"));
  CHECK(GlobMatch("[\\", "\\"));  // a backslash with nothing after it is a member
}

TEST_CASE("text glob: a range whose end is the closing bracket takes it literally") {
  // "[a-]" is the range a..']' in Redis, and the set stays unclosed.
  CHECK(GlobMatch("[a-]", "a"));
  CHECK(GlobMatch("[a-]", "]"));
  CHECK_FALSE(GlobMatch("[a-]", "b"));
}

TEST_CASE("text glob: backslash escapes outside and inside sets") {
  CHECK(GlobMatch("h\\*llo", "h*llo"));
  CHECK_FALSE(GlobMatch("h\\*llo", "hello"));
  CHECK(GlobMatch("\\?", "?"));
  CHECK_FALSE(GlobMatch("\\?", "a"));
  CHECK(GlobMatch("\\[a]", "[a]"));
  CHECK(GlobMatch("\\\\", "\\"));
  CHECK(GlobMatch("[\\]]", "]"));
  CHECK(GlobMatch("[\\^a]", "^"));
  CHECK(GlobMatch("[a\\-z]", "-"));  // an escaped '-' is no range
  CHECK_FALSE(GlobMatch("[a\\-z]", "m"));
  CHECK(GlobMatch("a\\", "a\\"));       // trailing backslash is literal
  CHECK_FALSE(GlobMatch("[]a]", "a"));  // "[]" is an empty set: it never matches
  CHECK(GlobMatch("[^]a]", "xa]"));     // and negated, it matches any byte
}

TEST_CASE("text glob: nocase folds letters in literals and ranges, not escapes in sets") {
  CHECK(GlobMatch("HeLLo", "hello", true));
  CHECK(GlobMatch("h[A-C]llo", "hbllo", true));
  CHECK(GlobMatch("h[b]llo", "HBLLO", true));
  CHECK(GlobMatch("\\H", "h", true));
  CHECK_FALSE(GlobMatch("[\\H]", "h", true));
  CHECK_FALSE(GlobMatch("HeLLo", "hello", false));
}

TEST_CASE("text glob: binary subjects with NUL bytes match") {
  std::string subject("a\0b", 3);
  CHECK(GlobMatch("a?b", subject));
  CHECK(GlobMatch(std::string_view("a\0*", 3), subject));
  CHECK_FALSE(GlobMatch("a", subject));
}

TEST_CASE("text glob: hostile patterns finish quickly") {
  std::string subject(20000, 'a');
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "*a";
  pattern += "b";
  CHECK_FALSE(GlobMatch(pattern, subject));
  CHECK(GlobMatch("*a*a*a*a*a*a*a*a", subject));
}

TEST_CASE("text: QuoteRepr quotes bytes the way redis-cli prints them") {
  using plinth::text::QuoteRepr;
  CHECK(QuoteRepr("abc") == "\"abc\"");
  CHECK(QuoteRepr("") == "\"\"");
  CHECK(QuoteRepr("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(QuoteRepr("\n\r\t\a\b") == "\"\\n\\r\\t\\a\\b\"");
  CHECK(QuoteRepr(std::string_view("\x00\x7f\xff", 3)) == "\"\\x00\\x7f\\xff\"");
}

TEST_CASE("text: SecretEquals is byte equality, lengths included") {
  using plinth::text::SecretEquals;
  CHECK(SecretEquals("", ""));
  CHECK(SecretEquals("s3cret", "s3cret"));
  CHECK(SecretEquals(std::string_view("a\0b", 3), std::string_view("a\0b", 3)));
  CHECK_FALSE(SecretEquals("s3cret", "s3creT"));
  CHECK_FALSE(SecretEquals("s3cret", "x3cret"));
  CHECK_FALSE(SecretEquals("s3cret", "s3cre"));  // a prefix
  CHECK_FALSE(SecretEquals("s3cre", "s3cret"));  // longer
  CHECK_FALSE(SecretEquals("", "x"));
  CHECK_FALSE(SecretEquals(std::string_view("ab\0", 3), "ab"));  // trailing NUL counts
  CHECK_FALSE(SecretEquals("AB", "ab"));                         // case counts
}
