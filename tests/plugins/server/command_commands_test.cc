// COMMAND and its subcommands through the fake host: the Redis 7 reply shapes, and COMMAND DOCS
// arguments in the form redis-cli 7.0 reads.
#include <string>

#include "server_fixture.h"

using plinth::fakehost::Reply;
using plinth::fakehost::ReplyType;
using plinth::server::test::Field;
using plinth::server::test::Fixture;

TEST_CASE("command commands: COMMAND INFO has Redis 7's ten fields") {
  Fixture f;
  Reply r = f.Call({"command", "info", "SET", "nosuch"});
  REQUIRE(r.elements.size() == 2);
  const Reply& set = r.elements[0];
  REQUIRE(set.elements.size() == 10);
  CHECK(set.elements[0].str == "set");
  CHECK(set.elements[1].integer == -3);
  CHECK(set.elements[2].type == ReplyType::kSet);
  CHECK(set.elements[2].elements[0].type == ReplyType::kSimple);
  CHECK(set.elements[2].elements[0].str == "write");
  CHECK(set.elements[2].elements[1].str == "denyoom");
  CHECK(set.elements[3].integer == 1);
  CHECK(set.elements[4].integer == 1);
  CHECK(set.elements[5].integer == 1);
  CHECK(set.elements[6].elements[0].str == "@write");
  CHECK(set.elements[7].elements.empty());
  REQUIRE(set.elements[8].elements.size() == 1);
  const Reply& spec = set.elements[8].elements[0];
  CHECK(Field(*Field(*Field(spec, "find_keys"), "spec"), "lastkey")->integer == 0);
  CHECK(set.elements[9].elements.empty());
  CHECK(r.elements[1].type == ReplyType::kNull);
  Reply nohint = f.Call({"command", "info", "nohint"}).elements[0];
  CHECK(nohint.elements[8].elements.empty());
}

TEST_CASE("command commands: COMMAND, COUNT and LIST with filters") {
  Fixture f;
  Reply count = f.Call({"command", "count"});
  CHECK(count.integer == static_cast<int64_t>(f.Call({"command"}).elements.size()));
  // LIST names subcommands too, as Redis 7 does ("module|list"); COUNT counts commands only.
  CHECK(count.integer < static_cast<int64_t>(f.Call({"command", "list"}).elements.size()));
  // MULTI is the host's own (transactions wrap every plugin's commands).
  CHECK(f.Run({"command", "list", "filterby", "pattern", "M*"}) ==
        "1) \"multi\"\n2) \"module\"\n3) \"module|help\"\n4) \"module|list\"\n5) "
        "\"module|load\"\n6) \"module|loadex\"\n7) \"module|unload\"\n8) \"mget\"");
  // Categories are the host's: the subcommand's own (MODULE LIST is @admin, COMMAND INFO not).
  Reply admin = f.Call({"command", "list", "filterby", "aclcat", "admin"});
  bool module_list = false, command_info = false;
  for (const Reply& e : admin.elements) {
    module_list |= e.str == "module|list";
    command_info |= e.str == "command|info";
  }
  CHECK(module_list);
  CHECK_FALSE(command_info);
  Reply readers = f.Call({"command", "list", "filterby", "aclcat", "read"});
  REQUIRE(readers.elements.size() == 1);
  CHECK(readers.elements[0].str == "mget");
  CHECK(f.Call({"command", "list", "filterby", "module", "helper"}).elements.empty());
  CHECK(f.Run({"command", "list", "x"}) == "(error) ERR syntax error");
  CHECK(f.Run({"command", "foo"}) == "(error) ERR unknown subcommand 'foo'. Try COMMAND HELP.");
}

TEST_CASE("command commands: COMMAND GETKEYS extracts keys by position") {
  Fixture f;
  CHECK(f.Run({"command", "getkeys", "set", "k", "v"}) == "1) \"k\"");
  CHECK(f.Run({"command", "getkeys", "mget", "a", "b", "c"}) == "1) \"a\"\n2) \"b\"\n3) \"c\"");
  CHECK(f.Run({"command", "getkeys", "nosuch", "a"}) == "(error) ERR Invalid command specified");
  CHECK(f.Run({"command", "getkeys", "set", "k"}) ==
        "(error) ERR Invalid number of arguments specified for command");
  CHECK(f.Run({"command", "getkeys", "info", "x"}) ==
        "(error) ERR The command has no key arguments");
}

TEST_CASE("command commands: subcommands have their own COMMAND INFO entries and keys") {
  Fixture f;
  Reply config = f.Call({"command", "info", "config"}).elements[0];
  REQUIRE(config.elements.size() == 10);
  bool found = false;
  for (const Reply& sub : config.elements[9].elements) {
    if (sub.elements.empty() || sub.elements[0].str != "config|get") continue;
    found = true;
    CHECK(sub.elements[1].integer == -3);
    std::string cats;
    for (const Reply& c : sub.elements[6].elements) cats += c.str + " ";
    CHECK(cats == "@admin @slow @dangerous ");
  }
  CHECK(found);
  Reply get = f.Call({"command", "info", "CONFIG|GET"}).elements[0];
  CHECK(get.elements[0].str == "config|get");
  CHECK(f.Run({"command", "getkeysandflags", "mget", "a"}) ==
        "1) 1) \"a\"\n   2) 1~ RO\n      2~ access");
}

TEST_CASE("command commands: COMMAND DOCS builds argument maps from the hint") {
  Fixture f;
  Reply r = f.Call({"command", "docs", "set", "nosuch"});
  REQUIRE(r.type == ReplyType::kMap);
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].str == "set");
  const Reply& doc = r.elements[1];
  CHECK(Field(doc, "summary")->str == "Set the string value of a key");
  CHECK(Field(doc, "since")->str == "1.0.0");
  CHECK(Field(doc, "group")->str == "string");
  const Reply* args = Field(doc, "arguments");
  REQUIRE(args);
  REQUIRE(args->type == ReplyType::kArray);
  REQUIRE(args->elements.size() == 4);
  CHECK(Field(args->elements[0], "name")->str == "key");
  CHECK(Field(args->elements[0], "type")->str == "key");
  CHECK(Field(args->elements[0], "key_spec_index")->integer == 0);
  CHECK(Field(args->elements[1], "type")->str == "string");
  const Reply& cond = args->elements[2];
  CHECK(Field(cond, "type")->str == "oneof");
  const Reply* flags = Field(cond, "flags");
  REQUIRE(flags);
  REQUIRE(flags->elements.size() == 1);
  CHECK(flags->elements[0].type == ReplyType::kSimple);  // redis-cli asserts status strings
  CHECK(flags->elements[0].str == "optional");
  const Reply* nx = &Field(cond, "arguments")->elements[0];
  CHECK(Field(*nx, "type")->str == "pure-token");
  CHECK(Field(*nx, "token")->str == "NX");
  Reply bare = f.Call({"command", "docs", "nohint"}).elements[1];
  CHECK(Field(bare, "summary")->str.empty());
  CHECK(Field(bare, "group")->str == "module");
  CHECK(Field(bare, "arguments") == nullptr);
}

TEST_CASE("command commands: container hints become subcommands in COMMAND DOCS") {
  Fixture f;
  Reply doc = f.Call({"command", "docs", "config"}).elements[1];
  CHECK(Field(doc, "arguments") == nullptr);
  const Reply* subs = Field(doc, "subcommands");
  REQUIRE(subs);
  REQUIRE(subs->elements.size() == 10);  // GET, SET, RESETSTAT, REWRITE, HELP: name and doc each
  CHECK(subs->elements[0].str == "config|get");
  CHECK(subs->elements[2].str == "config|set");
  const Reply* set_args = Field(subs->elements[3], "arguments");
  REQUIRE(set_args);
  REQUIRE(set_args->elements.size() == 1);
  CHECK(Field(set_args->elements[0], "type")->str == "block");
  CHECK(subs->elements[4].str == "config|resetstat");
  CHECK(Field(subs->elements[5], "arguments") == nullptr);
  CHECK(f.Call({"command", "docs"}).elements.size() ==
        2 * static_cast<size_t>(f.Call({"command", "count"}).integer));
}
