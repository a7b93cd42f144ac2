// Tests of <plinth/command_form.hpp>: the encoder's exact bytes and size, round trips, a
// stream split at every byte, and the malformed or hostile headers the parser must refuse
// without allocating what they declare. Compiled as C++17, like any out-of-tree plugin.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <plinth/command_form.hpp>
#include <string>
#include <string_view>
#include <vector>

using plinth::form::AppendCommand;
using plinth::form::CommandParser;
using plinth::form::DecimalSize;
using plinth::form::Describe;
using plinth::form::Encode;
using plinth::form::EncodedSize;
using plinth::form::Fault;
using plinth::form::Limits;
using Status = CommandParser::Status;
using Argv = std::vector<std::string>;

namespace {

std::string Enc(const Argv& argv) {
  std::string out;
  AppendCommand(&out, argv);
  return out;
}

// Parses every command of data; stops at the first kNeedMore or kError and returns it.
Status ParseAll(CommandParser& parser, std::string_view data, std::vector<Argv>* out,
                size_t* used = nullptr) {
  std::vector<std::string_view> argv;
  size_t at = 0;
  Status s;
  while ((s = parser.Parse(data.substr(at), &argv)) == Status::kCommand) {
    out->emplace_back(argv.begin(), argv.end());
    at += parser.size();
  }
  if (used) *used = at;
  return s;
}

// The error the parser reports for data, which must hold no whole command before it.
plinth::form::Error ErrorOf(std::string_view data, Limits limits = Limits()) {
  CommandParser parser(limits);
  std::vector<std::string_view> argv;
  REQUIRE(parser.Parse(data, &argv) == Status::kError);
  return parser.error();
}

}  // namespace

TEST_CASE("command form: the encoder writes RESP bulk strings, exactly EncodedSize bytes") {
  CHECK(Enc({"SET", "k", "v"}) == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
  CHECK(Enc({""}) == "*1\r\n$0\r\n\r\n");
  const char* argv[3] = {"k", nullptr, "0123456789"};
  const size_t lens[3] = {1, 99, 10};  // a null argument is empty, whatever its length
  const std::string want = "*4\r\n$6\r\nSELECT\r\n$1\r\nk\r\n$0\r\n\r\n$10\r\n0123456789\r\n";
  CHECK(EncodedSize("SELECT", 6, 3, argv, lens) == want.size());
  std::string buf(want.size() + 1, '#');
  CHECK(Encode(&buf[0], "SELECT", 6, 3, argv, lens) == &buf[want.size()]);
  CHECK(buf == want + "#");
  std::string appended = "x";
  AppendCommand(&appended, nullptr, 0, 3, argv, lens);
  CHECK(appended == "x*3\r\n$1\r\nk\r\n$0\r\n\r\n$10\r\n0123456789\r\n");
  for (uint64_t n : {0ull, 9ull, 10ull, 99ull, 100ull, 9999ull, 10000ull, 123456789ull}) {
    CHECK(DecimalSize(n) == std::to_string(n).size());
  }
  CHECK(DecimalSize(std::numeric_limits<uint64_t>::max()) == 20);
}

TEST_CASE("command form: commands round-trip, binary and empty arguments included") {
  const std::vector<Argv> cmds = {
      {"SET", "key", std::string("a\0\r\n$*", 6)}, {""}, {"", "", ""}, {std::string(300, 'z')}};
  std::string data;
  for (const Argv& c : cmds) data += Enc(c);
  CommandParser parser;
  std::vector<Argv> got;
  size_t used = 0;
  CHECK(ParseAll(parser, data, &got, &used) == Status::kNeedMore);
  CHECK(got == cmds);
  CHECK(used == data.size());
}

TEST_CASE("command form: a stream split at every byte gives the same commands") {
  const std::vector<Argv> cmds = {{"SET", "k", "v\r\nxy"}, {"PING"}, {"DEL", "", "a"}};
  std::string data;
  for (const Argv& c : cmds) data += Enc(c);
  for (size_t cut = 0; cut <= data.size(); ++cut) {
    CAPTURE(cut);
    // A caller that keeps the bytes of the command in progress and feeds the rest later.
    CommandParser parser;
    std::vector<Argv> got;
    size_t used = 0;
    REQUIRE(ParseAll(parser, std::string_view(data).substr(0, cut), &got, &used) ==
            Status::kNeedMore);
    std::string rest = data.substr(used);  // moved: the parser keeps offsets, not pointers
    REQUIRE(ParseAll(parser, rest, &got) == Status::kNeedMore);
    CHECK(got == cmds);
  }
  // Byte by byte, the parser sees each prefix once.
  CommandParser parser;
  std::vector<Argv> got;
  std::vector<std::string_view> argv;
  size_t start = 0;
  for (size_t end = 1; end <= data.size(); ++end) {
    const std::string_view window = std::string_view(data).substr(start, end - start);
    const Status s = parser.Parse(window, &argv);
    REQUIRE(s != Status::kError);
    if (s == Status::kCommand) {
      CHECK(parser.size() == window.size());
      got.emplace_back(argv.begin(), argv.end());
      start = end;
    }
  }
  CHECK(got == cmds);
}

TEST_CASE("command form: an error is the same wherever the bytes were split") {
  const std::string bad = Enc({"PING"}) + "*2\r\n$2\r\nabX";
  CommandParser whole;
  std::vector<Argv> got;
  size_t used = 0;
  REQUIRE(ParseAll(whole, bad, &got, &used) == Status::kError);
  CHECK(used == 14);
  CHECK(whole.error().fault == Fault::kBadBulkEnd);
  CHECK(whole.error().offset == 10);
  for (size_t cut = 0; cut <= bad.size(); ++cut) {
    CAPTURE(cut);
    CommandParser parser;
    std::vector<Argv> split;
    size_t at = 0;
    const Status first = ParseAll(parser, std::string_view(bad).substr(0, cut), &split, &at);
    if (first == Status::kError) {
      CHECK(cut == bad.size());
    } else {
      REQUIRE(ParseAll(parser, std::string_view(bad).substr(at), &split) == Status::kError);
    }
    CHECK(split == got);
    CHECK(parser.error().offset == 10);
  }
  std::vector<std::string_view> argv;
  CHECK(whole.Parse("*1\r\n$1\r\nx\r\n", &argv) == Status::kError);  // sticky until Reset
  whole.Reset();
  CHECK(whole.Parse("*1\r\n$1\r\nx\r\n", &argv) == Status::kCommand);
}

TEST_CASE("command form: bad headers are errors at the first wrong byte") {
  struct Case {
    const char* data;
    Fault fault;
    size_t offset;
    bool in_count;
  } cases[] = {
      {"+OK\r\n", Fault::kExpectedArray, 0, true},
      {"\r\n", Fault::kExpectedArray, 0, true},
      {"*\r\n", Fault::kBadNumber, 1, true},
      {"*-1\r\n", Fault::kBadNumber, 1, true},
      {"*1x\r\n", Fault::kBadNumber, 2, true},
      {"*1\n", Fault::kBadNumber, 2, true},
      {"*1\r\r", Fault::kBadLineEnd, 3, true},
      {"*0\r\n", Fault::kEmptyCommand, 1, true},
      {"*000\r\n", Fault::kEmptyCommand, 1, true},
      {"*1\r\n:3\r\n", Fault::kExpectedBulk, 4, false},
      {"*1\r\n$-1\r\n", Fault::kBadNumber, 5, false},
      {"*1\r\n$ 1\r\n", Fault::kBadNumber, 5, false},
      {"*1\r\n$1\r\r", Fault::kBadLineEnd, 7, false},
      {"*1\r\n$3\r\nabcX", Fault::kBadBulkEnd, 11, false},
      {"*1\r\n$3\r\nabc\rX", Fault::kBadBulkEnd, 12, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.data);
    const plinth::form::Error e = ErrorOf(c.data);
    CHECK(e.fault == c.fault);
    CHECK(e.offset == c.offset);
    CHECK(e.in_count == c.in_count);
    CHECK(e.byte == (c.fault == Fault::kEmptyCommand ? '0' : c.data[c.offset]));
  }
  CHECK(Describe(ErrorOf("*1\r\n:3\r\n")) == "expected '$', got ':'");
  CHECK(Describe(ErrorOf("*1\r\n$3\r\nabc\n")) == "invalid CRLF after a bulk: got '\\x0a'");
}

TEST_CASE("command form: a prefix of a valid command needs more bytes, never an error") {
  const std::string cmd = Enc({"SET", "key", ""});
  for (size_t cut = 0; cut < cmd.size(); ++cut) {
    CommandParser parser;
    std::vector<std::string_view> argv;
    CHECK(parser.Parse(std::string_view(cmd).substr(0, cut), &argv) == Status::kNeedMore);
  }
}

TEST_CASE("command form: counts and lengths over the limits are refused at the crossing digit") {
  Limits small;
  small.max_args = 10;
  small.max_bulk = 100;
  small.max_digits = 4;
  plinth::form::Error e = ErrorOf("*11\r\n", small);
  CHECK(e.fault == Fault::kTooLarge);
  CHECK(e.offset == 2);
  CHECK(e.limit == 10);
  CHECK(Describe(e) == "argument count over 10");
  e = ErrorOf("*1\r\n$101\r\n", small);
  CHECK(e.fault == Fault::kTooLarge);
  CHECK(e.offset == 7);
  CHECK_FALSE(e.in_count);
  e = ErrorOf("*1\r\n$00001\r\n", small);
  CHECK(e.fault == Fault::kTooManyDigits);
  CHECK(e.offset == 9);
  // At the limits: accepted, and nothing is sized from what they declare.
  CommandParser parser(small);
  std::vector<std::string_view> argv;
  CHECK(parser.Parse("*10\r\n$100\r\nabc", &argv) == Status::kNeedMore);
  CommandParser zeros(small);
  CHECK(zeros.Parse("*0010\r\n", &argv) == Status::kNeedMore);  // four digits: allowed
  CHECK(ErrorOf("*00010\r\n", small).fault == Fault::kTooManyDigits);
}

TEST_CASE("command form: lengths near UINT64_MAX are checked, never overflowed") {
  Limits open;
  open.max_args = std::numeric_limits<uint64_t>::max();
  open.max_bulk = std::numeric_limits<uint64_t>::max();
  CommandParser parser(open);
  std::vector<std::string_view> argv;
  // The largest value: accepted, then it waits for bytes that will never come.
  CHECK(parser.Parse("*18446744073709551615\r\n$18446744073709551615\r\nab", &argv) ==
        Status::kNeedMore);
  // One more overflows 64 bits: refused at the last digit.
  plinth::form::Error e = ErrorOf("*1\r\n$18446744073709551616\r\n", open);
  CHECK(e.fault == Fault::kTooLarge);
  CHECK(e.offset == 24);
  e = ErrorOf("*184467440737095516150\r\n", open);
  CHECK(e.fault == Fault::kTooManyDigits);
  CHECK(e.offset == 21);
  // INT64_MAX as a length with the default limits.
  e = ErrorOf("*1\r\n$9223372036854775807\r\n");
  CHECK(e.fault == Fault::kTooLarge);
  CHECK(e.limit == Limits().max_bulk);
  // A huge count with one argument after it: a prefix, not a billion-entry allocation.
  CommandParser big(open);
  CHECK(big.Parse("*1000000000000\r\n$1\r\nx\r\n", &argv) == Status::kNeedMore);
}
