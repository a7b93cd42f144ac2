// plinth::resp::Parser against ROBUSTNESS.md items 1-10 and the resume contract.
#include "resp/parser.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "parse_driver.h"

namespace plinth::resp::test {
namespace {

using S = ParseStatus;

Event Err(const std::string& text) { return Event{S::kError, {}, text, 0}; }
Event Ok(std::vector<std::string> args, size_t consumed) {
  return Event{S::kOk, std::move(args), {}, consumed};
}
Event Empty(size_t consumed) { return Event{S::kEmpty, {}, {}, consumed}; }
Event More() { return Event{S::kNeedMore, {}, {}, 0}; }

const std::string kPing = "*1\r\n$4\r\nPING\r\n";

// Asserts the stream gives the same events whole, byte by byte and split at every offset.
std::vector<Event> ParseEverySplit(const std::string& stream, const ParseLimits& limits = {}) {
  const std::vector<Event> whole = ParseWhole(stream, limits);
  CHECK(ParseByteByByte(stream, limits) == whole);
  for (size_t cut = 1; cut < stream.size(); cut++) {
    INFO("cut at " << cut);
    CHECK(ParseInPieces(stream, {cut}, true, limits) == whole);
  }
  return whole;
}

TEST_CASE("resp parser: skips empty lines, *0 and *-1 and goes on with the pipeline (item 1)") {
  const std::string stream = "\r\n\n   \r\n*0\r\n*-1\r\n*-10\r\n" + kPing;
  const std::vector<Event> expect = {
      Empty(2), Empty(1), Empty(5), Empty(4), Empty(5), Empty(6), Ok({"PING"}, kPing.size())};
  CHECK(ParseEverySplit(stream) == expect);
}

TEST_CASE("resp parser: refuses bad multibulk counts (item 2)") {
  for (const char* bad : {"*3000000000\r\n", "*99999999999999999999\r\n", "*abc\r\n", "*3x\r\n",
                          "*\r\n", "*01\r\n", "*+1\r\n", "*-0\r\n", "*1 \r\n", "*2147483648\r\n"}) {
    INFO(bad);
    CHECK(ParseEverySplit(bad) ==
          std::vector<Event>{Err("Protocol error: invalid multibulk length")});
  }
}

TEST_CASE("resp parser: a huge valid multibulk count preallocates nothing (item 2)") {
  Parser p;
  const std::string head = "*2147483647\r\n$1\r\na\r\n";
  const ParseResult r = p.Parse(head.data(), head.size(), {});
  CHECK(r.status == S::kNeedMore);
  CHECK(p.ArgCapacityForTest() <= 1024);
}

TEST_CASE("resp parser: an element that does not start with $ is refused (item 3)") {
  CHECK(ParseEverySplit("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n") ==
        std::vector<Event>{Err("Protocol error: expected '$', got 'f'")});
  CHECK(ParseOne("*1\r\n:1\r\n").error == "Protocol error: expected '$', got ':'");
  // CR, LF and NUL are shown as a space, like Redis's error sanitizer does.
  CHECK(ParseOne("*1\r\n\r\n").error == "Protocol error: expected '$', got ' '");
  CHECK(ParseOne("*1\r\n\n").error == "Protocol error: expected '$', got ' '");
  CHECK(ParseOne(std::string("*1\r\n\0", 5)).error == "Protocol error: expected '$', got ' '");
  CHECK(ParseOne("*1\r\n\x01").error == "Protocol error: expected '$', got '\x01'");
}

TEST_CASE("resp parser: refuses bad bulk lengths (item 4)") {
  for (const char* bad : {"$-10\r\n", "$-1\r\n", "$abc\r\n", "$\r\n", "$01\r\n", "$+3\r\n",
                          "$3 \r\n", "$99999999999999999999\r\n"}) {
    INFO(bad);
    CHECK(ParseEverySplit(std::string("*2\r\n$3\r\nGET\r\n") + bad) ==
          std::vector<Event>{Err("Protocol error: invalid bulk length")});
  }
}

TEST_CASE(
    "resp parser: accepts a bulk of exactly proto-max-bulk-len and refuses one more (item 4)") {
  ParseLimits limits;
  limits.max_bulk_len = 1024 * 1024;
  const std::string value(1024 * 1024, 'v');
  const std::string ok = Multibulk({"SET", "k", value});
  CHECK(ParseWhole(ok, limits) == std::vector<Event>{Ok({"SET", "k", value}, ok.size())});
  const std::string big = Multibulk({"SET", "k", value + "v"});
  CHECK(ParseWhole(big, limits) == std::vector<Event>{Err("Protocol error: invalid bulk length")});
  // The refusal comes from the length line alone: no payload has to arrive.
  CHECK(ParseOne("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048577\r\n", limits).error ==
        "Protocol error: invalid bulk length");
}

TEST_CASE(
    "resp parser: a bulk not followed by CRLF or a lone CR in a length line is refused (item 5)") {
  const std::string crlf = "Protocol error: invalid CRLF in request";
  const std::string set = "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n";
  CHECK(ParseEverySplit(set) == std::vector<Event>{Ok({"SET", "key", "value"}, set.size())});
  // The cases of Valkey's "Check CRLF when parsing the querybuf" test.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"*3x\n$3\r\nSET\r\n", "Protocol error: invalid multibulk length"},
      {"*3\rx$3\r\nSET\r\n", crlf},
      {"*3xx$3\r\nSET\r\n", "Protocol error: invalid multibulk length"},
      {"*3\r\n$3x\nSET\r\n$1\r\n", "Protocol error: invalid bulk length"},
      {"*3\r\n$3\rxSET\r\n", crlf},
      {"*3\r\n$3xxSET\r\n$1\r\n", "Protocol error: invalid bulk length"},
      {"*3\r\n$3\r\nSET\rx$3\r\n", crlf},
      {"*3\r\n$3\r\nSETx\n$3\r\n", crlf},
      {"*3\r\n$3\r\nSETxx$3\r\n", crlf},
      {"*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvaluex\n", crlf},
      {"*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\rx", crlf},
      {"*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvaluexx", crlf},
      {"*1\r\n$4\r\nPINGxx", crlf},
  };
  for (const auto& [stream, error] : cases) {
    INFO(stream);
    CHECK(ParseEverySplit(stream) == std::vector<Event>{Err(error)});
  }
}

TEST_CASE("resp parser: an empty bulk as the command name is a request, not an error (item 6)") {
  const std::string s = "*1\r\n$0\r\n\r\n" + kPing;
  CHECK(ParseEverySplit(s) == std::vector<Event>{Ok({""}, 10), Ok({"PING"}, kPing.size())});
}

TEST_CASE("resp parser: inline commands with quotes and escapes (item 7)") {
  const std::string s =
      "set \"a b\" 'c d'\r\nget \"\\x41\\x4a\\n\\t\\\\\\\"\"\nping 'it\\'s'\r\n  echo   x  \r\n";
  CHECK(ParseEverySplit(s) == std::vector<Event>{
                                  Ok({"set", "a b", "c d"}, 17),
                                  Ok({"get", "AJ\n\t\\\""}, 23),
                                  Ok({"ping", "it's"}, 14),
                                  Ok({"echo", "x"}, 14),
                              });
}

TEST_CASE("resp parser: unbalanced quotes in an inline command are refused (item 7)") {
  for (const char* bad : {"set foo \"bar\r\n", "set foo 'bar\r\n", "set foo 'b'a'r\r\n",
                          "set foo \"b\"a\"r\r\n", "ping \"a\"b\r\n", "ping \"a\\\"\r\n"}) {
    INFO(bad);
    CHECK(ParseEverySplit(bad) ==
          std::vector<Event>{Err("Protocol error: unbalanced quotes in request")});
  }
}

TEST_CASE("resp parser: an inline line over 64 KiB without a newline is refused (item 7)") {
  const std::string longest(kInlineMaxSize, 'a');
  CHECK(ParseWhole(longest + "\n") == std::vector<Event>{Ok({longest}, kInlineMaxSize + 1)});
  CHECK(ParseWhole(longest) == std::vector<Event>{More()});
  const std::vector<Event> refused = {Err("Protocol error: too big inline request")};
  CHECK(ParseWhole(longest + "a") == refused);
  CHECK(ParseInPieces(longest + "a", {1000, 65536}, true) == refused);
  // Refused even when the newline arrives in the same read: the outcome must not depend on
  // how the bytes were split.
  CHECK(ParseWhole(longest + "a\r\n") == refused);
}

TEST_CASE("resp parser: count lines over 64 KiB without CR are refused like Redis (item 7)") {
  const std::string digits(kInlineMaxSize + 1, '1');
  CHECK(ParseWhole("*" + digits) ==
        std::vector<Event>{Err("Protocol error: too big mbulk count string")});
  CHECK(ParseWhole("*1\r\n$" + digits) ==
        std::vector<Event>{Err("Protocol error: too big bulk count string")});
  CHECK(ParseWhole("*" + digits.substr(2)) == std::vector<Event>{More()});
}

TEST_CASE("resp parser: binary junk is a protocol error (item 8)") {
  // Valkey's desync regression: each sequence followed by 'A's must end in an error within
  // 64 KiB, never in a request or an endless wait.
  for (const std::string& seq : {std::string("\0", 1), std::string("*\0", 2), std::string("$\0", 2),
                                 std::string("*1\r\n$\0", 6)}) {
    const std::string stream = seq + std::string(kInlineMaxSize + 1024, 'A');
    const std::vector<Event> events = ParseWhole(stream);
    REQUIRE(events.size() == 1);
    CHECK(events[0].status == S::kError);
    CHECK(events[0].error.rfind("Protocol error: ", 0) == 0);
    CHECK(ParseInPieces(stream, {1, 2, 3, 100, 4096}, true) == events);
  }
  CHECK(ParseOne(std::string("\0", 1)).error == "Protocol error: NUL byte in inline request");
  CHECK(ParseOne(std::string("ping\0\r\n", 7)).error ==
        "Protocol error: NUL byte in inline request");
}

TEST_CASE("resp parser: RESP3 type bytes at request start are read as inline text (item 9)") {
  for (char type : {'%', '~', '|', '>', '_', '#', ','}) {
    const std::string s = std::string(1, type) + "1 x\r\n";
    CHECK(ParseEverySplit(s) ==
          std::vector<Event>{Ok({std::string(1, type) + "1", "x"}, s.size())});
  }
}

TEST_CASE("resp parser: results are identical whole, byte by byte and split anywhere (item 10)") {
  const std::string stream = "\r\n" + kPing + "SET k \"v\\x00\"\r\n" +
                             Multibulk({"SET", std::string("a\0\r\nb", 5), "\r\n"}) + "*0\r\n" +
                             Multibulk({"MSET", "a", "1", "b", "2"}) + "*2\r\n$3\r\nGET\r\n$-1\r\n";
  const std::vector<Event> events = ParseEverySplit(stream);
  REQUIRE(events.size() == 7);
  CHECK(events[2] == Ok({"SET", "k", std::string("v\0", 2)}, 15));
  CHECK(events[6] == Err("Protocol error: invalid bulk length"));
}

TEST_CASE("resp parser: an unauthenticated client gets the tight limits") {
  ParseLimits limits;
  limits.unauthenticated = true;
  const std::vector<std::string> ten(10, "x");
  CHECK(ParseWhole(Multibulk(ten), limits).front().status == S::kOk);
  CHECK(ParseOne("*11\r\n", limits).error == "Protocol error: unauthenticated multibulk length");
  CHECK(ParseOne("*3000000000\r\n", limits).error == "Protocol error: invalid multibulk length");
  CHECK(ParseWhole(Multibulk({"AUTH", std::string(16384, 'p')}), limits).front().status == S::kOk);
  CHECK(ParseOne("*2\r\n$4\r\nAUTH\r\n$16385\r\n", limits).error ==
        "Protocol error: unauthenticated bulk length");
  CHECK(ParseOne("*1\r\n$-1\r\n", limits).error == "Protocol error: invalid bulk length");
  // Without the flag the same requests pass the header checks.
  CHECK(ParseOne("*11\r\n").status == S::kNeedMore);
}

TEST_CASE("resp parser: need_hint is the total size of the request once a bulk length is known") {
  Parser p;
  const std::string head = "*2\r\n$3\r\nGET\r\n$100\r\nab";
  ParseResult r = p.Parse(head.data(), head.size(), {});
  CHECK(r.status == S::kNeedMore);
  CHECK(r.need_hint == 19 + 100 + 2);
  r = p.Parse(head.data(), 15, {});  // fewer bytes than before: the request restarts
  CHECK(r.status == S::kNeedMore);
  CHECK(r.need_hint == 0);
  r = p.Parse(head.data(), 10, {});
  CHECK(r.need_hint == 8 + 3 + 2);
}

TEST_CASE("resp parser: bulk lengths at the edge of 64 bits never wrap (issue 31 row 3)") {
  ParseLimits limits;
  limits.max_bulk_len = INT64_MAX;  // past the option's range (1pb): the parser holds anyway
  Parser p;
  const std::string head = "*1\r\n$9223372036854775807\r\n";
  const ParseResult r = p.Parse(head.data(), head.size(), limits);
  CHECK(r.status == S::kNeedMore);
  CHECK(r.need_hint == head.size() + size_t{INT64_MAX} + 2);  // exact: the host refuses it
  for (const char* bad : {"$9223372036854775808\r\n", "$18446744073709551615\r\n",
                          "$18446744073709551617\r\n", "$-9223372036854775808\r\n"}) {
    INFO(bad);
    CHECK(ParseOne(std::string("*1\r\n") + bad, limits).error ==
          "Protocol error: invalid bulk length");
  }
  limits.max_bulk_len = kMaxMaxBulkLen;
  CHECK(ParseOne("*1\r\n$1125899906842625\r\n", limits).error ==
        "Protocol error: invalid bulk length");
  CHECK(ParseOne("*9223372036854775807\r\n", limits).error ==
        "Protocol error: invalid multibulk length");
  limits.unauthenticated = true;
  CHECK(ParseOne("*1\r\n$1125899906842624\r\n", limits).error ==
        "Protocol error: unauthenticated bulk length");
}

TEST_CASE("resp parser: multibulk arguments point into the caller's buffer") {
  Parser p;
  const std::string s = Multibulk({"GET", "key"});
  REQUIRE(p.Parse(s.data(), s.size(), {}).status == S::kOk);
  CHECK(p.argv()[0] == s.data() + 8);
  CHECK(p.argv()[1] == s.data() + 17);
}

TEST_CASE(
    "resp parser: a 1 MiB value fed byte by byte and a 100k-argument MSET parse in one pass") {
  const std::string value(1024 * 1024, 'z');
  const std::string set = Multibulk({"SET", "k", value});
  CHECK(ParseByteByByte(set) == std::vector<Event>{Ok({"SET", "k", value}, set.size())});
  std::vector<std::string> mset = {"MSET"};
  for (int i = 0; i < 50000; i++) {
    mset.push_back("key:" + std::to_string(i));
    mset.push_back(std::to_string(i));
  }
  const std::string stream = Multibulk(mset);
  std::vector<size_t> cuts;
  for (size_t i = 7; i < stream.size(); i += 7) cuts.push_back(i);
  CHECK(ParseInPieces(stream, cuts, false) == std::vector<Event>{Ok(mset, stream.size())});
}

TEST_CASE("resp parser: requests the one-pass path leaves to the state machine parse the same") {
  // Whole requests take one pass; leading zeros, signs, long digit strings, many arguments,
  // truncation and the unauthenticated limits go to the state machine. Every one must give
  // what it gives byte by byte (which never takes the one-pass path).
  std::vector<std::string> args65(65, "a");
  const std::vector<std::string> streams = {
      "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n",
      "*02\r\n$3\r\nGET\r\n$1\r\nk\r\n",
      "*2\r\n$03\r\nGET\r\n$1\r\nk\r\n",
      "*+2\r\n$3\r\nGET\r\n$1\r\nk\r\n",
      "*2\r\n$+3\r\nGET\r\n$1\r\nk\r\n",
      "*2\r\n$3\r\nGET\r\n$0000000000000000001\r\nk\r\n",
      "*2\r\n$3\r\nGET\r\n$1234567890123456\r\nk\r\n",
      "*2\r\n$3\r\nGET\r\n$1\r\nkX\r\n",
      "*2\r\n$3\r\nGET\r\n$1\r\nk\r",
      "*2\r\n$3\r\nGET\r\n$1\r\nk",
      "*2\r\n$3\r\nGET\r\n",
      "*2\r\n$3\r\nGET\r\n$0\r\n\r\n",
      "*1\r\n$0\r\n\r\n*1\r\n$4\r\nPING\r\n",
      "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000\r\n" + std::string(2000, 'v') + "\r\n",
      Multibulk(args65),
      Multibulk(std::vector<std::string>(64, "b")),
  };
  ParseLimits unauth;
  unauth.unauthenticated = true;
  for (const std::string& s : streams) {
    CAPTURE(s.substr(0, 40));
    ParseEverySplit(s);  // whole (one pass) against byte by byte and every two-piece split
    ParseEverySplit(s, unauth);
  }
}

}  // namespace
}  // namespace plinth::resp::test
