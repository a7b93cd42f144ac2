// Command tests of XGROUP and XACK: subcommands, their checks and events.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

TEST_CASE("stream xgroup: create, setid, consumers and destroy") {
  Fixture f;
  CHECK(f.R("XGROUP CREATE s g $") ==
        "!ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want "
        "to use the MKSTREAM option to create an empty stream automatically.");
  CHECK(f.R("XGROUP CREATE s g $ MKSTREAM") == "OK");
  CHECK(f.R("XGROUP CREATE s g $") == "!BUSYGROUP Consumer Group name already exists");
  CHECK(f.Events() == V{"xgroup-create s"});
  CHECK(f.R("XGROUP SETID s g 5-5 ENTRIESREAD 3") == "OK");
  CHECK(f.R("XINFO GROUPS s") ==
        "[{name g consumers :0 pending :0 last-delivered-id 5-5 "
        "entries-read :3 lag :0}]");
  CHECK(f.R("XGROUP SETID s nog 0") == "!NOGROUP No such consumer group 'nog' for key name 's'");
  CHECK(f.R("XGROUP CREATECONSUMER s g alice") == ":1");
  CHECK(f.R("XGROUP CREATECONSUMER s g alice") == ":0");
  CHECK(f.R("XGROUP DELCONSUMER s g alice") == ":0");
  CHECK(f.R("XGROUP DELCONSUMER s g alice") == ":0");
  CHECK(f.Events() == V{"xgroup-setid s", "xgroup-createconsumer s", "xgroup-delconsumer s"});
  CHECK(f.R("XGROUP DESTROY s g") == ":1");
  CHECK(f.R("XGROUP DESTROY s g") == ":0");
  CHECK(f.R("XGROUP CREATE s") == "!ERR wrong number of arguments for 'xgroup|create' command");
  CHECK(f.R("XGROUP FOO") == "!ERR unknown subcommand 'FOO'. Try XGROUP HELP.");
  CHECK(f.R("XGROUP CREATE s g $ BAR") ==
        "!ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.");
  CHECK(f.R("XGROUP HELP").rfind("[XGROUP <subcommand>", 0) == 0);
}

TEST_CASE("stream xack: acknowledges pending entries only") {
  Fixture f;
  f.R("XADD s 1-1 f v");
  f.R("XADD s 1-2 f v");
  f.R("XGROUP CREATE s g 0");
  f.R("XREADGROUP GROUP g c STREAMS s >");
  CHECK(f.R("XACK s g 1-1 1-1 9-9") == ":1");
  CHECK(f.R("XACK s g bad") == "!ERR Invalid stream ID specified as stream command argument");
  CHECK(f.R("XACK s nog 1-2") == ":0");
  CHECK(f.R("XPENDING s g") == "[:1 1-2 1-2 [[c 1]]]");
}

}  // namespace
}  // namespace plinth::stream::test
