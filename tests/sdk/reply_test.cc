// Reply::ToString renders like redis-cli, so tests can compare one string.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>

#include "kv_plugin.h"

using plinth::fakehost::FakeHost;
using plinth::fakehost::Reply;
using plinth::fakehost::ReplyType;

namespace {
Reply Make(ReplyType t, std::string s = "", int64_t n = 0) {
  Reply r;
  r.type = t;
  r.str = std::move(s);
  r.integer = n;
  return r;
}
}  // namespace

TEST_CASE("reply: scalars render like redis-cli") {
  CHECK(Make(ReplyType::kSimple, "OK").ToString() == "OK");
  CHECK(Make(ReplyType::kError, "ERR x").ToString() == "(error) ERR x");
  CHECK(Make(ReplyType::kInteger, "", -3).ToString() == "(integer) -3");
  CHECK(Make(ReplyType::kBulk, "a\"b\\\n\t\x01").ToString() == "\"a\\\"b\\\\\\n\\t\\x01\"");
  CHECK(Make(ReplyType::kNull).ToString() == "(nil)");
  CHECK(Make(ReplyType::kNullArray).ToString() == "(nil)");
  CHECK(Make(ReplyType::kBool, "", 0).ToString() == "(false)");
  CHECK(Make(ReplyType::kBigNumber, "123").ToString() == "(big number) 123");
  Reply d = Make(ReplyType::kDouble);
  d.dbl = 0.1;
  CHECK(d.ToString() == "(double) 0.1");
  d.dbl = 1.0 / 0.0;
  CHECK(d.ToString() == "(double) inf");
  CHECK(Make(ReplyType::kArray).ToString() == "(empty array)");
}

TEST_CASE("reply: nested aggregates are numbered and indented like redis-cli") {
  FakeHost host;
  REQUIRE(host.Load(plinth::kvtest::Descriptor()));
  Reply r = host.Call({"SHAPES"});
  REQUIRE(r.type == ReplyType::kArray);
  REQUIRE(r.elements.size() == 6);
  CHECK(r.elements[2].type == ReplyType::kMap);
  CHECK(r.elements[2].elements.size() == 2);
  CHECK(r.elements[5].format == "txt");
  CHECK(r.ToString() ==
        "1) (integer) 1\n"
        "2) 1) \"a\\\"b\\n\"\n"
        "   2) (nil)\n"
        "3) 1# k => (double) 0.1\n"
        "4) (empty set)\n"
        "5) (true)\n"
        "6) \"hi\"");
}

TEST_CASE("reply: ten or more elements align their numbers") {
  Reply r = Make(ReplyType::kArray);
  for (int i = 0; i < 10; ++i) r.elements.push_back(Make(ReplyType::kInteger, "", i));
  std::string s = r.ToString();
  CHECK(s.rfind(" 1) (integer) 0\n", 0) == 0);
  CHECK(s.find("\n10) (integer) 9") != std::string::npos);
}
