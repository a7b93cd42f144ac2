// Flag names, ACL category names and key spec flags reported by COMMAND INFO, as Redis 7.0's.
#include "server/command_meta.h"

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

TEST_CASE("command meta: ACL categories are named as Redis names them, in bit order") {
  CHECK(AclCategories(PLINTH_ACL_FAST | PLINTH_ACL_READ | PLINTH_ACL_STRING) ==
        std::vector<std::string>{"@read", "@string", "@fast"});
  CHECK(AclCategories(PLINTH_ACL_KEYSPACE | PLINTH_ACL_DANGEROUS | PLINTH_ACL_SCRIPTING) ==
        std::vector<std::string>{"@keyspace", "@dangerous", "@scripting"});
  CHECK(AclCategories(0).empty());
}

TEST_CASE("command meta: key access becomes Redis 7 key spec flags") {
  CHECK(KeySpecFlags(PLINTH_KEY_READ | PLINTH_KEY_WRITE) == Names{"RW", "access", "update"});
  CHECK(KeySpecFlags(PLINTH_KEY_READ) == Names{"RO", "access"});
  CHECK(KeySpecFlags(PLINTH_KEY_WRITE) == Names{"OW", "update"});
  CHECK(KeySpecFlags(0) == Names{"RO"});
}
