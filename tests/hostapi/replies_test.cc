// Reply shape: what the client gets, and what is logged, when a handler replies zero times,
// twice, or with an aggregate that does not hold the number of elements it announced. In every
// case the connection must stay in sync: the next command gets its own reply.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("replies: a handler that sends no reply gets ERR produced no reply") {
  T t;
  CHECK(Run(t, {"PROBE.NOREPLY"}) == "(error) ERR command 'probe.noreply' produced no reply");
  CHECK(Run(t, {"PING"}) == "PONG");
}

HOSTAPI_CASE("replies: a second reply is dropped and logged") {
  T t;
  CHECK(Run(t, {"PROBE.TWICE"}) == "first");
  CHECK(Run(t, {"PING"}) == "PONG");
  CHECK(t.LogLineContains("probe.twice", "replied more than once"));
}

HOSTAPI_CASE("replies: items past an aggregate's announced count are dropped and logged") {
  T t;
  CHECK(Run(t, {"PROBE.OVERFULL"}) == "1) \"a\"");
  CHECK(Run(t, {"PING"}) == "PONG");
  CHECK(t.LogLineContains("probe.overfull", "replied more than once"));
}

HOSTAPI_CASE("replies: an aggregate left short is completed with nulls and logged") {
  T t;
  CHECK(Run(t, {"PROBE.SHORT"}) == "1) \"a\"\n2) (nil)\n3) (nil)");
  CHECK(Run(t, {"PING"}) == "PONG");
  CHECK(t.LogLineContains("probe.short", "incomplete reply"));
}

HOSTAPI_CASE("replies: reply_value of a plugin-typed value is a null reply") {
  T t;
  CHECK(Run(t, {"PROBE.TYPED"}) == "(nil)");
  CHECK(Run(t, {"PING"}) == "PONG");
}

}  // namespace plinth::hostapi
