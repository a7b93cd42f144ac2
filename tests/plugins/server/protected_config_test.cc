// Protected configs through CONFIG SET (issue 31, row 5): a client cannot point the snapshot
// at another folder or file name (dir, dbfilename) unless enable-protected-configs allows it,
// with Redis 7.0's texts. The fake host runs with enable-protected-configs "local"; the rdb
// plugin is the built rdb.so.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "server_fixture.h"

namespace plinth::server::test {
namespace {

std::string Refused(const std::string& name, const char* why) {
  return "ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + why;
}

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

struct Rdb : Fixture {
  Rdb() {
    char tmpl[] = "/tmp/plinth-protected-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    dir = tmpl;
    host.SetOption("dir", dir);  // as the config file would
    host.SetOption("save", "");
    REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/rdb.so"),
                    host.LoadError());
  }
  ~Rdb() {
    std::remove((dir + "/dump.rdb").c_str());
    ::rmdir(dir.c_str());
  }
  std::string dir;
};

}  // namespace

TEST_CASE("config set: dir and dbfilename are protected, SAVE stays where the config put it") {
  Rdb f;
  const uint64_t remote = f.host.AddClient();
  CHECK(f.host.CallAs(remote, {"CONFIG", "SET", "dir", "/tmp"})->str ==
        Refused("dir", "can't set protected config"));
  CHECK(f.host.CallAs(remote, {"config", "set", "dbfilename", "authorized_keys"})->str ==
        Refused("dbfilename", "can't set protected config"));
  // With another option in the same CONFIG SET: nothing changes.
  CHECK(f.host.CallAs(remote, {"CONFIG", "SET", "rdbcompression", "no", "DIR", "/tmp"})->str ==
        Refused("DIR", "can't set protected config"));
  CHECK(f.host.GetOption("rdbcompression") == "yes");
  CHECK(f.host.GetOption("dir") == f.dir);
  CHECK(f.host.GetOption("dbfilename") == "dump.rdb");
  CHECK(f.host.CallAs(remote, {"SAVE"})->str == "OK");
  CHECK(Exists(f.dir + "/dump.rdb"));
  CHECK_FALSE(Exists("/tmp/authorized_keys"));
}

TEST_CASE("config set: a local client may set a protected option under \"local\"") {
  Rdb f;
  const uint64_t local = f.host.AddClient();
  f.host.SetClientLocal(local, true);
  CHECK(f.host.CallAs(local, {"CONFIG", "SET", "dbfilename", "other.rdb"})->str == "OK");
  CHECK(f.host.GetOption("dbfilename") == "other.rdb");
  CHECK(f.host.CallAs(local, {"CONFIG", "SET", "dbfilename", "dump.rdb"})->str == "OK");
  // enable-protected-configs and enable-debug-command never change at run time (Redis).
  for (const char* name : {"enable-protected-configs", "enable-debug-command"})
    CHECK(f.host.CallAs(local, {"CONFIG", "SET", name, "yes"})->str ==
          Refused(name, "can't set immutable config"));
}

}  // namespace plinth::server::test
