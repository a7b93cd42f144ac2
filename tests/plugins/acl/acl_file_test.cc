// The ACL file: what ACL SAVE writes reads back to the same users; a bad line is refused with
// its number and nothing is applied; and the ACL LOG groups repeats.
#include "acl/acl_file.h"

#include <doctest/doctest.h>

#include "acl/acl_log.h"

namespace {

using namespace plinth::acl;

CommandTable Table() {
  CommandTable t;
  t.Assign({{"get", PLINTH_ACL_READ | PLINTH_ACL_STRING, 0, -1, {}},
            {"set", PLINTH_ACL_WRITE | PLINTH_ACL_STRING, 0, -1, {}}});
  return t;
}

}  // namespace

TEST_CASE("acl file: saved users read back the same, sorted by name") {
  const CommandTable t = Table();
  Users users;
  User* bob = users.FindOrCreate("bob", false);
  for (const char* w : {"on", ">secret", "%R~cache:*", "&chan", "-@all", "+get", "(+set ~w:*)"})
    REQUIRE(ApplyUserRule(*bob, w, t, false).empty());
  users.FindOrCreate("alice", false);
  const std::string text = AclFileText(users);
  CHECK(text.rfind("user alice off resetchannels -@all\nuser bob on #", 0) == 0);

  std::vector<User> loaded;
  std::string err;
  REQUIRE(ParseAclFile(text, "users.acl", t, false, &loaded, &err));
  REQUIRE(loaded.size() == 3);
  Users again;
  for (User& u : loaded) again.Put(std::move(u));
  CHECK(AclFileText(again) == text);
}

TEST_CASE("acl file: a bad line refuses the file, naming the line") {
  const CommandTable t = Table();
  std::vector<User> loaded;
  std::string err;
  CHECK_FALSE(
      ParseAclFile("user a on +get\n\nuser b on +nosuch\n", "f.acl", t, false, &loaded, &err));
  CHECK(err ==
        "f.acl:3: Error in user declaration '+nosuch': Unknown command or category name "
        "in ACL");
  CHECK_FALSE(ParseAclFile("user a on\r\nusr b\r\n", "f.acl", t, false, &loaded, &err));
  CHECK(err == "f.acl:2: line should start with user keyword");
  CHECK_FALSE(ParseAclFile("user a on\nuser a off\n", "f.acl", t, false, &loaded, &err));
  CHECK(err == "f.acl:2: duplicate user 'a'");
  CHECK_FALSE(ParseAclFile("user a (+get\n", "f.acl", t, false, &loaded, &err));
  CHECK(err == "f.acl:1: Unmatched parenthesis in acl selector starting at '(+get'.");
}

TEST_CASE("acl log: repeats within a minute count on one entry and the oldest go past the limit") {
  AclLog log;
  LogEntry e;
  e.reason = "command";
  e.context = "toplevel";
  e.object = "del";
  e.username = "u";
  log.Add(e, 1000);
  log.Add(e, 2000);
  REQUIRE(log.entries().size() == 1);
  CHECK(log.entries()[0].count == 2);
  CHECK(log.entries()[0].updated_ms == 2000);
  log.Add(e, 70000);  // over a minute later: a new entry
  CHECK(log.entries().size() == 2);
  e.object = "set";
  log.Add(e, 70001);
  CHECK(log.entries()[0].object == "set");
  log.SetMaxLen(2);
  CHECK(log.entries().size() == 2);
  CHECK(log.entries()[1].object == "del");
  log.Reset();
  CHECK(log.entries().empty());
}
