// Flag names and derived ACL categories reported by COMMAND INFO, compared with Redis 7.0.
#include "command_meta.h"

#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <string>
#include <vector>

using namespace plinth::server;
using Names = std::vector<std::string_view>;

TEST_CASE("command meta: flag names come in Redis's order") {
  CHECK(FlagNames(PLINTH_CMD_FAST | PLINTH_CMD_READONLY) == Names{"readonly", "fast"});
  CHECK(FlagNames(PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM) == Names{"write", "denyoom"});
  CHECK(FlagNames(PLINTH_CMD_NOAUTH | PLINTH_CMD_FAST | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING |
                  PLINTH_CMD_STALE) == Names{"noscript", "loading", "stale", "fast", "no_auth"});
  CHECK(FlagNames(PLINTH_CMD_NOPROPAGATE).empty());
}

TEST_CASE("command meta: ACL categories match what Redis reports") {
  CHECK(AclCategories("get", PLINTH_CMD_READONLY | PLINTH_CMD_FAST, "string") ==
        Names{"@read", "@string", "@fast"});
  CHECK(AclCategories("del", PLINTH_CMD_WRITE, "generic") == Names{"@keyspace", "@write", "@slow"});
  CHECK(AclCategories("swapdb", PLINTH_CMD_WRITE | PLINTH_CMD_FAST, "server") ==
        Names{"@keyspace", "@write", "@fast", "@dangerous"});
  CHECK(AclCategories("keys", PLINTH_CMD_READONLY, "generic") ==
        Names{"@keyspace", "@read", "@slow", "@dangerous"});
  CHECK(AclCategories("ping", PLINTH_CMD_FAST, "connection") == Names{"@fast", "@connection"});
  CHECK(AclCategories("shutdown", PLINTH_CMD_ADMIN, "server") ==
        Names{"@admin", "@slow", "@dangerous"});
  CHECK(AclCategories("info", 0, "server") == Names{"@slow", "@dangerous"});
}

TEST_CASE("command meta: category membership ignores case and the @") {
  CHECK(InAclCategory("del", PLINTH_CMD_WRITE, "generic", "keyspace"));
  CHECK(InAclCategory("del", PLINTH_CMD_WRITE, "generic", "@WRITE"));
  CHECK_FALSE(InAclCategory("del", PLINTH_CMD_WRITE, "generic", "read"));
}
