// Command tests of XREAD and XREADGROUP: synchronous reads, BLOCK through the fake host's
// clients (woken by XADD, "$" resolved when blocking, timeouts, MULTI), and group reads.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

TEST_CASE("stream xread: reads past the given ids") {
  Fixture f;
  f.R("XADD a 1-1 f 1");
  f.R("XADD b 2-1 g 2");
  CHECK(f.R("XREAD STREAMS a b 0 0") == "[[a [[1-1 [f 1]]]] [b [[2-1 [g 2]]]]]");
  CHECK(f.R("XREAD STREAMS a b 1-1 0") == "[[b [[2-1 [g 2]]]]]");
  CHECK(f.R("XREAD STREAMS a $") == "nilarray");
  f.host.SetProtocol(3);
  CHECK(f.R("XREAD STREAMS a 0") == "{a [[1-1 [f 1]]]}");
  f.host.SetProtocol(2);
  CHECK(f.R("XREAD STREAMS a b 0") ==
        "!ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
        "specified.");
  CHECK(f.R("XREAD BLOCK -1 STREAMS a 0") == "!ERR timeout is negative");
  CHECK(f.R("XREAD STREAMS a >") ==
        "!ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
        "<consumer> option.");
}

TEST_CASE("stream xread: a blocked reader is woken by XADD past the '$' it saw") {
  Fixture f;
  f.R("XADD s 1-1 f v");
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, "XREAD BLOCK 0 STREAMS s $") == "(blocked)");
  CHECK(f.RunAs(c3, "XREAD BLOCK 1000 STREAMS nokey 0") == "(blocked)");
  CHECK(f.R("XADD s 2-1 g w") == "2-1");
  CHECK(f.Taken(c2) == "[[s [[2-1 [g w]]]]]");
  CHECK(f.host.Blocked(c3));
  CHECK(f.R("XADD nokey 3-1 h x") == "3-1");
  CHECK(f.Taken(c3) == "[[nokey [[3-1 [h x]]]]]");
}

TEST_CASE("stream xread: timeouts and MULTI answer a null array") {
  Fixture f;
  const uint64_t c2 = f.host.AddClient();
  CHECK(f.RunAs(c2, "XREAD BLOCK 100 STREAMS s $") == "(blocked)");
  f.host.AdvanceTimeMs(150);
  CHECK(f.Taken(c2) == "nilarray");
  CHECK(f.R("MULTI") == "OK");
  CHECK(f.R("XREAD BLOCK 0 STREAMS s $") == "QUEUED");
  CHECK(f.R("EXEC") == "[nilarray]");
}

TEST_CASE("stream xreadgroup: delivers, records the PEL and propagates XCLAIM") {
  Fixture f;
  f.R("XADD s 1-1 a 1");
  f.R("XADD s 1-2 b 2");
  f.R("XGROUP CREATE s g 0");
  f.Propagated();
  CHECK(f.R("XREADGROUP GROUP g alice COUNT 1 STREAMS s >") == "[[s [[1-1 [a 1]]]]]");
  CHECK(f.Propagated() ==
        V{"MULTI", "XGROUP CREATECONSUMER s g alice",
          "XCLAIM s g alice 0 1-1 TIME 1700000000000 RETRYCOUNT 1 FORCE JUSTID LASTID 1-1",
          "EXEC"});
  CHECK(f.R("XREADGROUP GROUP g alice STREAMS s 0") == "[[s [[1-1 [a 1]]]]]");
  CHECK(f.Propagated().empty());
  CHECK(f.R("XREADGROUP GROUP g bob NOACK STREAMS s >") == "[[s [[1-2 [b 2]]]]]");
  CHECK(f.Propagated() ==
        V{"MULTI", "XGROUP CREATECONSUMER s g bob", "XGROUP SETID s g 1-2 ENTRIESREAD 2", "EXEC"});
  CHECK(f.R("XPENDING s g") == "[:1 1-1 1-1 [[alice 1]]]");
  CHECK(f.R("XREADGROUP GROUP nog c STREAMS s >") ==
        "!NOGROUP No such key 's' or consumer group 'nog' in XREADGROUP with GROUP option");
}

TEST_CASE("stream xreadgroup: a blocked consumer is woken, or told its group went") {
  Fixture f;
  f.R("XGROUP CREATE s g $ MKSTREAM");
  const uint64_t c2 = f.host.AddClient(), c3 = f.host.AddClient();
  CHECK(f.RunAs(c2, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >") == "(blocked)");
  f.R("XADD s 1-1 f v");
  CHECK(f.Taken(c2) == "[[s [[1-1 [f v]]]]]");
  CHECK(f.R("XPENDING s g") == "[:1 1-1 1-1 [[alice 1]]]");
  CHECK(f.RunAs(c3, "XREADGROUP GROUP g bob BLOCK 0 STREAMS s >") == "(blocked)");
  CHECK(f.R("XGROUP DESTROY s g") == ":1");
  CHECK(f.Taken(c3) == "!NOGROUP the consumer group this client was blocked on no longer exists");
}

}  // namespace
}  // namespace plinth::stream::test
