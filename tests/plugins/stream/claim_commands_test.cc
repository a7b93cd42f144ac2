// Command tests of XPENDING, XCLAIM and XAUTOCLAIM: idle filters, ownership moves, deleted
// entries and the propagation of each claim.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

void Setup(Fixture& f) {
  for (int i = 1; i <= 4; ++i) f.R("XADD s 1-" + std::to_string(i) + " f " + std::to_string(i));
  f.R("XGROUP CREATE s g 0");
  f.R("XREADGROUP GROUP g alice STREAMS s >");
  f.Propagated();
}

TEST_CASE("stream xpending: extended form with idle times") {
  Fixture f;
  Setup(f);
  f.host.AdvanceTimeMs(500);
  CHECK(f.R("XPENDING s g - + 2") == "[[1-1 alice :500 :1] [1-2 alice :500 :1]]");
  CHECK(f.R("XPENDING s g IDLE 600 - + 10") == "[]");
  CHECK(f.R("XPENDING s g - + 10 bob") == "[]");
  CHECK(f.R("XPENDING s g - + 1 alice") == "[[1-1 alice :500 :1]]");
  CHECK(f.R("XPENDING s g - +") == "!ERR syntax error");
  CHECK(f.R("XPENDING s nog") == "!NOGROUP No such key 's' or consumer group 'nog'");
}

TEST_CASE("stream xclaim: moves entries, honours min-idle and propagates") {
  Fixture f;
  Setup(f);
  f.host.AdvanceTimeMs(100);
  CHECK(f.R("XCLAIM s g bob 1000 1-1") == "[]");
  CHECK(f.R("XCLAIM s g bob 50 1-1 1-2 JUSTID") == "[1-1 1-2]");
  CHECK(f.Propagated() ==
        V{"MULTI", "XGROUP CREATECONSUMER s g bob",
          "XCLAIM s g bob 0 1-1 TIME 1700000000100 RETRYCOUNT 1 FORCE JUSTID LASTID 1-4",
          "XCLAIM s g bob 0 1-2 TIME 1700000000100 RETRYCOUNT 1 FORCE JUSTID LASTID 1-4", "EXEC"});
  CHECK(f.R("XCLAIM s g bob 0 1-3 RETRYCOUNT 9") == "[[1-3 [f 3]]]");
  CHECK(f.R("XPENDING s g - + 10 bob") == "[[1-1 bob :0 :1] [1-2 bob :0 :1] [1-3 bob :0 :9]]");
  f.R("XDEL s 1-4");
  CHECK(f.R("XCLAIM s g bob 0 1-4") == "[]");
  CHECK(f.R("XPENDING s g") == "[:3 1-1 1-3 [[bob 3]]]");
  CHECK(f.R("XCLAIM s g bob 0 1-1 FOO") == "!ERR Unrecognized XCLAIM option 'FOO'");
  CHECK(f.R("XCLAIM s g bob x 1-1") == "!ERR Invalid min-idle-time argument for XCLAIM");
}

TEST_CASE("stream xclaim and xautoclaim: extreme idle times and counts answer as Redis") {
  Fixture f;
  Setup(f);
  f.host.AdvanceTimeMs(100);
  // now - IDLE overflows for IDLE LLONG_MIN: the claim counts as delivered now (Redis too).
  CHECK(f.R("XCLAIM s g bob 0 1-1 IDLE -9223372036854775808 JUSTID") == "[1-1]");
  CHECK(f.R("XCLAIM s g bob 0 1-2 IDLE 9223372036854775807 JUSTID") == "[1-2]");
  CHECK(f.R("XCLAIM s g bob 0 1-3 TIME -9223372036854775808 JUSTID") == "[1-3]");
  CHECK(f.R("XPENDING s g - + 10 bob") == "[[1-1 bob :0 :1] [1-2 bob :0 :1] [1-3 bob :0 :1]]");
  CHECK(f.R("XCLAIM s g bob 9223372036854775807 1-1") == "[]");
  CHECK(f.R("XCLAIM s g bob -9223372036854775808 1-4 JUSTID") == "[1-4]");
  for (const char* n : {"-9223372036854775808", "9223372036854775807", "0", "-1"})
    CHECK(f.R(std::string("XAUTOCLAIM s g bob 0 0 COUNT ") + n) == "!ERR COUNT must be > 0");
  CHECK(f.R("XPENDING s g - + 9223372036854775807 nobody") == "[]");
  CHECK(f.R("XPENDING s g - + -9223372036854775808") == "[]");
  CHECK(f.R("XRANGE s - + COUNT 9223372036854775807") == f.R("XRANGE s - +"));
  CHECK(f.R("XREVRANGE s + - COUNT -9223372036854775808") == "nilarray");
}

TEST_CASE("stream xautoclaim: cursor, deleted ids and COUNT") {
  Fixture f;
  Setup(f);
  f.R("XDEL s 1-2");
  CHECK(f.R("XAUTOCLAIM s g bob 0 0 COUNT 2") == "[1-3 [[1-1 [f 1]]] [1-2]]");
  CHECK(f.R("XAUTOCLAIM s g bob 0 1-3 JUSTID") == "[0-0 [1-3 1-4] []]");
  CHECK(f.R("XAUTOCLAIM s g bob 0 0 COUNT 0") == "!ERR COUNT must be > 0");
  CHECK(f.R("XPENDING s g") == "[:3 1-1 1-4 [[bob 3]]]");
}

}  // namespace
}  // namespace plinth::stream::test
