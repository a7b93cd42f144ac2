// Split differential: random request streams (binary bulks, inline commands, blank lines, *0,
// errors, truncation) must give the same events parsed whole, at random split points, byte by
// byte and with the buffer moving between calls; and the whole parse must give what was sent.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "parse_driver.h"

namespace plinth::resp::test {
namespace {

class StreamGen {
 public:
  explicit StreamGen(uint64_t seed) : rng_(seed) {}

  // Appends one random piece to stream and its expected event to expect.
  void AddPiece(std::string* stream, std::vector<Event>* expect) {
    switch (Pick(10)) {
      case 0: {
        const std::string blank = Pick(2) ? "\r\n" : (Pick(2) ? "\n" : " \t \r\n");
        *stream += blank;
        expect->push_back(Event{ParseStatus::kEmpty, {}, {}, blank.size()});
        return;
      }
      case 1: {
        const std::string none = Pick(2) ? "*0\r\n" : "*-1\r\n";
        *stream += none;
        expect->push_back(Event{ParseStatus::kEmpty, {}, {}, none.size()});
        return;
      }
      case 2:
      case 3:
        return AddInline(stream, expect);
      default:
        return AddMultibulk(stream, expect);
    }
  }

  // Bytes that end a stream with a protocol error, and that error.
  std::pair<std::string, std::string> BadTail() {
    static const std::vector<std::pair<std::string, std::string>> kTails = {
        {"*abc\r\n", "Protocol error: invalid multibulk length"},
        {"*3000000000\r\n", "Protocol error: invalid multibulk length"},
        {"*1\r\nfoo\r\n", "Protocol error: expected '$', got 'f'"},
        {"*2\r\n$3\r\nGET\r\n$-1\r\n", "Protocol error: invalid bulk length"},
        {"*1\r\n$3\r\nabcXY", "Protocol error: invalid CRLF in request"},
        {"*1\r\n$3\rX", "Protocol error: invalid CRLF in request"},
        {"set a \"b\r\n", "Protocol error: unbalanced quotes in request"},
        {std::string("ab\0c\r\n", 6), "Protocol error: NUL byte in inline request"},
    };
    return kTails[Pick(kTails.size())];
  }

  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

 private:
  std::string RandomBytes(size_t n) {
    static const char kSpecial[] = {'\0', '\r', '\n', '*', '$', '"', '\'', ' '};
    std::string s;
    for (size_t i = 0; i < n; i++) {
      s.push_back(Pick(4) == 0 ? kSpecial[Pick(sizeof kSpecial)] : static_cast<char>(Pick(256)));
    }
    return s;
  }

  void AddMultibulk(std::string* stream, std::vector<Event>* expect) {
    std::vector<std::string> args;
    const size_t argc = 1 + Pick(6);
    for (size_t i = 0; i < argc; i++) {
      const size_t len = Pick(20) == 0 ? 1000 + Pick(5000) : Pick(40);
      args.push_back(RandomBytes(len));
    }
    const std::string bytes = Multibulk(args);
    *stream += bytes;
    expect->push_back(Event{ParseStatus::kOk, args, {}, bytes.size()});
  }

  // An inline command whose arguments are written plain, "double quoted" with escapes, or
  // 'single quoted'.
  void AddInline(std::string* stream, std::vector<Event>* expect) {
    std::string line;
    std::vector<std::string> args;
    const size_t argc = 1 + Pick(4);
    for (size_t i = 0; i < argc; i++) {
      line += std::string(1 + Pick(2), Pick(2) ? ' ' : '\t');
      std::string arg;
      switch (Pick(3)) {
        case 0:
          for (size_t j = 0, n = 1 + Pick(8); j < n; j++) arg.push_back('a' + Pick(26));
          line += arg;
          break;
        case 1:
          line += '"';
          for (size_t j = 0, n = Pick(8); j < n; j++) {
            const unsigned char c = static_cast<unsigned char>(Pick(256));
            static const char kHex[] = "0123456789abcdef";
            line += "\\x";
            line += kHex[c >> 4];
            line += kHex[c & 15];
            arg.push_back(static_cast<char>(c));
          }
          line += "\\n";
          arg.push_back('\n');
          line += '"';
          break;
        default:
          line += "'it\\'s'";
          arg = "it's";
          break;
      }
      args.push_back(arg);
    }
    line += Pick(2) ? "\r\n" : "\n";
    *stream += line;
    expect->push_back(Event{ParseStatus::kOk, args, {}, line.size()});
  }

  std::mt19937_64 rng_;
};

TEST_CASE("resp split differential: random streams parse the same however they are split") {
  for (uint64_t seed = 1; seed <= 300; seed++) {
    INFO("seed " << seed);
    StreamGen gen(seed);
    std::string stream;
    std::vector<Event> expect;
    for (size_t i = 0, n = 1 + gen.Pick(12); i < n; i++) gen.AddPiece(&stream, &expect);
    switch (gen.Pick(3)) {
      case 0: {  // ends with a protocol error
        const auto [tail, error] = gen.BadTail();
        stream += tail;
        expect.push_back(Event{ParseStatus::kError, {}, error, 0});
        break;
      }
      case 1: {  // ends inside a request
        std::string extra;
        std::vector<Event> ignored;
        gen.AddPiece(&extra, &ignored);
        if (ignored.back().status == ParseStatus::kOk) {
          stream += extra.substr(0, extra.size() - 1 - gen.Pick(extra.size() - 1));
          expect.push_back(Event{ParseStatus::kNeedMore, {}, {}, 0});
        }
        break;
      }
      default:
        break;
    }
    const std::vector<Event> whole = ParseWhole(stream);
    REQUIRE(whole == expect);
    CHECK(ParseByteByByte(stream) == whole);
    for (int round = 0; round < 5; round++) {
      std::vector<size_t> cuts;
      for (size_t at = 1 + gen.Pick(64); at < stream.size(); at += 1 + gen.Pick(64)) {
        cuts.push_back(at);
      }
      CHECK(ParseInPieces(stream, cuts, true) == whole);
    }
  }
}

TEST_CASE("resp split differential: every two-piece split of a mixed stream agrees") {
  StreamGen gen(42);
  std::string stream;
  std::vector<Event> expect;
  for (int i = 0; i < 8; i++) gen.AddPiece(&stream, &expect);
  stream += "*1\r\n$3\r\nabcXY";
  const std::vector<Event> whole = ParseWhole(stream);
  REQUIRE(whole.back().error == "Protocol error: invalid CRLF in request");
  for (size_t cut = 1; cut < stream.size(); cut++) {
    INFO("cut at " << cut);
    CHECK(ParseInPieces(stream, {cut}, true) == whole);
  }
}

}  // namespace
}  // namespace plinth::resp::test
