// Argument grammars of SHUTDOWN, CONFIG SET, INFO, COMMAND LIST and MODULE LIST's version.
#include "server/server_args.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace plinth::server;

TEST_CASE("server args: SHUTDOWN flags and their illegal combinations") {
  ShutdownArgs a;
  std::string err;
  CHECK(ParseShutdown({}, &a, &err));
  CHECK(ParseShutdown({"NOSAVE", "now", "Force"}, &a, &err));
  CHECK(a.nosave);
  CHECK(a.now);
  CHECK(a.force);
  CHECK(ParseShutdown({"abort"}, &a, &err));
  CHECK(a.abort);
  for (const std::vector<std::string_view>& bad :
       {std::vector<std::string_view>{"save", "nosave"}, {"abort", "now"}, {"foo"}}) {
    CHECK_FALSE(ParseShutdown(bad, &a, &err));
    CHECK(err == "ERR syntax error");
  }
}

TEST_CASE("server args: CONFIG SET reports unknown names before duplicates") {
  std::string err;
  CHECK(CheckConfigSetNames({"a", "b"}, {true, true}, &err));
  CHECK_FALSE(CheckConfigSetNames({"a", "A"}, {true, true}, &err));
  CHECK(err == "ERR CONFIG SET failed (possibly related to argument 'A') - duplicate parameter");
  CHECK_FALSE(CheckConfigSetNames({"a", "a", "zz"}, {true, true, false}, &err));
  CHECK(err == "ERR Unknown option or number of arguments for CONFIG SET - 'zz'");
  CHECK(ConfigSetFailed("port", "can't set immutable config") ==
        "ERR CONFIG SET failed (possibly related to argument 'port') - can't set immutable "
        "config");
}

TEST_CASE("server args: INFO sections are lower-cased and de-duplicated in order") {
  CHECK(InfoSections({"Server", "clients", "SERVER"}) ==
        std::vector<std::string>{"server", "clients"});
  CHECK(InfoSections({}).empty());
}

TEST_CASE("server args: COMMAND LIST takes one complete FILTERBY") {
  ListFilter f;
  std::string err;
  CHECK(ParseListFilter({}, &f, &err));
  CHECK(f.kind == ListFilter::Kind::kNone);
  CHECK(ParseListFilter({"filterby", "PATTERN", "get*"}, &f, &err));
  CHECK(f.kind == ListFilter::Kind::kPattern);
  CHECK(f.arg == "get*");
  CHECK(ParseListFilter({"FILTERBY", "aclcat", "read"}, &f, &err));
  CHECK(f.kind == ListFilter::Kind::kAclCat);
  CHECK_FALSE(ParseListFilter({"filterby", "foo", "x"}, &f, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseListFilter({"filterby", "pattern"}, &f, &err));
  CHECK_FALSE(ParseListFilter({"x"}, &f, &err));
}

TEST_CASE("server args: plugin versions become Redis-module integers") {
  CHECK(VersionNumber("1.2.3") == 10203);
  CHECK(VersionNumber("0.1.0") == 100);
  CHECK(VersionNumber("2") == 20000);
  CHECK(VersionNumber("7.0.15-rc1") == 70015);
  CHECK(VersionNumber("dev") == 0);
  CHECK(VersionNumber("") == 0);
}
