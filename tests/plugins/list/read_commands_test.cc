// Command tests of the read-only list commands: LRANGE, LINDEX and LPOS (RANK, COUNT, MAXLEN),
// with Redis 7.0's index rules, errors and huge bounds.
#include "list_fixture.h"

namespace plinth::list::test {
namespace {

using fakehost::ReplyType;

TEST_CASE("list read: LRANGE clamps its bounds") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c", "d", "e"});
  CHECK(f.Run({"LRANGE", "l", "1", "2"}) == "1) \"b\"\n2) \"c\"");
  CHECK(f.Run({"LRANGE", "l", "-2", "-1"}) == "1) \"d\"\n2) \"e\"");
  CHECK(f.Run({"LRANGE", "l", "-100", "0"}) == "1) \"a\"");
  CHECK(f.Run({"LRANGE", "l", "3", "1"}) == "(empty array)");
  CHECK(f.Run({"LRANGE", "l", "5", "10"}) == "(empty array)");
  CHECK(f.Run({"LRANGE", "l", "0", "1000000000000000000"}).substr(0, 8) == "1) \"a\"\n2");
  CHECK(f.Run({"LRANGE", "l", "-9223372036854775808", "9223372036854775807"}).size() > 20);
  CHECK(f.Run({"LRANGE", "nokey", "0", "-1"}) == "(empty array)");
  CHECK(f.Run({"LRANGE", "l", "0", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"LRANGE", "l", "0", "9223372036854775808"}) ==
        "(error) ERR value is not an integer or out of range");
  f.host.PutString("s", "x");
  CHECK(f.Run({"LRANGE", "s", "0", "-1"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Propagated() == std::vector<std::string>{"RPUSH l a b c d e"});
}

TEST_CASE("list read: LRANGE walks a long list across nodes") {
  Fixture f;
  Argv argv{"RPUSH", "l"};
  for (int i = 0; i < 600; ++i) argv.push_back("element-" + std::to_string(i));
  f.Run(argv);
  fakehost::Reply r = f.host.Call({"LRANGE", "l", "0", "599"});
  REQUIRE(r.elements.size() == 600);
  for (int i = 0; i < 600; ++i) REQUIRE(r.elements[i].str == "element-" + std::to_string(i));
  r = f.host.Call({"LRANGE", "l", "-300", "-201"});
  REQUIRE(r.elements.size() == 100);
  CHECK(r.elements[0].str == "element-300");
  CHECK(r.elements[99].str == "element-399");
}

TEST_CASE("list read: LINDEX from either end") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c"});
  CHECK(f.Run({"LINDEX", "l", "0"}) == "\"a\"");
  CHECK(f.Run({"LINDEX", "l", "-1"}) == "\"c\"");
  CHECK(f.Run({"LINDEX", "l", "-3"}) == "\"a\"");
  CHECK(f.host.Call({"LINDEX", "l", "3"}).type == ReplyType::kNull);
  CHECK(f.host.Call({"LINDEX", "l", "-4"}).type == ReplyType::kNull);
  CHECK(f.host.Call({"LINDEX", "nokey", "0"}).type == ReplyType::kNull);
  CHECK(f.Run({"LINDEX", "l", "1.5"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"LINDEX", "l", "-9223372036854775808"}) == "(nil)");
}

TEST_CASE("list read: LPOS finds matches by rank count and maxlen") {
  Fixture f;
  f.Run({"RPUSH", "l", "a", "b", "c", "a", "b", "c", "a"});
  CHECK(f.Run({"LPOS", "l", "a"}) == "(integer) 0");
  CHECK(f.Run({"LPOS", "l", "c"}) == "(integer) 2");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "2"}) == "(integer) 3");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "-1"}) == "(integer) 6");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "-2"}) == "(integer) 3");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "4"}) == "(nil)");
  CHECK(f.Run({"LPOS", "l", "a", "COUNT", "0"}) ==
        "1) (integer) 0\n2) (integer) 3\n3) (integer) 6");
  CHECK(f.Run({"LPOS", "l", "a", "COUNT", "2"}) == "1) (integer) 0\n2) (integer) 3");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "-1", "COUNT", "0"}) ==
        "1) (integer) 6\n2) (integer) 3\n3) (integer) 0");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "2", "COUNT", "2", "MAXLEN", "5"}) == "1) (integer) 3");
  CHECK(f.Run({"LPOS", "l", "c", "MAXLEN", "2"}) == "(nil)");
  CHECK(f.Run({"LPOS", "l", "zz", "COUNT", "0"}) == "(empty array)");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "-9223372036854775808"}) == "(integer) 6");
  CHECK(f.Run({"LPOS", "nokey", "a"}) == "(nil)");
  CHECK(f.Run({"LPOS", "nokey", "a", "COUNT", "0"}) == "(empty array)");
  CHECK(f.Run({"lpos", "l", "b", "rank", "1", "count", "5", "maxlen", "0"}) ==
        "1) (integer) 1\n2) (integer) 4");
}

TEST_CASE("list read: LPOS errors as Redis 7.0") {
  Fixture f;
  f.Run({"RPUSH", "l", "a"});
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "0"}) ==
        "(error) ERR RANK can't be zero: use 1 to start from the first match, 2 from the "
        "second ... or use negative to start from the end of the list");
  CHECK(f.Run({"LPOS", "l", "a", "RANK", "x"}) ==
        "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"LPOS", "l", "a", "COUNT", "-1"}) == "(error) ERR COUNT can't be negative");
  CHECK(f.Run({"LPOS", "l", "a", "COUNT", "x"}) == "(error) ERR COUNT can't be negative");
  CHECK(f.Run({"LPOS", "l", "a", "MAXLEN", "-1"}) == "(error) ERR MAXLEN can't be negative");
  CHECK(f.Run({"LPOS", "l", "a", "FOO"}) == "(error) ERR syntax error");
  CHECK(f.Run({"LPOS", "l", "a", "RANK"}) == "(error) ERR syntax error");
  f.host.PutString("s", "x");
  CHECK(f.Run({"LPOS", "s", "a"}) ==
        "(error) WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.Run({"LPOS", "s", "a", "RANK", "0"}).find("RANK can't be zero") != std::string::npos);
}

}  // namespace
}  // namespace plinth::list::test
