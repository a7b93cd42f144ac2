// Inline argument splitting (the sdssplitargs rules Redis applies to inline requests).
#include "resp/inline_args.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace plinth::resp {
namespace {

// The arguments of line, or {"<unbalanced>"} when it is refused.
std::vector<std::string> Split(const std::string& line) {
  std::string store;
  std::vector<size_t> off, len;
  if (!SplitInlineArgs(line.data(), line.size(), &store, &off, &len)) return {"<unbalanced>"};
  CHECK(store.size() <= line.size());
  std::vector<std::string> args;
  for (size_t i = 0; i < off.size(); i++) args.push_back(store.substr(off[i], len[i]));
  return args;
}

using V = std::vector<std::string>;

TEST_CASE("resp inline: splits on runs of whitespace") {
  CHECK(Split("") == V{});
  CHECK(Split(" \t ") == V{});
  CHECK(Split("a") == V{"a"});
  CHECK(Split("  set\tkey   value ") == V{"set", "key", "value"});
  CHECK(Split("a\rb") == V{"a", "b"});
  // \v and \f separate words only where a word has not started, as in Redis.
  CHECK(Split("\va\vb") == V{"a\vb"});
}

TEST_CASE("resp inline: double quotes understand escapes") {
  CHECK(Split("\"a b\"") == V{"a b"});
  CHECK(Split("\"\"") == V{""});
  CHECK(Split("\"\\n\\r\\t\\b\\a\\\\\\\"\\q\"") == V{"\n\r\t\b\a\\\"q"});
  CHECK(Split("\"\\x41\\x6a\\xFF\\x00\"") == V{std::string("Aj\xff\0", 4)});
  // An incomplete \x escape is taken literally.
  CHECK(Split("\"\\x4\"") == V{"x4"});
  CHECK(Split("\"\\xzz\"") == V{"xzz"});
}

TEST_CASE("resp inline: single quotes understand only \\'") {
  CHECK(Split("'a \\n b'") == V{"a \\n b"});
  CHECK(Split("'it\\'s'") == V{"it's"});
  CHECK(Split("'\"'") == V{"\""});
}

TEST_CASE("resp inline: quoting may start inside a word") {
  CHECK(Split("a\"b c\"") == V{"ab c"});
  CHECK(Split("a'b c' d") == V{"ab c", "d"});
}

TEST_CASE("resp inline: a closing quote must be followed by a space or the end") {
  CHECK(Split("\"a\"b") == V{"<unbalanced>"});
  CHECK(Split("'a'b") == V{"<unbalanced>"});
  CHECK(Split("\"a\"\"b\"") == V{"<unbalanced>"});
  CHECK(Split("\"a\" b") == V{"a", "b"});
  CHECK(Split("\"a\"\tb") == V{"a", "b"});
}

TEST_CASE("resp inline: an unterminated quote is refused") {
  CHECK(Split("\"abc") == V{"<unbalanced>"});
  CHECK(Split("'abc") == V{"<unbalanced>"});
  CHECK(Split("\"abc\\\"") == V{"<unbalanced>"});
  CHECK(Split("\"abc\\") == V{"<unbalanced>"});
}

}  // namespace
}  // namespace plinth::resp
