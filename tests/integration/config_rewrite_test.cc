// CONFIG REWRITE and DEBUG on the real server: CONFIG SET values written back to the JSON
// config file survive a restart, the file keeps its plugin list and its mode; DEBUG is refused
// unless enable-debug-command allows it, as in Redis 7.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_server.h"

using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

const std::vector<std::string> kPlugins = {
    "--no-default-plugins", "--plugin", "resp",   "--plugin", "tcp",     "--plugin",
    "connection",           "--plugin", "server", "--plugin", "strings", "--plugin",
    "diagnostics"};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Bulk(const std::string& s) {
  return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
}

// A config file in a directory of its own, removed with it.
struct ConfigDir {
  ConfigDir() {
    char tmpl[] = "/tmp/plinth-rewrite-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    dir = tmpl;
    path = dir + "/plinth.json";
  }
  ~ConfigDir() {
    std::remove(path.c_str());
    rmdir(dir.c_str());
  }
  std::string dir, path;
};

}  // namespace

TEST_CASE("config rewrite: CONFIG SET values reach the JSON file and survive a restart") {
  ConfigDir d;
  {
    std::ofstream f(d.path);
    f << R"({
  "bind": "127.0.0.1",
  "databases": 4,
  "plugins": ["resp", "tcp", "connection", "server", "strings",
              {"name": "diagnostics", "options": {"slowlog-max-len": 5}}]
})";
  }
  REQUIRE(chmod(d.path.c_str(), 0640) == 0);
  {
    TestServer s({"--config", d.path});
    RespConn c(s.port());
    CHECK(c.Cmd({"CONFIG", "SET", "slowlog-max-len", "9", "slowlog-log-slower-than", "77"}) ==
          "+OK\r\n");
    CHECK(c.Cmd({"CONFIG", "REWRITE"}) == "+OK\r\n");
  }
  const std::string text = ReadFile(d.path);
  CHECK(text.find(R"({"name": "diagnostics", "options": {"slowlog-max-len": 9}})") !=
        std::string::npos);
  CHECK(text.find(R"("slowlog-log-slower-than": 77)") != std::string::npos);
  CHECK(text.find(R"("databases": 4)") != std::string::npos);
  CHECK(text.find(R"("plugins": [)") != std::string::npos);
  struct stat st;
  REQUIRE(stat(d.path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);

  TestServer again({"--config", d.path});
  RespConn c(again.port());
  CHECK(c.Cmd({"CONFIG", "GET", "slowlog-max-len"}) ==
        "*2\r\n" + Bulk("slowlog-max-len") + Bulk("9"));
  CHECK(c.Cmd({"CONFIG", "GET", "slowlog-log-slower-than"}) ==
        "*2\r\n" + Bulk("slowlog-log-slower-than") + Bulk("77"));
  CHECK(c.Cmd({"CONFIG", "GET", "databases"}) == "*2\r\n" + Bulk("databases") + Bulk("4"));
}

TEST_CASE("config rewrite: a server started without a config file says so, as Redis") {
  TestServer s(kPlugins);
  RespConn c(s.port());
  CHECK(c.Cmd({"CONFIG", "REWRITE"}) == "-ERR The server is running without a config file\r\n");
}

TEST_CASE("debug: refused by default with Redis's text, allowed by enable-debug-command") {
  {
    TestServer s(kPlugins);
    RespConn c(s.port());
    CHECK(c.Cmd({"DEBUG", "SLEEP", "0"}) ==
          "-ERR DEBUG command not allowed. If the enable-debug-command option is set to "
          "\"local\", you can run it from a local connection, otherwise you need to set this "
          "option in the configuration file, and then restart the server.\r\n");
  }
  for (const char* mode : {"yes", "local"}) {
    std::vector<std::string> args = kPlugins;
    args.insert(args.end(), {"--enable-debug-command", mode});
    TestServer s(args);
    RespConn c(s.port());
    CHECK_MESSAGE(c.Cmd({"DEBUG", "SLEEP", "0"}) == "+OK\r\n", mode);
    CHECK(c.Cmd({"SET", "k", "v"}) == "+OK\r\n");
    CHECK(c.Cmd({"DEBUG", "OBJECT", "k"}).find("encoding:embstr serializedlength:2") !=
          std::string::npos);
    CHECK(c.Cmd({"DEBUG", "NOPE"}) ==
          "-ERR unknown subcommand or wrong number of arguments for 'NOPE'. Try DEBUG "
          "HELP.\r\n");
  }
}
