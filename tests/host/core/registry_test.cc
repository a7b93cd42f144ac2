// The command registry's subcommands and access-control facts: "container|sub" specs attach to
// their container (standing one in when it comes later), ids stay dense, categories add the
// ones flags imply, and a failed plugin's registrations go without taking others' along.
#include "host/core/registry.h"

#include <doctest/doctest.h>

namespace {

using plinth::host::Command;
using plinth::host::Registry;

void Handler(plinth_call_t*, void*) {}

plinth_command_spec_t Spec(const char* name, uint32_t flags = 0, uint64_t acl = 0,
                           bool handler = true) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.arity = -2;
  s.flags = flags;
  s.handler = handler ? Handler : nullptr;
  s.acl_categories = acl;
  return s;
}

const char* const kArgv[] = {"CONFIG", "Get", "x"};
const size_t kLens[] = {6, 3, 1};

}  // namespace

TEST_CASE("registry: subcommands attach to their container, found in any case") {
  Registry r;
  auto c = Spec("config", PLINTH_CMD_ADMIN);
  REQUIRE(r.AddCommand(&c, "server").empty());
  auto get = Spec("config|get", PLINTH_CMD_ADMIN | PLINTH_CMD_LOADING, 0, false);
  REQUIRE(r.AddCommand(&get, "server").empty());
  CHECK(r.AddCommand(&get, "server") == "command 'config|get' already exists");
  auto bad = Spec("config|", 0, 0, false);
  CHECK_FALSE(r.AddCommand(&bad, "server").empty());
  auto nohandler = Spec("ping", 0, 0, false);
  CHECK(r.AddCommand(&nohandler, "server") == "command 'ping' has no handler");

  Command* config = r.FindCommand("CONFIG");
  REQUIRE(config);
  REQUIRE(config->subs.size() == 1);
  Command* sub = Registry::Resolve(config, 3, kArgv, kLens);
  CHECK(sub->name == "config|get");
  CHECK(sub->parent == config);
  CHECK(Registry::Resolve(config, 1, kArgv, kLens) == config);
  CHECK(r.FindQualified("Config|GET") == sub);
  CHECK(r.FindQualified("config|set") == nullptr);
  CHECK(r.by_id.size() == 2);
  CHECK(r.FindById(sub->id) == sub);
  CHECK(r.FindById(config->id) == config);
}

TEST_CASE("registry: categories are the declared ones plus those the flags imply") {
  Registry r;
  auto get = Spec("get", PLINTH_CMD_READONLY | PLINTH_CMD_FAST, PLINTH_ACL_STRING);
  auto flush = Spec("flushall", PLINTH_CMD_WRITE | PLINTH_CMD_ADMIN, PLINTH_ACL_KEYSPACE);
  auto eval_ro = Spec("eval_ro", PLINTH_CMD_READONLY, PLINTH_ACL_SCRIPTING);
  auto blpop = Spec("blpop", PLINTH_CMD_WRITE | PLINTH_CMD_BLOCKING, PLINTH_ACL_LIST);
  for (auto* s : {&get, &flush, &eval_ro, &blpop}) REQUIRE(r.AddCommand(s, "p").empty());
  CHECK(r.FindCommand("get")->categories ==
        (PLINTH_ACL_STRING | PLINTH_ACL_READ | PLINTH_ACL_FAST));
  CHECK(r.FindCommand("flushall")->categories ==
        (PLINTH_ACL_KEYSPACE | PLINTH_ACL_WRITE | PLINTH_ACL_ADMIN | PLINTH_ACL_DANGEROUS |
         PLINTH_ACL_SLOW));
  CHECK(r.FindCommand("eval_ro")->categories == (PLINTH_ACL_SCRIPTING | PLINTH_ACL_SLOW));
  CHECK(r.FindCommand("blpop")->categories ==
        (PLINTH_ACL_LIST | PLINTH_ACL_WRITE | PLINTH_ACL_SLOW | PLINTH_ACL_BLOCKING));
  auto unknown = Spec("x", 0, uint64_t{1} << PLINTH_ACL_CATEGORY_COUNT);
  CHECK(r.AddCommand(&unknown, "p") == "command 'x' has unknown ACL categories");
  auto keys = Spec("y");
  keys.key_flags = 0x10;
  CHECK(r.AddCommand(&keys, "p") == "command 'y' has unknown key flags");
}

TEST_CASE("registry: a subcommand before its container gets a stand-in the container replaces") {
  Registry r;
  auto reload = Spec("debug|reload", PLINTH_CMD_ADMIN);
  REQUIRE(r.AddCommand(&reload, "rdb").empty());
  Command* stand_in = r.FindCommand("debug");
  REQUIRE(stand_in);
  CHECK(stand_in->stand_in);
  CHECK(stand_in->subs.size() == 1);

  auto debug = Spec("debug", PLINTH_CMD_ADMIN | PLINTH_CMD_PROTECTED);
  REQUIRE(r.AddCommand(&debug, "diagnostics").empty());
  Command* real = r.FindCommand("debug");
  REQUIRE(real);
  CHECK_FALSE(real->stand_in);
  CHECK(real->owner == "diagnostics");
  REQUIRE(real->subs.size() == 1);
  CHECK(real->subs[0]->parent == real);
  CHECK(r.FindQualified("debug|reload")->owner == "rdb");
  CHECK(r.commands.size() == 1);

  // The container's plugin fails: its subcommand from another plugin keeps a stand-in.
  r.RemoveOwner("diagnostics");
  REQUIRE(r.FindCommand("debug"));
  CHECK(r.FindCommand("debug")->stand_in);
  CHECK(r.FindQualified("debug|reload"));
  // Then the subcommand's plugin: nothing is left.
  r.RemoveOwner("rdb");
  CHECK(r.FindCommand("debug") == nullptr);
  CHECK(r.by_id.empty());
}
