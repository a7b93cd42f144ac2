// Command tests of XINFO: STREAM (and FULL), GROUPS with lag, CONSUMERS, errors.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

TEST_CASE("stream xinfo: stream, full form, groups and consumers") {
  Fixture f;
  f.R("XADD s 1-1 a 1");
  f.R("XADD s 1-2 b 2");
  CHECK(f.R("XINFO STREAM s") ==
        "{length :2 radix-tree-keys :1 radix-tree-nodes :2 last-generated-id 1-2 "
        "max-deleted-entry-id 0-0 entries-added :2 recorded-first-entry-id 1-1 groups :0 "
        "first-entry [1-1 [a 1]] last-entry [1-2 [b 2]]}");
  f.R("XGROUP CREATE s g 0");
  f.R("XREADGROUP GROUP g c COUNT 1 STREAMS s >");
  CHECK(f.R("XINFO GROUPS s") ==
        "[{name g consumers :1 pending :1 last-delivered-id 1-1 "
        "entries-read :1 lag :1}]");
  f.host.AdvanceTimeMs(20);
  CHECK(f.R("XINFO CONSUMERS s g") == "[{name c pending :1 idle :20}]");
  CHECK(f.R("XINFO STREAM s FULL COUNT 1") ==
        "{length :2 radix-tree-keys :1 radix-tree-nodes :2 last-generated-id 1-2 "
        "max-deleted-entry-id 0-0 entries-added :2 recorded-first-entry-id 1-1 entries "
        "[[1-1 [a 1]]] groups [{name g last-delivered-id 1-1 entries-read :1 lag :1 pel-count :1 "
        "pending [[1-1 c :1700000000000 :1]] consumers [{name c seen-time :1700000000000 "
        "pel-count :1 pending [[1-1 :1700000000000 :1]]}]}]}");
  CHECK(f.R("XINFO STREAM nokey") == "!ERR no such key");
  CHECK(f.R("XINFO STREAM s FULL X") ==
        "!ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.");
  CHECK(f.R("XINFO CONSUMERS s nog") == "!NOGROUP No such consumer group 'nog' for key name 's'");
  CHECK(f.R("XINFO") == "!ERR wrong number of arguments for 'xinfo' command");
}

}  // namespace
}  // namespace plinth::stream::test
