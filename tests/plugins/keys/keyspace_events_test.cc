// The generic keyspace events the keys plugin raises, exactly where Redis 7.0 raises them
// (checked against redis-server 7.0.15 with notify-keyspace-events KEA): heard by a helper
// plugin's keyspace listener, as "event key@db". The host's own "new" events are left out.
#include <utility>

#include "keys_fixture.h"

namespace plinth::keys::test {
namespace {

std::vector<std::string> heard;

void OnEvent(void*, int32_t db, uint32_t type, const char* event, const char* key, size_t klen) {
  if (type != PLINTH_NOTIFY_GENERIC) return;
  heard.push_back(std::string(event) + " " + std::string(key, klen) + "@" + std::to_string(db));
}

int32_t InitListener(plinth_plugin_t* self, const plinth_host_api_t* api) {
  return api->keyspace_listener_register(self, &OnEvent, nullptr);
}

const plinth_plugin_descriptor_t kListener = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "events",
                                              "1",
                                              "records keyspace events for the keys tests",
                                              &InitListener,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

struct Events : Fixture {
  Events() {
    heard.clear();
    REQUIRE_MESSAGE(host.Load(&kListener, "events"), host.LoadError());
  }
  // The events since the last call.
  std::vector<std::string> Heard() { return std::exchange(heard, {}); }
};

using Lines = std::vector<std::string>;

TEST_CASE("keys events: DEL and UNLINK raise del for each deleted key") {
  Events f;
  f.host.PutString("a", "1");
  f.host.PutString("b", "1");
  CHECK(f.Run({"DEL", "a", "missing", "b"}) == "(integer) 2");
  CHECK(f.Heard() == Lines{"del a@0", "del b@0"});
  f.host.PutString("c", "1");
  CHECK(f.Run({"UNLINK", "c", "missing"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"del c@0"});
  f.Run({"DEL", "missing"});
  CHECK(f.Heard().empty());
}

TEST_CASE("keys events: the EXPIRE family raises expire when it sets a TTL") {
  Events f;
  f.host.PutString("k", "v");
  f.Run({"EXPIRE", "k", "100"});
  f.Run({"PEXPIRE", "k", "100000"});
  f.Run({"EXPIREAT", "k", std::to_string(kNow / 1000 + 100)});
  f.Run({"PEXPIREAT", "k", std::to_string(kNow + 100000)});
  CHECK(f.Heard() == Lines{"expire k@0", "expire k@0", "expire k@0", "expire k@0"});
}

TEST_CASE("keys events: EXPIRE that changes nothing raises nothing") {
  Events f;
  f.host.PutString("k", "v");
  f.Run({"EXPIRE", "k", "100"});
  f.Heard();
  CHECK(f.Run({"EXPIRE", "k", "50", "NX"}) == "(integer) 0");
  CHECK(f.Run({"EXPIRE", "k", "50", "GT"}) == "(integer) 0");
  CHECK(f.Run({"EXPIRE", "missing", "50"}) == "(integer) 0");
  f.Run({"EXPIRE", "k", "notanumber"});
  CHECK(f.Heard().empty());
}

TEST_CASE("keys events: a TTL already past deletes the key and raises del") {
  Events f;
  f.host.PutString("a", "v");
  f.host.PutString("b", "v");
  CHECK(f.Run({"EXPIRE", "a", "-1"}) == "(integer) 1");
  CHECK(f.Run({"EXPIREAT", "b", "1"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"del a@0", "del b@0"});
}

TEST_CASE("keys events: PERSIST raises persist only when it removed a TTL") {
  Events f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"PERSIST", "k"}) == "(integer) 0");
  CHECK(f.Heard().empty());
  f.Run({"EXPIRE", "k", "100"});
  f.Heard();
  CHECK(f.Run({"PERSIST", "k"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"persist k@0"});
}

TEST_CASE("keys events: RENAME and RENAMENX raise rename_from then rename_to") {
  Events f;
  f.host.PutString("a", "v");
  f.host.PutString("b", "v");
  CHECK(f.Run({"RENAME", "a", "b"}) == "OK");  // overwriting b raises no del, as Redis
  CHECK(f.Heard() == Lines{"rename_from a@0", "rename_to b@0"});
  CHECK(f.Run({"RENAME", "b", "b"}) == "OK");
  CHECK(f.Run({"RENAMENX", "b", "c"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"rename_from b@0", "rename_to c@0"});
  f.host.PutString("d", "v");
  CHECK(f.Run({"RENAMENX", "c", "d"}) == "(integer) 0");
  f.Run({"RENAME", "missing", "x"});
  CHECK(f.Heard().empty());
}

TEST_CASE("keys events: MOVE raises move_from here and move_to in the target db") {
  Events f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"MOVE", "k", "4"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"move_from k@0", "move_to k@4"});
  CHECK(f.host.CurrentDb() == 0);
  f.host.PutString("k", "v");
  f.host.PutString("k", "v", 4);
  CHECK(f.Run({"MOVE", "k", "4"}) == "(integer) 0");
  CHECK(f.Heard().empty());
}

TEST_CASE("keys events: COPY raises copy_to on the destination in its db") {
  Events f;
  f.host.PutString("src", "v");
  CHECK(f.Run({"COPY", "src", "dst"}) == "(integer) 1");
  CHECK(f.Run({"COPY", "src", "dst", "DB", "6"}) == "(integer) 1");
  CHECK(f.Run({"COPY", "src", "dst", "REPLACE"}) == "(integer) 1");
  CHECK(f.Heard() == Lines{"copy_to dst@0", "copy_to dst@6", "copy_to dst@0"});
  CHECK(f.host.CurrentDb() == 0);
  CHECK(f.Run({"COPY", "src", "dst"}) == "(integer) 0");
  CHECK(f.Heard().empty());
}

TEST_CASE("keys events: SWAPDB FLUSHDB FLUSHALL and reads raise none") {
  Events f;
  f.host.PutString("k", "v");
  f.Run({"EXISTS", "k"});
  f.Run({"TOUCH", "k"});
  f.Run({"TYPE", "k"});
  f.Run({"SWAPDB", "0", "1"});
  f.Run({"FLUSHDB"});
  f.Run({"FLUSHALL"});
  CHECK(f.Heard().empty());
}

}  // namespace
}  // namespace plinth::keys::test
