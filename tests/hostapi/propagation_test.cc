// Propagation: what a command hands to the stream consumers (replication, AOF). After a command,
// what it emitted with replicate() replaces it; else its argv goes out verbatim only when it is
// flagged PLINTH_CMD_WRITE, the keyspace changed and it did not call call_no_propagate. A
// PLINTH_CMD_NOPROPAGATE command propagates nothing at all. The probe records the stream.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("propagation: replicate() replaces the command's own entry") {
  T t;
  CHECK(Run(t, {"PROBE.REPLICATE"}) == "(integer) 0");
  CHECK(Stream(t) == "0 SET probe:r 1");
}

HOSTAPI_CASE("propagation: a write that changed the keyspace goes out verbatim in its db") {
  T t;
  CHECK(Run(t, {"probe.write", "a", "B"}) == "OK");
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Run(t, {"SELECT", "3"}) == "OK");
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Stream(t) == "0 probe.write a B | 0 SET k v | 3 SET k v");
}

HOSTAPI_CASE("propagation: a write command that changes nothing propagates nothing") {
  T t;
  CHECK(Run(t, {"PROBE.NOCHANGE"}) == "OK");
  CHECK(Run(t, {"DEL", "missing"}) == "(integer) 0");
  CHECK(Stream(t) == "");
}

HOSTAPI_CASE("propagation: a command without PLINTH_CMD_WRITE is not propagated") {
  T t;
  CHECK(Run(t, {"PROBE.UNFLAGGED"}) == "OK");
  CHECK(Run(t, {"GET", "probe:u"}) == "\"1\"");
  CHECK(Stream(t) == "");
}

HOSTAPI_CASE("propagation: call_no_propagate suppresses the verbatim entry") {
  T t;
  CHECK(Run(t, {"PROBE.SILENT"}) == "OK");
  CHECK(Run(t, {"GET", "probe:s"}) == "\"1\"");
  CHECK(Stream(t) == "");
}

HOSTAPI_CASE("propagation: PLINTH_CMD_NOPROPAGATE drops replicate() emissions too") {
  T t;
  CHECK(Run(t, {"PROBE.NOPROPAGATE"}) == "OK");
  CHECK(Run(t, {"GET", "probe:n"}) == "\"1\"");
  CHECK(Stream(t) == "");
}

// Redis 7.0 (appendonly yes, read back from the AOF): SET k v PX 100, 300 ms later APPEND k x
// wrote "DEL k" and then "append k x" (as one MULTI/EXEC pair).
HOSTAPI_CASE("propagation: lazy expiry propagates DEL before the command's own entry") {
  T t;
  CHECK(Run(t, {"SET", "k", "v", "PX", "100"}) == "OK");
  Stream(t);
  t.AdvanceMs(300);
  // On the server active expiry may get there first; it propagates the same DEL.
  CHECK(Run(t, {"APPEND", "k", "x"}) == "(integer) 1");
  CHECK(Stream(t) == "0 DEL k | 0 APPEND k x");
}

HOSTAPI_CASE("propagation: replicate() refuses an unknown command and a wrong arity") {
  T t;
  CHECK(Run(t, {"PROBE.REPLICATE-CHECKED"}) == "1) (integer) -1\n2) (integer) -1");
  CHECK(Stream(t) == "");
}

HOSTAPI_CASE("propagation: replicate() with PLINTH_REPLICATE_NO_VALIDATE accepts both") {
  T t;
  CHECK(Run(t, {"PROBE.REPLICATE-TRUSTED"}) == "1) (integer) 0\n2) (integer) 0");
  // Two effects of one call: one unit, wrapped as a transaction.
  CHECK(Stream(t) == "0 MULTI | 0 probe.nosuch a | 0 GET a b | 0 EXEC");
}

HOSTAPI_CASE("propagation: unchecked replicate() input still makes a well-formed stream") {
  T t;
  CHECK(Run(t, {"PROBE.REPLICATE-GARBAGE"}) == "1) (integer) 0\n2) (integer) 0");
  // A missing name or argument is empty, missing arrays mean no arguments: the stream parses,
  // and the server goes on.
  CHECK(Stream(t) == "0 MULTI | 0   x | 0 SET | 0 EXEC");  // "" "" x
  CHECK(Run(t, {"PING"}) == "PONG");
}

}  // namespace plinth::hostapi
