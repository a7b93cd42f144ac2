// Command tests of the counters (INCR family, INCRBYFLOAT) and the substring commands (APPEND,
// STRLEN, GETRANGE, SUBSTR, SETRANGE, LCS) through the fake host. The scripted expectations
// were recorded from Redis 7.0 running the same commands (a list stood where MKOTHER stores a
// non-string value); the rest checks TTLs, propagation and the proto-max-bulk-len limits.
#include <doctest/doctest.h>

#include <string>

#include "commands_fixture.h"

using namespace std::string_literals;
using plinth::fakehost::FakeHost;
using plinth::strings::test::Fixture;

namespace {
constexpr int64_t kNow = FakeHost::kDefaultTimeMs;
}  // namespace

TEST_CASE("strings commands: INCR, DECR, INCRBY and DECRBY with Redis's errors") {
  Fixture f;
  CHECK(f.Run({"incr", "n"}) == "(integer) 1");
  CHECK(f.Run({"incr", "n"}) == "(integer) 2");
  CHECK(f.Run({"decr", "n"}) == "(integer) 1");
  CHECK(f.Run({"incrby", "n", "10"}) == "(integer) 11");
  CHECK(f.Run({"decrby", "n", "4"}) == "(integer) 7");
  CHECK(f.Run({"incrby", "n", "-20"}) == "(integer) -13");
  CHECK(f.Run({"decrby", "n", "-3"}) == "(integer) -10");
  CHECK(f.Run({"incrby", "n", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"incrby", "n", "1.5"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"incrby", "n", " 1"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"incrby", "n", "+1"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"decrby", "n", "9223372036854775808"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "m", "9223372036854775806"}) == "OK");
  CHECK(f.Run({"incr", "m"}) == "(integer) 9223372036854775807");
  CHECK(f.Run({"incr", "m"}) == "(error) ERR increment or decrement would overflow");
  CHECK(f.Run({"get", "m"}) == "\"9223372036854775807\"");
  CHECK(f.Run({"set", "m", "-9223372036854775807"}) == "OK");
  CHECK(f.Run({"decr", "m"}) == "(integer) -9223372036854775808");
  CHECK(f.Run({"decr", "m"}) == "(error) ERR increment or decrement would overflow");
  CHECK(f.Run({"decrby", "m", "-9223372036854775808"}) == "(error) ERR decrement would overflow");
  CHECK(f.Run({"decrby", "x", "-9223372036854775808"}) == "(error) ERR decrement would overflow");
  CHECK(f.Run({"incrby", "x", "-9223372036854775808"}) == "(integer) -9223372036854775808");
  CHECK(f.Run({"set", "s", "abc"}) == "OK");
  CHECK(f.Run({"incr", "s"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "s", "01"}) == "OK");
  CHECK(f.Run({"incr", "s"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "s", "1 "}) == "OK");
  CHECK(f.Run({"incr", "s"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "s", ""}) == "OK");
  CHECK(f.Run({"incr", "s"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "s", "-0"}) == "OK");
  CHECK(f.Run({"decr", "s"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"set", "s", "12345678901234567890"}) == "OK");
  CHECK(f.Run({"incr", "s"}) == "(error) ERR value is not an integer or out of range");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"incr", "l"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"incrby", "l", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"decrby", "l", "1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
}

TEST_CASE("strings commands: INCRBYFLOAT formats and refuses like Redis") {
  Fixture f;
  CHECK(f.Run({"incrbyfloat", "f", "1.1"}) == "\"1.1\"");
  CHECK(f.Run({"incrbyfloat", "f", "2.2"}) == "\"3.3\"");
  CHECK(f.Run({"incrbyfloat", "f", "-3.3"}) == "\"0\"");
  CHECK(f.Run({"set", "f", "1500"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "f", "0.1"}) == "\"1500.09999999999999998\"");
  CHECK(f.Run({"set", "f", "5.0e3"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "f", "2.0e2"}) == "\"5200\"");
  CHECK(f.Run({"incrbyfloat", "f", "inf"}) ==
        "(error) ERR increment would produce NaN or Infinity");
  CHECK(f.Run({"incrbyfloat", "f", "nan"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"incrbyfloat", "f", "x"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"incrbyfloat", "f", " 1"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"incrbyfloat", "f", "1 "}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"incrbyfloat", "f", ""}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"incrbyfloat", "f", "0x10"}) == "\"5216\"");
  CHECK(f.Run({"set", "f", "abc"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "f", "1"}) == "(error) ERR value is not a valid float");
  CHECK(f.Run({"set", "f", "1e308"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "f", "1e308"}) ==
        "\"1999999999999999999933717593116912913211201996948311344155940959898434697376761237442002"
        "538437770786408934944501080264463042694991879211671948416288603928375359182000392063815573"
        "262192090142133358783067915778778291210871261225367298032372604341731785068897632475826017"
        "11514636284849020905456510092687857156096\"");
  CHECK(f.Run({"get", "f"}) ==
        "\"1999999999999999999933717593116912913211201996948311344155940959898434697376761237442002"
        "538437770786408934944501080264463042694991879211671948416288603928375359182000392063815573"
        "262192090142133358783067915778778291210871261225367298032372604341731785068897632475826017"
        "11514636284849020905456510092687857156096\"");
  CHECK(f.Run({"set", "f", "-1"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "f", "1"}) == "\"0\"");
  CHECK(f.Run({"incrbyfloat", "f", "-0.0"}) == "\"0\"");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"incrbyfloat", "l", "x"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
}

TEST_CASE("strings commands: APPEND, STRLEN, GETRANGE and SUBSTR") {
  Fixture f;
  CHECK(f.Run({"append", "k", "Hello"}) == "(integer) 5");
  CHECK(f.Run({"append", "k", " World"}) == "(integer) 11");
  CHECK(f.Run({"get", "k"}) == "\"Hello World\"");
  CHECK(f.Run({"strlen", "k"}) == "(integer) 11");
  CHECK(f.Run({"strlen", "missing"}) == "(integer) 0");
  CHECK(f.Run({"append", "e", ""}) == "(integer) 0");
  CHECK(f.Run({"get", "e"}) == "\"\"");
  CHECK(f.Run({"strlen", "e"}) == "(integer) 0");
  CHECK(f.Run({"getrange", "k", "0", "4"}) == "\"Hello\"");
  CHECK(f.Run({"getrange", "k", "-5", "-1"}) == "\"World\"");
  CHECK(f.Run({"getrange", "k", "-1", "-5"}) == "\"\"");
  CHECK(f.Run({"getrange", "k", "5", "100"}) == "\" World\"");
  CHECK(f.Run({"getrange", "k", "-100", "-50"}) == "\"H\"");
  CHECK(f.Run({"getrange", "k", "x", "1"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"getrange", "k", "0", "1.5"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"getrange", "missing", "0", "-1"}) == "\"\"");
  CHECK(f.Run({"substr", "k", "0", "0"}) == "\"H\"");
  CHECK(f.Run({"substr", "k", "6", "-1"}) == "\"World\"");
  CHECK(f.Run({"set", "n", "12345"}) == "OK");
  CHECK(f.Run({"getrange", "n", "1", "2"}) == "\"23\"");
  CHECK(f.Run({"append", "n", "6"}) == "(integer) 6");
  CHECK(f.Run({"incr", "n"}) == "(integer) 123457");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"append", "l", "x"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"strlen", "l"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"getrange", "l", "0", "1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"getrange", "l", "x", "1"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"substr", "l", "0", "1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
}

TEST_CASE("strings commands: SETRANGE pads with zero bytes and checks offsets") {
  Fixture f;
  CHECK(f.Run({"setrange", "k", "6", "Redis"}) == "(integer) 11");
  CHECK(f.Run({"get", "k"}) == "\"\\x00\\x00\\x00\\x00\\x00\\x00Redis\"");
  CHECK(f.Run({"set", "k", "Hello World"}) == "OK");
  CHECK(f.Run({"setrange", "k", "6", "Redis"}) == "(integer) 11");
  CHECK(f.Run({"get", "k"}) == "\"Hello Redis\"");
  CHECK(f.Run({"setrange", "k", "-1", "x"}) == "(error) ERR offset is out of range");
  CHECK(f.Run({"setrange", "k", "x", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"setrange", "k", "1.0", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"setrange", "k", "0", ""}) == "(integer) 11");
  CHECK(f.Run({"setrange", "missing", "5", ""}) == "(integer) 0");
  CHECK(f.Run({"get", "missing"}) == "(nil)");
  CHECK(f.Run({"setrange", "missing", "536870912", ""}) == "(integer) 0");
  CHECK(f.Run({"setrange", "missing", "536870912", "x"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"setrange", "k", "536870911", "xy"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"setrange", "k", "9223372036854775807", "x"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"setrange", "k", "9223372036854775808", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"setrange", "k", "0", "J"}) == "(integer) 11");
  CHECK(f.Run({"get", "k"}) == "\"Jello Redis\"");
  CHECK(f.Run({"setrange", "k", "11", "!"}) == "(integer) 12");
  CHECK(f.Run({"get", "k"}) == "\"Jello Redis!\"");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"setrange", "l", "0", "x"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"setrange", "l", "-1", "x"}) == "(error) ERR offset is out of range");
  CHECK(f.Run({"setrange", "l", "0", ""}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
}

TEST_CASE("strings commands: LCS answers text, LEN and IDX like Redis") {
  Fixture f;
  CHECK(f.Run({"mset", "a", "ohmytext", "b", "mynewtext"}) == "OK");
  CHECK(f.Run({"lcs", "a", "b"}) == "\"mytext\"");
  CHECK(f.Run({"lcs", "a", "b", "LEN"}) == "(integer) 6");
  CHECK(f.Run({"lcs", "a", "b", "IDX"}) ==
        "1) \"matches\"\n2) 1) 1) 1) (integer) 4\n         2) (integer) 7\n      2) 1) (integer) "
        "5\n         2) (integer) 8\n   2) 1) 1) (integer) 2\n         2) (integer) 3\n      2) 1) "
        "(integer) 0\n         2) (integer) 1\n3) \"len\"\n4) (integer) 6");
  CHECK(f.Run({"lcs", "a", "b", "idx", "minmatchlen", "4"}) ==
        "1) \"matches\"\n2) 1) 1) 1) (integer) 4\n         2) (integer) 7\n      2) 1) (integer) "
        "5\n         2) (integer) 8\n3) \"len\"\n4) (integer) 6");
  CHECK(f.Run({"lcs", "a", "b", "IDX", "WITHMATCHLEN"}) ==
        "1) \"matches\"\n2) 1) 1) 1) (integer) 4\n         2) (integer) 7\n      2) 1) (integer) "
        "5\n         2) (integer) 8\n      3) (integer) 4\n   2) 1) 1) (integer) 2\n         2) "
        "(integer) 3\n      2) 1) (integer) 0\n         2) (integer) 1\n      3) (integer) 2\n3) "
        "\"len\"\n4) (integer) 6");
  CHECK(f.Run({"lcs", "a", "b", "IDX", "MINMATCHLEN", "-3", "WITHMATCHLEN"}) ==
        "1) \"matches\"\n2) 1) 1) 1) (integer) 4\n         2) (integer) 7\n      2) 1) (integer) "
        "5\n         2) (integer) 8\n      3) (integer) 4\n   2) 1) 1) (integer) 2\n         2) "
        "(integer) 3\n      2) 1) (integer) 0\n         2) (integer) 1\n      3) (integer) 2\n3) "
        "\"len\"\n4) (integer) 6");
  CHECK(f.Run({"lcs", "a", "missing"}) == "\"\"");
  CHECK(f.Run({"lcs", "missing", "b", "LEN"}) == "(integer) 0");
  CHECK(f.Run({"lcs", "a", "b", "LEN", "IDX"}) ==
        "(error) ERR If you want both the length and indexes, please just use IDX.");
  CHECK(f.Run({"lcs", "a", "b", "MINMATCHLEN"}) == "(error) ERR syntax error");
  CHECK(f.Run({"lcs", "a", "b", "MINMATCHLEN", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"lcs", "a", "b", "FOO"}) == "(error) ERR syntax error");
  REQUIRE(f.Run({"mkother", "l"}) == "OK");
  CHECK(f.Run({"lcs", "a", "l"}) == "(error) ERR The specified keys must contain string values");
  CHECK(f.Run({"lcs", "l", "missing", "FOO"}) ==
        "(error) ERR The specified keys must contain string values");
  CHECK(f.Run({"lcs", "a", "b", "LEN", "LEN", "WITHMATCHLEN"}) == "(integer) 6");
}

TEST_CASE("strings commands: counters and edits keep the key's TTL") {
  Fixture f;
  const int64_t when = kNow + 10000;
  CHECK(f.Run({"setex", "k", "10", "5"}) == "OK");
  CHECK(f.Run({"incr", "k"}) == "(integer) 6");
  CHECK(f.Run({"decrby", "k", "2"}) == "(integer) 4");
  CHECK(f.Run({"incrbyfloat", "k", "0.5"}) == "\"4.5\"");
  CHECK(f.Run({"append", "k", "0"}) == "(integer) 4");
  CHECK(f.Run({"setrange", "k", "0", "9"}) == "(integer) 4");
  CHECK(f.host.GetString("k") == "9.50");
  CHECK(f.host.ExpireAtMs("k") == when);
}

TEST_CASE("strings commands: INCRBYFLOAT propagates the result as SET KEEPTTL") {
  Fixture f;
  CHECK(f.Run({"set", "f", "10.5"}) == "OK");
  f.host.ClearPropagated();
  CHECK(f.Run({"incrbyfloat", "f", "0.1"}) == "\"10.6\"");
  CHECK(f.Propagated() == std::vector<std::string>{"set f 10.6 KEEPTTL"});
  CHECK(f.Run({"incrbyfloat", "f", "x"}) == "(error) ERR value is not a valid float");
  CHECK(f.Propagated().empty());
}

TEST_CASE("strings commands: integer counters propagate verbatim, failures not at all") {
  Fixture f;
  CHECK(f.Run({"incrby", "n", "5"}) == "(integer) 5");
  CHECK(f.Propagated() == std::vector<std::string>{"incrby n 5"});
  CHECK(f.Run({"set", "m", "9223372036854775807"}) == "OK");
  f.host.ClearPropagated();
  CHECK(f.Run({"incr", "m"}) == "(error) ERR increment or decrement would overflow");
  CHECK(f.Run({"setrange", "m", "3", ""}) == "(integer) 19");
  CHECK(f.Run({"setrange", "nokey", "3", ""}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  // An empty APPEND to an existing key is a write in Redis (the value becomes raw).
  CHECK(f.Run({"append", "m", ""}) == "(integer) 19");
  CHECK(f.Propagated() == std::vector<std::string>{"append m "});
}

TEST_CASE("strings commands: APPEND and SETRANGE refuse results over proto-max-bulk-len") {
  Fixture f;
  REQUIRE(f.host.SetOption("proto-max-bulk-len", "100"));
  CHECK(f.Run({"setrange", "k", "94", "123456"}) == "(integer) 100");
  CHECK(f.Run({"setrange", "k", "95", "123456"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"append", "k", "x"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"setrange", "new", "100", "x"}) ==
        "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  CHECK(f.Run({"strlen", "k"}) == "(integer) 100");
  CHECK(f.Run({"getrange", "k", "93", "-1"}) == "\"\\x00123456\"");
}

TEST_CASE("strings commands: a proto-max-bulk-len past what a string can hold still refuses") {
  Fixture f;
  // The host keeps string lengths in 32 bits: the limit commands check stops at 2^32 - 2.
  REQUIRE(f.host.SetOption("proto-max-bulk-len", "9223372036854775807"));
  const std::string kTooBig =
      "(error) ERR string exceeds maximum allowed size (proto-max-bulk-len)";
  CHECK(f.Run({"setrange", "k", "1099511627776", "x"}) == kTooBig);
  CHECK(f.Run({"setrange", "k", "9223372036854775806", "x"}) == kTooBig);
  CHECK(f.Run({"setrange", "k", "9223372036854775807", "xy"}) == kTooBig);
  CHECK(f.Run({"setrange", "k", "-9223372036854775808", "x"}) ==
        "(error) ERR offset is out of range");
  const std::string kBadOffset = "(error) ERR bit offset is not an integer or out of range";
  CHECK(f.Run({"setbit", "k", "9223372036854775807", "1"}) == kBadOffset);
  CHECK(f.Run({"setbit", "k", "1099511627776", "1"}) == kBadOffset);
  CHECK(f.Run({"getbit", "k", "9223372036854775807"}) == kBadOffset);
  CHECK(f.host.GetString("k") == std::nullopt);
  CHECK(f.Run({"setrange", "k", "0", "x"}) == "(integer) 1");
}

TEST_CASE("strings commands: LCS refuses a table larger than proto-max-bulk-len") {
  Fixture f;
  REQUIRE(f.host.SetOption("proto-max-bulk-len", "144"));  // (5+1) * (5+1) cells of 4 bytes
  CHECK(f.Run({"mset", "a", "abcde", "b", "abcdf", "c", "abcdef"}) == "OK");
  CHECK(f.Run({"lcs", "a", "b"}) == "\"abcd\"");
  CHECK(f.Run({"lcs", "a", "c", "LEN"}) ==
        "(error) ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
}

TEST_CASE("strings commands: values from the counters read back as plain strings") {
  Fixture f;
  CHECK(f.Run({"incrby", "n", "-12"}) == "(integer) -12");
  CHECK(f.host.GetString("n") == "-12");
  CHECK(f.Run({"incrbyfloat", "x", "3.0e3"}) == "\"3000\"");
  CHECK(f.host.GetString("x") == "3000");
  CHECK(f.Run({"incr", "x"}) == "(integer) 3001");
}
