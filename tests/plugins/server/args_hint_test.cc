// The argument-hint parser behind COMMAND DOCS: structure of the tree it builds and the
// redis-cli 7.0 rendering of that tree, which must reproduce the hint text.
#include "server/args_hint.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace plinth::server;

namespace {

std::vector<DocArg> Parse(std::string_view hint, KeyPositions keys = {}) {
  std::vector<DocArg> out;
  REQUIRE(ParseArgsHint(hint, keys, &out));
  return out;
}

}  // namespace

TEST_CASE("args hint: redis-cli renders every hint back to its own text") {
  const char* hints[] = {
      "key [key ...]",
      "key seconds [NX|XX|GT|LT]",
      "source destination [DB destination-db] [REPLACE]",
      "cursor [MATCH pattern] [COUNT count] [TYPE type]",
      "[ASYNC|SYNC]",
      "[protover [AUTH username password] [SETNAME clientname]]",
      "[username] password",
      "key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT "
      "unix-time-milliseconds|KEEPTTL]",
      "AND|OR|XOR|NOT destkey key [key ...]",
      "key [start end [BYTE|BIT]]",
      "key bit [start [end [BYTE|BIT]]]",
      "key value [key value ...]",
      "key1 key2 [LEN] [IDX] [MINMATCHLEN min-match-len] [WITHMATCHLEN]",
      "[section [section ...]]",
      "[NOSAVE|SAVE] [NOW] [FORCE] [ABORT]",
      "[TYPE NORMAL|MASTER|REPLICA|PUBSUB] [ID client-id [client-id ...]]",
      "[FILTERBY MODULE module-name|ACLCAT category|PATTERN pattern]",
      "[GET pattern [GET pattern ...]]",
      "parameter value [parameter value ...]",
      "key [field [field ...]]",
      "numkeys key [key ...] [WEIGHTS weight [weight ...]]",
      "key value [value ...]",
      "",
  };
  for (const char* h : hints) {
    CAPTURE(h);
    CHECK(RenderArgs(Parse(h)) == h);
  }
}

TEST_CASE("args hint: spaces around bars and required groups render like Redis") {
  CHECK(RenderArgs(Parse("[NX | XX]")) == "[NX|XX]");
  CHECK(RenderArgs(Parse("<ENCODING key|HELP>")) == "ENCODING key|HELP");
  CHECK(RenderArgs(Parse("key ...")) == "key [key ...]");
}

TEST_CASE("args hint: words become typed arguments, keys found by position") {
  auto args = Parse("source destination [DB destination-db] [REPLACE]", {1, 2, 1});
  REQUIRE(args.size() == 4);
  CHECK(args[0].name == "source");
  CHECK(args[0].type == "key");
  CHECK(args[1].type == "key");
  CHECK(args[2].name == "destination-db");
  CHECK(args[2].type == "integer");
  CHECK(args[2].token == "DB");
  CHECK(args[2].optional);
  CHECK(args[3].type == "pure-token");
  CHECK(args[3].name == "replace");
  CHECK(args[3].token == "REPLACE");
  auto expire = Parse("key seconds [NX|XX|GT|LT]", {1, 1, 1});
  CHECK(expire[0].type == "key");
  CHECK(expire[1].type == "integer");
  CHECK(expire[2].type == "oneof");
  CHECK(expire[2].optional);
  REQUIRE(expire[2].args.size() == 4);
  CHECK(expire[2].args[1].token == "XX");
  CHECK(Parse("pattern")[0].type == "pattern");
  CHECK(Parse("key unix-time-seconds")[1].type == "unix-time");
  CHECK(Parse("message")[0].type == "string");
}

TEST_CASE("args hint: repetitions become multiple arguments and blocks") {
  auto del = Parse("key [key ...]", {1, -1, 1});
  REQUIRE(del.size() == 1);
  CHECK(del[0].type == "key");
  CHECK(del[0].multiple);
  CHECK_FALSE(del[0].optional);
  auto mset = Parse("key value [key value ...]", {1, -1, 2});
  REQUIRE(mset.size() == 1);
  CHECK(mset[0].type == "block");
  CHECK(mset[0].multiple);
  REQUIRE(mset[0].args.size() == 2);
  CHECK(mset[0].args[0].type == "key");
  CHECK(mset[0].args[1].type == "string");
  auto info = Parse("[section [section ...]]");
  REQUIRE(info.size() == 1);
  CHECK(info[0].optional);
  CHECK(info[0].multiple);
  auto sort = Parse("[GET pattern [GET pattern ...]]");
  CHECK(sort[0].multiple);
  CHECK(sort[0].multiple_token);
  CHECK(sort[0].token == "GET");
}

TEST_CASE("args hint: tokens with several values or a group form blocks and one-ofs") {
  auto hello = Parse("[protover [AUTH username password] [SETNAME clientname]]");
  REQUIRE(hello.size() == 1);
  CHECK(hello[0].type == "block");
  REQUIRE(hello[0].args.size() == 3);
  CHECK(hello[0].args[0].type == "integer");
  CHECK(hello[0].args[1].type == "block");
  CHECK(hello[0].args[1].token == "AUTH");
  CHECK(hello[0].args[1].args.size() == 2);
  CHECK(hello[0].args[2].token == "SETNAME");
  auto list = Parse("[FILTERBY MODULE module-name|ACLCAT category|PATTERN pattern]");
  REQUIRE(list.size() == 1);
  CHECK(list[0].type == "oneof");
  CHECK(list[0].token == "FILTERBY");
  CHECK(list[0].args.size() == 3);
  auto type = Parse("[TYPE NORMAL|MASTER|REPLICA|PUBSUB]");
  CHECK(type[0].token == "TYPE");
  CHECK(type[0].type == "oneof");
  CHECK(type[0].args.size() == 4);
  auto bitop = Parse("AND|OR|XOR|NOT destkey key [key ...]");
  REQUIRE(bitop.size() == 3);
  CHECK(bitop[0].type == "oneof");
  CHECK(bitop[0].args.size() == 4);
}

TEST_CASE("args hint: unbalanced or empty groups are refused") {
  std::vector<DocArg> out;
  for (const char* bad : {"[key", "key]", "<a|b", "[]", "[a||b]", "a>", "[a)"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseArgsHint(bad, {}, &out));
  }
}

TEST_CASE("args hint: a container's one-of splits into subcommands") {
  auto args = Parse(
      "<ID|SETNAME connection-name|KILL ip:port|KILL [ID client-id] [SKIPME yes|no]"
      "|LIST [TYPE NORMAL|MASTER] [ID client-id [client-id ...]]|HELP>");
  auto subs = SplitSubcommands(args);
  REQUIRE(subs.size() == 5);
  CHECK(subs[0].name == "id");
  CHECK(subs[0].args.empty());
  CHECK(subs[1].name == "setname");
  CHECK(RenderArgs(subs[1].args) == "connection-name");
  CHECK(subs[2].name == "kill");
  CHECK(RenderArgs(subs[2].args) == "ip:port|[ID client-id] [SKIPME yes|no]");
  CHECK(subs[3].name == "list");
  CHECK(RenderArgs(subs[3].args) == "[TYPE NORMAL|MASTER] [ID client-id [client-id ...]]");
  CHECK(subs[4].name == "help");
  auto command = SplitSubcommands(
      Parse("<COUNT|GETKEYS command [arg [arg ...]]|GET parameter [parameter ...]>"));
  REQUIRE(command.size() == 3);
  CHECK(command[1].name == "getkeys");
  CHECK(RenderArgs(command[1].args) == "command [arg [arg ...]]");
  CHECK(command[2].name == "get");
  CHECK(RenderArgs(command[2].args) == "parameter [parameter ...]");
  auto noevict = SplitSubcommands(Parse("<NO-EVICT <ON|OFF>|HELP>"));
  REQUIRE(noevict.size() == 2);
  CHECK(noevict[0].name == "no-evict");
  CHECK(RenderArgs(noevict[0].args) == "ON|OFF");
  CHECK(SplitSubcommands(Parse("key [key ...]")).empty());
  CHECK(SplitSubcommands(Parse("[NX|XX]")).empty());
}
