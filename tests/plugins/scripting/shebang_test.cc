// EVAL shebangs and FUNCTION LOAD metadata: Redis 7.0's acceptances and error texts.
#include "scripting/shebang.h"

#include <doctest/doctest.h>

using namespace plinth::scripting;

namespace {
std::string EvalError(std::string_view body) {
  uint32_t flags = 0;
  size_t len = 0;
  std::string err;
  return ParseEvalShebang(body, &flags, &len, &err) ? "" : err;
}
std::string MetaError(std::string_view body) {
  LibraryMeta meta;
  std::string err;
  return ParseLibraryMeta(body, &meta, &err) ? "" : err;
}
}  // namespace

TEST_CASE("shebang: a script without one runs in compatibility mode") {
  uint32_t flags = 0;
  size_t len = 9;
  std::string err;
  REQUIRE(ParseEvalShebang("return 1", &flags, &len, &err));
  CHECK(flags == kFlagEvalCompat);
  CHECK(len == 0);
}

TEST_CASE("shebang: flags are read and the newline is kept for line numbers") {
  uint32_t flags = 0;
  size_t len = 0;
  std::string err;
  REQUIRE(ParseEvalShebang("#!lua flags=no-writes,allow-oom\nreturn 1", &flags, &len, &err));
  CHECK(flags == (kFlagNoWrites | kFlagAllowOom));
  CHECK(len == 31);
  REQUIRE(ParseEvalShebang("#!lua flags=\nreturn 1", &flags, &len, &err));
  CHECK(flags == 0);
}

TEST_CASE("shebang: errors use Redis's words") {
  CHECK(EvalError("#!lua") == "ERR Invalid script shebang");
  CHECK(EvalError("#!luax\nx") == "ERR Unexpected engine in script shebang: #!luax");
  CHECK(EvalError("#!\nx") == "ERR Unexpected engine in script shebang: #!");
  CHECK(EvalError("#!lua name=x\nx") == "ERR Unknown lua shebang option: name=x");
  CHECK(EvalError("#!lua flags=bogus\nx") == "ERR Unexpected flag in script shebang: bogus");
  CHECK(EvalError("#!lua \"open\nx") == "ERR Invalid engine in script shebang");
}

TEST_CASE("library metadata: name, engine and code") {
  LibraryMeta meta;
  std::string err;
  REQUIRE(ParseLibraryMeta("#!lua name=mylib\nreturn 1", &meta, &err));
  CHECK(meta.engine == "lua");
  CHECK(meta.name == "mylib");
  CHECK(meta.code == "\nreturn 1");
  CHECK(MetaError("return 1") == "Missing library metadata");
  CHECK(MetaError("#!lua name=ab") == "Invalid library metadata");
  CHECK(MetaError("#!lua\nx") == "Library name was not given");
  CHECK(MetaError("#!lua name=a x=1\nx") == "Invalid metadata value given: x=1");
  CHECK(MetaError("#!lua name=a name=b\nx") ==
        "Invalid metadata value, name argument was given multiple times");
}

TEST_CASE("names: letters, digits and underscores only") {
  CHECK(ValidFunctionName("my_lib1"));
  CHECK_FALSE(ValidFunctionName(""));
  CHECK_FALSE(ValidFunctionName("a-b"));
  CHECK_FALSE(ValidFunctionName("a b"));
}

TEST_CASE("split args: quotes and escapes as sdssplitargs") {
  std::vector<std::string> out;
  REQUIRE(SplitArgs("a \"b c\" 'd\\'e' \"\\x41\\n\"", &out));
  REQUIRE(out.size() == 4);
  CHECK(out[1] == "b c");
  CHECK(out[2] == "d'e");
  CHECK(out[3] == "A\n");
  CHECK_FALSE(SplitArgs("\"a\"b", &out));
  CHECK_FALSE(SplitArgs("'a", &out));
}
