// call_command: a plugin runs a command on behalf of its call's client, as a script's
// redis.call does, in a session of its own, hearing the reply item by item. The probe's
// PROBE.RUN renders what it heard: the return code, then "<PLINTH_REPLY_* type>:<data>" items.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("call_command: the reply arrives as items and the effect is propagated") {
  T t;
  CHECK(Run(t, {"PROBE.RUN", "0", "SET", "k", "v"}) == "1) (integer) 0\n2) \"1:OK\"");
  CHECK(Run(t, {"PROBE.RUN", "0", "INCR", "n"}) == "1) (integer) 0\n2) \"3:1\"");
  CHECK(Run(t, {"PROBE.RUN", "0", "MGET", "k", "nosuch"}) ==
        "1) (integer) 0\n2) \"7:2\"\n3) \"4:v\"\n4) \"5:0\"");
  // The calling command is PLINTH_CMD_NOPROPAGATE; what it ran goes out as itself.
  CHECK(Stream(t) == "0 SET k v | 0 INCR n");
}

HOSTAPI_CASE("call_command: two effects of one call are one MULTI/EXEC unit") {
  T t;
  CHECK(Run(t, {"PROBE.RUN2", "INCR", "a", "INCR", "b"}) == "(integer) 0");
  CHECK(Stream(t) == "0 MULTI | 0 INCR a | 0 INCR b | 0 EXEC");
}

HOSTAPI_CASE("call_command: errors come back as the reply, with PLINTH_ERR") {
  T t;
  CHECK(Run(t, {"PROBE.RUN", "0", "SET", "k"}) ==
        "1) (integer) -1\n2) \"2:ERR wrong number of arguments for 'set' command\"");
  CHECK(Run(t, {"PROBE.RUN", "0", "NOSUCH"})
            .rfind("1) (integer) -1\n2) \"2:ERR unknown command", 0) == 0);
  CHECK(Run(t, {"SET", "s", "x"}) == "OK");
  CHECK(Run(t, {"PROBE.RUN", "0", "INCR", "s"}) ==
        "1) (integer) -1\n2) \"2:ERR value is not an integer or out of range\"");
}

HOSTAPI_CASE("call_command: a script may not run NOSCRIPT commands nor, read-only, writes") {
  T t;
  CHECK(Run(t, {"PROBE.RUN", "1", "MULTI"}) ==
        "1) (integer) -1\n2) \"2:ERR This Redis command is not allowed from script\"");
  CHECK(Run(t, {"PROBE.RUN", "2", "SET", "k", "v"}) ==
        "1) (integer) -1\n2) \"2:ERR Write commands are not allowed from read-only scripts.\"");
  CHECK(Run(t, {"PROBE.RUN", "2", "GET", "k"}) == "1) (integer) 0\n2) \"5:0\"");
  CHECK(Run(t, {"EXISTS", "k"}) == "(integer) 0");
  // Without PLINTH_RUN_SCRIPT the transaction commands run, in the run's own session.
  CHECK(Run(t, {"PROBE.RUN", "0", "MULTI"}) == "1) (integer) 0\n2) \"1:OK\"");
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");  // the caller is not in a transaction
}

HOSTAPI_CASE("call_command: PLINTH_RUN_NO_PROPAGATE keeps the effect off the stream") {
  T t;
  CHECK(Run(t, {"PROBE.RUN", "4", "SET", "k", "v"}) == "1) (integer) 0\n2) \"1:OK\"");
  CHECK(Run(t, {"GET", "k"}) == "\"v\"");
  CHECK(Stream(t) == "");
}

HOSTAPI_CASE("call_command: a SELECT in the run's session is not the caller's") {
  T t;
  CHECK(Run(t, {"PROBE.RUN", "0", "SELECT", "5"}) == "1) (integer) 0\n2) \"1:OK\"");
  CHECK(Run(t, {"PROBE.RUN", "0", "SET", "k", "v"}) == "1) (integer) 0\n2) \"1:OK\"");
  CHECK(Run(t, {"GET", "k"}) == "\"v\"");
  CHECK(Stream(t) == "0 SET k v");
}

// HELLO's reply names the protocol the command saw: "proto", then the number.
std::string ProtoSeen(const std::string& rendered) {
  const size_t at = rendered.find("\"4:proto\"");
  const size_t num = rendered.find("\"3:", at);
  return at == std::string::npos || num == std::string::npos ? "" : rendered.substr(num + 3, 1);
}

HOSTAPI_CASE("call_command: PLINTH_RUN_RESP3 makes the command see protocol 3") {
  T t;
  CHECK(ProtoSeen(Run(t, {"PROBE.RUN", "0", "HELLO"})) == "2");
  CHECK(ProtoSeen(Run(t, {"PROBE.RUN", "8", "HELLO"})) == "3");
  CHECK(ProtoSeen(Run(t, {"HELLO"})) == "");  // the caller's own is untouched (RESP2 text)
}

}  // namespace plinth::hostapi
