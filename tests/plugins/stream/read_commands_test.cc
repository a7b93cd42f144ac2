// Command tests of XRANGE, XREVRANGE and XLEN.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

TEST_CASE("stream xrange: bounds, exclusive ids and COUNT") {
  Fixture f;
  f.R("XADD s 1-1 a 1");
  f.R("XADD s 1-2 b 2");
  f.R("XADD s 2-0 c 3");
  CHECK(f.R("XRANGE s - +") == "[[1-1 [a 1]] [1-2 [b 2]] [2-0 [c 3]]]");
  CHECK(f.R("XRANGE s (1-1 2") == "[[1-2 [b 2]] [2-0 [c 3]]]");
  CHECK(f.R("XRANGE s - + COUNT 1") == "[[1-1 [a 1]]]");
  CHECK(f.R("XRANGE s - + COUNT 0") == "nilarray");
  CHECK(f.R("XREVRANGE s + - COUNT 2") == "[[2-0 [c 3]] [1-2 [b 2]]]");
  CHECK(f.R("XREVRANGE s (2-0 -") == "[[1-2 [b 2]] [1-1 [a 1]]]");
  CHECK(f.R("XRANGE s (18446744073709551615-18446744073709551615 +") ==
        "!ERR invalid start ID for the interval");
  CHECK(f.R("XRANGE s - + LIMIT 1") == "!ERR syntax error");
  CHECK(f.R("XRANGE nokey - +") == "[]");
  CHECK(f.R("XLEN s") == ":3");
  CHECK(f.R("XLEN nokey") == ":0");
}

}  // namespace
}  // namespace plinth::stream::test
