// ACL rules over a small command table: what SETUSER's words allow and refuse, as Redis 7.0
// decides it, and how ACL LIST / GETUSER show it.
#include <doctest/doctest.h>

#include "acl/command_table.h"
#include "acl/selector.h"
#include "acl/users.h"

namespace {

using namespace plinth::acl;

// get (read, string), set (write, string), hset (write, hash), config with get/set
// subcommands (admin), select (no subcommands), publish and psubscribe (pubsub), auth (noauth).
CommandTable Table() {
  std::vector<CommandEntry> e = {
      {"get", PLINTH_ACL_READ | PLINTH_ACL_STRING | PLINTH_ACL_FAST, 0, -1, {}},
      {"set", PLINTH_ACL_WRITE | PLINTH_ACL_STRING | PLINTH_ACL_SLOW, 0, -1, {}},
      {"hset", PLINTH_ACL_WRITE | PLINTH_ACL_HASH | PLINTH_ACL_FAST, 0, -1, {}},
      {"config", PLINTH_ACL_SLOW, 0, -1, {}},
      {"select", PLINTH_ACL_FAST | PLINTH_ACL_CONNECTION, 0, -1, {}},
      {"publish", PLINTH_ACL_PUBSUB | PLINTH_ACL_FAST, 0, -1, {}},
      {"psubscribe", PLINTH_ACL_PUBSUB | PLINTH_ACL_SLOW, 0, -1, {}},
      {"auth", PLINTH_ACL_CONNECTION | PLINTH_ACL_FAST, PLINTH_CMD_NOAUTH, -1, {}},
      {"config|get", PLINTH_ACL_ADMIN | PLINTH_ACL_SLOW | PLINTH_ACL_DANGEROUS, 0, 3, {}},
      {"config|set", PLINTH_ACL_ADMIN | PLINTH_ACL_SLOW | PLINTH_ACL_DANGEROUS, 0, 3, {}},
  };
  CommandTable t;
  t.Assign(std::move(e));
  return t;
}

// The user after applying words, or the first refusal in *err.
User Apply(const CommandTable& t, std::vector<std::string> words, std::string* err = nullptr) {
  User u = NewUser("u", false);
  for (const std::string& w : words) {
    std::string why = ApplyUserRule(u, w, t, false);
    if (!why.empty()) {
      if (err) *err = why;
      break;
    }
  }
  return u;
}

Denial Run(const CommandTable& t, User& u, const std::string& cmd,
           std::vector<std::string_view> argv, std::vector<plinth_key_ref_t> refs = {}) {
  CallView v;
  v.command = t.Find(cmd);
  v.argv = std::move(argv);
  v.refs = std::move(refs);
  int32_t arg = -1;
  Denial worst = Check(u.root, const_cast<CommandTable&>(t), v, &arg);
  for (Selector& s : u.selectors) {
    if (worst == kAllowed) break;
    const Denial d = Check(s, t, v, &arg);
    if (d == kAllowed || d > worst) worst = d;
  }
  return worst;
}

constexpr uint32_t R = PLINTH_KEY_READ, W = PLINTH_KEY_WRITE;

}  // namespace

TEST_CASE("acl rules: commands, categories and subcommands, in the order given") {
  const CommandTable t = Table();
  User u = Apply(t, {"+@all", "-@string", "+get"});
  CHECK(Run(t, u, "get", {"get", "k"}) == kAllowed);
  CHECK(Run(t, u, "set", {"set", "k", "v"}) == kDeniedCommand);
  CHECK(Run(t, u, "hset", {"hset", "h", "f", "v"}) == kAllowed);
  CHECK(DescribeCommands(u.root) == "+@all -@string +get");

  u = Apply(t, {"-@all", "+config|get", "+select|0"});
  CHECK(Run(t, u, "config|get", {"config", "get", "x"}) == kAllowed);
  CHECK(Run(t, u, "config|set", {"config", "set", "x", "y"}) == kDeniedCommand);
  CHECK(Run(t, u, "select", {"select", "0"}) == kAllowed);
  CHECK(Run(t, u, "select", {"select", "1"}) == kDeniedCommand);
  CHECK(Run(t, u, "auth", {"auth", "x"}) == kAllowed);  // allowed before authentication

  // A later rule for a command drops the earlier ones about it and its subcommands.
  u = Apply(t, {"-@all", "+config|get", "+get", "-config", "+config"});
  CHECK(DescribeCommands(u.root) == "-@all +get +config");
  CHECK(Run(t, u, "config|set", {"config", "set", "x", "y"}) == kAllowed);
  u = Apply(t, {"+@all", "-@admin", "allcommands"});
  CHECK(DescribeCommands(u.root) == "+@all");
  u = Apply(t, {"+@all", "nocommands", "+GET"});
  CHECK(DescribeCommands(u.root) == "-@all +get");

  std::string err;
  Apply(t, {"+nosuch"}, &err);
  CHECK(err == "Unknown command or category name in ACL");
  Apply(t, {"+@nosuch"}, &err);
  CHECK(err == "Unknown command or category name in ACL");
  Apply(t, {"+config|nosuch"}, &err);
  CHECK(err == "Unknown command or category name in ACL");
  Apply(t, {"-select|0"}, &err);
  CHECK(err == "Unknown command or category name in ACL");
  Apply(t, {"+config|get|x"}, &err);
  CHECK(err == "Unknown command or category name in ACL");
  Apply(t, {"bogus"}, &err);
  CHECK(err == "Syntax error");
}

TEST_CASE("acl rules: key patterns for reading, writing or both") {
  const CommandTable t = Table();
  User u = Apply(t, {"+@all", "%R~r:*", "%W~w:*", "~rw:*"});
  CHECK(Run(t, u, "get", {"get", "r:1"}, {{1, R}}) == kAllowed);
  CHECK(Run(t, u, "get", {"get", "w:1"}, {{1, R}}) == kDeniedKey);
  CHECK(Run(t, u, "set", {"set", "w:1", "v"}, {{1, W}}) == kAllowed);
  CHECK(Run(t, u, "set", {"set", "r:1", "v"}, {{1, W}}) == kDeniedKey);
  CHECK(Run(t, u, "set", {"set", "rw:1", "v"}, {{1, R | W}}) == kAllowed);
  CHECK(Run(t, u, "set", {"set", "w:1", "v"}, {{1, R | W}}) == kDeniedKey);
  CHECK(Run(t, u, "get", {"get", "zzz"}, {{1, 0}}) == kDeniedKey);  // no pattern names it
  CHECK(DescribeKeys(u.root) == "%R~r:* %W~w:* ~rw:*");
  // The same pattern twice merges its permissions.
  u = Apply(t, {"%R~k", "%W~k"});
  CHECK(DescribeKeys(u.root) == "~k");

  std::string err;
  u = Apply(t, {"allkeys", "~x"}, &err);
  CHECK(err.find("Adding a pattern after the * pattern (or the 'allkeys' flag)") == 0);
  err.clear();
  u = Apply(t, {"allkeys", "~*", "resetkeys", "~x"}, &err);  // ~* again is allowed
  CHECK(err.empty());
  CHECK(DescribeKeys(u.root) == "~x");
  Apply(t, {"%X~a"}, &err);
  CHECK(err == "Syntax error");
}

TEST_CASE("acl rules: channels match by glob, channel patterns only literally") {
  const CommandTable t = Table();
  User u = Apply(t, {"+@all", "allkeys", "&news.*"});
  CHECK(Run(t, u, "publish", {"publish", "news.a", "m"}, {{1, PLINTH_KEY_CHANNEL}}) == kAllowed);
  CHECK(Run(t, u, "publish", {"publish", "sport", "m"}, {{1, PLINTH_KEY_CHANNEL}}) ==
        kDeniedChannel);
  const uint32_t pattern = PLINTH_KEY_CHANNEL | PLINTH_KEY_PATTERN;
  CHECK(Run(t, u, "psubscribe", {"psubscribe", "news.*"}, {{1, pattern}}) == kAllowed);
  CHECK(Run(t, u, "psubscribe", {"psubscribe", "news.a"}, {{1, pattern}}) == kDeniedChannel);
  CHECK(Describe(u.root) == "~* resetchannels &news.* +@all");
  std::string err;
  Apply(t, {"allchannels", "&x"}, &err);
  CHECK(err.find("(or the 'allchannels' flag)") != std::string::npos);
}

TEST_CASE("acl rules: selectors allow what the root refuses and the worst refusal is reported") {
  const CommandTable t = Table();
  std::vector<std::string> merged;
  std::string err;
  REQUIRE(MergeSelectorWords({"-@all", "+get", "~a:*", "(+set", "~b:*)"}, &merged, &err));
  CHECK(merged == std::vector<std::string>{"-@all", "+get", "~a:*", "(+set ~b:*)"});
  std::vector<std::string> unclosed;
  CHECK_FALSE(MergeSelectorWords({"(+set", "~b:*"}, &unclosed, &err));
  CHECK(err == "Unmatched parenthesis in acl selector starting at '(+set'.");

  User u = Apply(t, merged);
  CHECK(Run(t, u, "get", {"get", "a:1"}, {{1, R}}) == kAllowed);
  CHECK(Run(t, u, "set", {"set", "b:1", "v"}, {{1, W}}) == kAllowed);
  CHECK(Run(t, u, "get", {"get", "b:1"}, {{1, R}}) == kDeniedKey);
  CHECK(Run(t, u, "set", {"set", "a:1", "v"}, {{1, W}}) == kDeniedKey);  // key beats command
  CHECK(Run(t, u, "hset", {"hset", "a:1", "f", "v"}, {{1, W}}) == kDeniedCommand);
  CHECK(DescribeUser(u) == "off ~a:* resetchannels -@all +get (~b:* resetchannels -@all +set)");
  ApplyUserRule(u, "clearselectors", t, false);
  CHECK(u.selectors.empty());
}

TEST_CASE("acl users: passwords are SHA-256 hashes, reset and the default user") {
  const CommandTable t = Table();
  CHECK(PasswordHash("pw") == "30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4");
  User u = Apply(t, {"on", ">pw", ">pw"});
  CHECK(u.passwords.size() == 1);
  CHECK(PasswordMatches(u, "pw"));
  CHECK_FALSE(PasswordMatches(u, "pW"));
  CHECK(ApplyUserRule(u, "<nope", t, false) ==
        "The password you are trying to remove from the user does not exist");
  CHECK(ApplyUserRule(u, "#abc", t, false).find("The password hash must be exactly 64") == 0);
  CHECK(ApplyUserRule(u, "!" + PasswordHash("pw"), t, false).empty());
  CHECK(u.passwords.empty());
  CHECK(ApplyUserRule(u, "nopass", t, false).empty());
  CHECK(u.nopass);
  CHECK(ApplyUserRule(u, ">x", t, false).empty());
  CHECK_FALSE(u.nopass);
  CHECK(ApplyUserRule(u, "reset", t, false).empty());
  CHECK(DescribeUser(u) == "off resetchannels -@all");

  Users users;
  User& d = users.default_user();
  CHECK(DescribeUser(d) == "on nopass ~* &* +@all");
  CHECK(Unrestricted(d));
  User* a = users.FindOrCreate("alice", false);
  const uint64_t id = a->id;
  CHECK(id != d.id);
  CHECK_FALSE(Unrestricted(*a));
  User copy = *a;
  copy.enabled = true;
  CHECK(users.Put(copy)->id == id);  // replacing keeps the id
  CHECK(users.FindId(id)->enabled);
  CHECK(users.Erase("alice"));
  CHECK(users.FindId(id) == nullptr);
  CHECK(users.FindOrCreate("alice", false)->id != id);  // ids are never reused
}
