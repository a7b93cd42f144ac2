// The acl plugin inside the fake host: a restricted user's commands are checked by the host
// before they run (commands, keys, MULTI), ACL commands change what a user may do at once, and
// another plugin can ask whether its client may run a command or touch a key
// (acl_check_command, acl_check_key). A small plugin in this file provides "login user pass"
// (client_authenticate, allowed before authentication), "get key"/"set key value" (a read and a
// write with their keys) and "probe key" (asks both functions and answers what they said).
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

const plinth_host_api_t* g_api = nullptr;

std::string Arg(plinth_call_t* c, int32_t i) {
  size_t len = 0;
  const char* p = g_api->call_arg(c, i, &len);
  return std::string(p, len);
}

void Login(plinth_call_t* c, void*) {
  const std::string user = Arg(c, 1), pass = Arg(c, 2);
  if (g_api->client_authenticate(c, user.data(), user.size(), pass.data(), pass.size()) ==
      PLINTH_OK)
    return g_api->reply_simple(c, "OK", 2);
  g_api->reply_error(c, "WRONGPASS", 9);
}

void Value(plinth_call_t* c, void*) { g_api->reply_simple(c, "OK", 2); }

void Probe(plinth_call_t* c, void*) {
  const std::string key = Arg(c, 1);
  const char* argv[] = {"set", key.c_str(), "v"};
  const size_t lens[] = {3, key.size(), 1};
  char err[256] = "";
  const int32_t cmd = g_api->acl_check_command(c, 3, argv, lens, err, sizeof err);
  const int32_t read = g_api->acl_check_key(c, key.data(), key.size(), PLINTH_KEY_READ);
  const std::string out = std::string(cmd == PLINTH_OK ? "set:ok" : err) +
                          (read == PLINTH_OK ? " read:ok" : " read:no");
  g_api->reply_bulk(c, out.data(), out.size());
}

int32_t TestInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  g_api = api;
  struct Def {
    const char* name;
    int32_t arity;
    uint32_t flags;
    int32_t first_key;
    plinth_command_fn fn;
  };
  const Def defs[] = {{"login", 3, PLINTH_CMD_NOAUTH, 0, Login},
                      {"get", 2, PLINTH_CMD_READONLY, 1, Value},
                      {"set", 3, PLINTH_CMD_WRITE, 1, Value},
                      {"probe", 2, PLINTH_CMD_READONLY, 0, Probe}};
  for (const Def& d : defs) {
    plinth_command_spec_t s{};
    s.struct_size = sizeof s;
    s.name = d.name;
    s.arity = d.arity;
    s.flags = d.flags;
    s.first_key = s.last_key = s.key_step = d.first_key;
    s.handler = d.fn;
    if (d.fn == Value && d.flags == PLINTH_CMD_WRITE) s.key_flags = PLINTH_KEY_WRITE;
    if (api->command_register(self, &s) != PLINTH_OK) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

const plinth_plugin_descriptor_t kTest = {sizeof(plinth_plugin_descriptor_t),
                                          PLINTH_ABI_MAJOR,
                                          PLINTH_ABI_MINOR,
                                          0,
                                          "acltest",
                                          "1",
                                          "commands for the ACL tests",
                                          TestInit,
                                          nullptr,
                                          {nullptr, nullptr, nullptr, nullptr}};

struct Fixture {
  Fixture() {
    REQUIRE_MESSAGE(host.Load(&kTest, "acltest"), host.LoadError());
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "acl.so"), host.LoadError());
  }
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  plinth::fakehost::FakeHost host;
};

}  // namespace

TEST_CASE("acl in the host: a restricted user's commands and keys are checked before they run") {
  Fixture f;
  CHECK(f.Run({"acl", "setuser", "u", "on", ">pw", "+get", "+set", "+probe", "+multi", "+exec",
               "%R~r:*", "~rw:*"}) == "OK");
  CHECK(f.Run({"login", "u", "nope"}) == "(error) WRONGPASS");
  CHECK(f.Run({"acl", "whoami"}) == "\"default\"");
  CHECK(f.Run({"login", "u", "pw"}) == "OK");
  CHECK(f.Run({"get", "r:1"}) == "OK");
  CHECK(f.Run({"set", "r:1", "x"}) ==
        "(error) NOPERM this user has no permissions to access one of the keys used as "
        "arguments");
  CHECK(f.Run({"set", "rw:1", "x"}) == "OK");
  CHECK(f.Run({"acl", "whoami"}) ==
        "(error) NOPERM this user has no permissions to run the 'acl|whoami' command");

  // Inside MULTI a refused command aborts the transaction, as Redis does.
  CHECK(f.Run({"multi"}) == "OK");
  CHECK(f.Run({"set", "r:2", "x"}).find("NOPERM") != std::string::npos);
  CHECK(f.Run({"exec"}).find("EXECABORT") != std::string::npos);

  // Another plugin asks on its client's behalf.
  CHECK(f.Run({"probe", "rw:1"}) == "\"set:ok read:ok\"");
  CHECK(f.Run({"probe", "r:1"}) ==
        "\"NOPERM this user has no permissions to access one of the keys used as arguments "
        "read:ok\"");
  CHECK(f.Run({"probe", "zz"}) ==
        "\"NOPERM this user has no permissions to access one of the keys used as arguments "
        "read:no\"");

  // Rules change for the logged-in client at once; the default user is not checked at all.
  CHECK(f.Run({"login", "default", "x"}) == "OK");  // default: nopass
  CHECK(f.Run({"acl", "setuser", "u", "allkeys", "+acl"}) == "OK");
  CHECK(f.Run({"login", "u", "pw"}) == "OK");
  CHECK(f.Run({"set", "r:1", "x"}) == "OK");
  CHECK(f.Run({"acl", "whoami"}) == "\"u\"");
  CHECK(f.Run({"acl", "setuser", "u", "-set"}) == "OK");
  CHECK(f.Run({"set", "r:1", "x"}) ==
        "(error) NOPERM this user has no permissions to run the 'set' command");
  const plinth::fakehost::Reply log = f.host.Call({"acl", "log", "1"});
  REQUIRE(log.elements.size() == 1);
  CHECK(log.elements[0].elements[3].str == "command");
  CHECK(log.elements[0].elements[7].str == "set");
  CHECK(log.elements[0].elements[9].str == "u");
}

TEST_CASE("acl in the host: requirepass is the default user's password") {
  Fixture f;
  REQUIRE(f.host.SetOption("requirepass", "s3cret"));
  CHECK(f.Run({"acl", "getuser", "default"}).find("nopass") == std::string::npos);
  CHECK(f.Run({"login", "default", "wrong"}) == "(error) WRONGPASS");
  CHECK(f.Run({"login", "default", "s3cret"}) == "OK");
  REQUIRE(f.host.SetOption("requirepass", ""));
  CHECK(f.Run({"acl", "getuser", "default"}).find("nopass") != std::string::npos);
}
