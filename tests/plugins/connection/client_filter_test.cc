// CLIENT KILL / CLIENT LIST filtering: option grammar, Redis's error texts, line parsing and
// the AND-matching of filters.
#include "connection/client_filter.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::connection;

namespace {
constexpr std::string_view kLine =
    "id=7 addr=127.0.0.1:5000 laddr=127.0.0.1:6379 fd=8 name=web age=3 idle=0 flags=N db=0 "
    "cmd=client|list user=default resp=2\n";
}

TEST_CASE("client filter: a CLIENT LIST line yields id, addresses, flags and user") {
  ClientLine l = ParseClientLine(kLine);
  CHECK(l.id == 7);
  CHECK(l.addr == "127.0.0.1:5000");
  CHECK(l.laddr == "127.0.0.1:6379");
  CHECK(l.flags == "N");
  CHECK(l.user == "default");
  CHECK(TypeOf(l) == ClientType::kNormal);
  CHECK(TypeOf(ParseClientLine("id=2 flags=S")) == ClientType::kReplica);
  CHECK(TypeOf(ParseClientLine("id=2 flags=M")) == ClientType::kMaster);
  CHECK(TypeOf(ParseClientLine("id=2 flags=P")) == ClientType::kPubsub);
}

TEST_CASE("client filter: type names parse like Redis, slave included") {
  ClientType t;
  CHECK(ParseClientType("NORMAL", &t));
  CHECK(t == ClientType::kNormal);
  CHECK(ParseClientType("slave", &t));
  CHECK(t == ClientType::kReplica);
  CHECK(ParseClientType("Replica", &t));
  CHECK_FALSE(ParseClientType("foo", &t));
}

TEST_CASE("client filter: the old form kills by address and may kill the caller") {
  KillFilter f;
  std::string err;
  REQUIRE(ParseClientKill({"127.0.0.1:5000"}, &f, &err));
  CHECK(f.old_style);
  CHECK_FALSE(f.skipme);
  CHECK(KillMatches(f, ParseClientLine(kLine), 7));
  CHECK_FALSE(KillMatches(f, ParseClientLine("id=9 addr=127.0.0.1:5001"), 7));
}

TEST_CASE("client filter: new-form filters combine with AND and skip the caller") {
  KillFilter f;
  std::string err;
  REQUIRE(ParseClientKill(
      {"ADDR", "127.0.0.1:5000", "laddr", "127.0.0.1:6379", "TYPE", "normal", "user", "default"},
      &f, &err));
  CHECK_FALSE(f.old_style);
  CHECK(KillMatches(f, ParseClientLine(kLine), 99));
  CHECK_FALSE(KillMatches(f, ParseClientLine(kLine), 7));  // SKIPME yes by default
  KillFilter by_id;
  REQUIRE(ParseClientKill({"id", "7", "skipme", "no"}, &by_id, &err));
  CHECK(KillMatches(by_id, ParseClientLine(kLine), 7));
  CHECK_FALSE(KillMatches(by_id, ParseClientLine("id=8 addr=x"), 7));
  KillFilter replicas;
  REQUIRE(ParseClientKill({"type", "replica"}, &replicas, &err));
  CHECK_FALSE(KillMatches(replicas, ParseClientLine(kLine), 0));
}

TEST_CASE("client filter: bad CLIENT KILL options give Redis's errors") {
  std::string err;
  KillFilter f;
  CHECK_FALSE(ParseClientKill({"id", "0"}, &f, &err));
  CHECK(err == "ERR client-id should be greater than 0");
  CHECK_FALSE(ParseClientKill({"id", "abc"}, &f, &err));
  CHECK(err == "ERR client-id should be greater than 0");
  CHECK_FALSE(ParseClientKill({"type", "foo"}, &f, &err));
  CHECK(err == "ERR Unknown client type 'foo'");
  CHECK_FALSE(ParseClientKill({"user", "nouser"}, &f, &err));
  CHECK(err == "ERR No such user 'nouser'");
  CHECK_FALSE(ParseClientKill({"skipme", "maybe"}, &f, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseClientKill({"foo", "bar"}, &f, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseClientKill({"addr", "x", "id"}, &f, &err));
  CHECK(err == "ERR syntax error");
}
