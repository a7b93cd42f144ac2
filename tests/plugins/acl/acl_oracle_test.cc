// No existence oracle (issue 31, item 8): a user limited to ~allowed* gets the same NOPERM reply
// for a denied key whether it exists (of any type) or not, for every command shape: the host
// asks the ACL provider before the command runs, so no handler can answer first (WRONGTYPE,
// nil, 0, a type name). The built plugins are loaded into the fake host, as in the server.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

using plinth::fakehost::FakeHost;

namespace {

constexpr const char* kNoPerm =
    "NOPERM this user has no permissions to access one of the keys used as arguments";

std::string PluginPath(const char* name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

// argv of shape with every "{k}" replaced by key.
std::vector<std::string> Fill(const std::vector<std::string>& shape, const std::string& key) {
  std::vector<std::string> out;
  for (std::string a : shape) {
    for (size_t at; (at = a.find("{k}")) != std::string::npos;) a.replace(at, 3, key);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

TEST_CASE("acl: NOPERM for a denied key says nothing of whether it exists or its type") {
  FakeHost host;
  for (const char* p : {"connection", "strings", "keys", "list", "hash", "set", "zset", "stream",
                        "scripting", "acl"})
    REQUIRE_MESSAGE(host.LoadFile(PluginPath(p)), host.LoadError());
  REQUIRE(host.Call({"ACL", "SETUSER", "u", "on", ">p", "~allowed*", "+@all"}).str == "OK");
  REQUIRE(host.Call({"SET", "secret:s", "v"}).str == "OK");
  REQUIRE(host.Call({"RPUSH", "secret:l", "a"}).integer == 1);
  REQUIRE(host.Call({"HSET", "secret:h", "f", "v"}).integer == 1);
  REQUIRE(host.Call({"XADD", "secret:x", "*", "f", "v"}).type !=
          plinth::fakehost::ReplyType::kError);
  REQUIRE(host.Call({"SET", "allowed1", "v"}).str == "OK");
  REQUIRE(host.Call({"RPUSH", "allowedl", "a"}).integer == 1);
  const uint64_t u = host.AddClient();
  REQUIRE(host.CallAs(u, {"AUTH", "u", "p"})->str == "OK");

  // Reads, writes, WRONGTYPE-able commands (INCR, LPUSH, HGET on the other types), type and
  // existence probes, and commands where the denied key is the second one.
  const std::vector<std::vector<std::string>> shapes = {
      {"GET", "{k}"},
      {"INCR", "{k}"},
      {"SET", "{k}", "v", "NX"},
      {"LPUSH", "{k}", "x"},
      {"LPOS", "{k}", "a"},
      {"HGET", "{k}", "f"},
      {"SADD", "{k}", "m"},
      {"ZSCORE", "{k}", "m"},
      {"XLEN", "{k}"},
      {"TYPE", "{k}"},
      {"EXISTS", "{k}"},
      {"TTL", "{k}"},
      {"DEL", "{k}"},
      {"OBJECT", "ENCODING", "{k}"},
      {"MEMORY", "USAGE", "{k}"},
      {"RENAME", "allowed1", "{k}"},
      {"RENAME", "{k}", "allowed2"},
      {"COPY", "allowed1", "{k}"},
      {"MGET", "allowed1", "{k}"},
      {"LMOVE", "allowedl", "{k}", "LEFT", "LEFT"},
      {"XREAD", "STREAMS", "{k}", "0"},
      {"WATCH", "{k}"},
      {"EVAL", "return redis.call('get', KEYS[1])", "1", "{k}"},
  };
  for (const auto& shape : shapes) {
    for (const char* key : {"secret:s", "secret:l", "secret:h", "secret:x", "secret:none"}) {
      const std::vector<std::string> argv = Fill(shape, key);
      CAPTURE(argv);
      CHECK(host.CallAs(u, argv)->str == kNoPerm);
    }
  }
  // Inside a script, the same error whatever the key (only the script's sha differs).
  const std::string in_script = "return redis.call('type', '{k}')";
  std::vector<std::string> errors;
  for (const char* key : {"secret:s", "secret:l", "secret:none"}) {
    std::string r = host.CallAs(u, {"EVAL", Fill({in_script}, key)[0], "0"})->str;
    const size_t cut = r.find("script: ");
    errors.push_back(r.substr(0, cut));
  }
  CHECK(errors[0].rfind("ERR The user executing the script can't access", 0) == 0);
  CHECK(errors[0] == errors[1]);
  CHECK(errors[0] == errors[2]);
  // And the keys themselves are untouched.
  CHECK(host.Call({"TYPE", "secret:l"}).str == "list");
  CHECK(host.Call({"EXISTS", "secret:none"}).integer == 0);
}
