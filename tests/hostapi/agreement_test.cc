// Plain agreement: everyday commands through the real plugins behave the same on both hosts,
// so the suite covers normal use and not only corners. Replies as Redis 7.0 gives them.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("agreement: SET then GET") {
  T t;
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Run(t, {"GET", "k"}) == "\"v\"");
  CHECK(Run(t, {"GET", "missing"}) == "(nil)");
  CHECK(Run(t, {"SET", "k", "w", "NX"}) == "(nil)");
  CHECK(Run(t, {"GET", "k"}) == "\"v\"");
}

HOSTAPI_CASE("agreement: EXPIRE and TTL") {
  T t;
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Run(t, {"TTL", "k"}) == "(integer) -1");
  CHECK(Run(t, {"EXPIRE", "k", "100"}) == "(integer) 1");
  CHECK(Run(t, {"TTL", "k"}) == "(integer) 100");
  CHECK(Run(t, {"TTL", "missing"}) == "(integer) -2");
  CHECK(Run(t, {"PERSIST", "k"}) == "(integer) 1");
  CHECK(Run(t, {"TTL", "k"}) == "(integer) -1");
}

HOSTAPI_CASE("agreement: SELECT keeps databases apart and DBSIZE counts each") {
  T t;
  CHECK(Run(t, {"SET", "a", "1"}) == "OK");
  CHECK(Run(t, {"SELECT", "1"}) == "OK");
  CHECK(Run(t, {"DBSIZE"}) == "(integer) 0");
  CHECK(Run(t, {"GET", "a"}) == "(nil)");
  CHECK(Run(t, {"MSET", "b", "1", "c", "1"}) == "OK");
  CHECK(Run(t, {"DBSIZE"}) == "(integer) 2");
  CHECK(Run(t, {"SELECT", "0"}) == "OK");
  CHECK(Run(t, {"DBSIZE"}) == "(integer) 1");
  CHECK(Run(t, {"SELECT", "16"}) == "(error) ERR DB index is out of range");
}

// Redis 7.0, SET a 1 and SET b 1 EX 100: "db0:keys=2,expires=1,avg_ttl=99795".
HOSTAPI_CASE("agreement: INFO keyspace describes each non-empty database") {
  T t;
  CHECK(Run(t, {"SET", "a", "1"}) == "OK");
  CHECK(Run(t, {"SET", "b", "1", "EX", "100"}) == "OK");
  CHECK(Run(t, {"SELECT", "2"}) == "OK");
  CHECK(Run(t, {"SET", "c", "1"}) == "OK");
  CHECK(InfoField(t, "keyspace", "db0").rfind("keys=2,expires=1,avg_ttl=", 0) == 0);
  CHECK(InfoField(t, "keyspace", "db2").rfind("keys=1,expires=0,avg_ttl=", 0) == 0);
  CHECK(InfoField(t, "keyspace", "db1") == "(absent)");
}

// Redis 7.0: CONFIG SET proto-max-bulk-len 2mb -> OK, CONFIG GET -> "2097152".
HOSTAPI_CASE("agreement: CONFIG SET of a plugin option is seen by CONFIG GET") {
  T t;
  CHECK(Run(t, {"CONFIG", "SET", "proto-max-bulk-len", "2mb"}) == "OK");
  CHECK(Run(t, {"CONFIG", "GET", "proto-max-bulk-len"}) ==
        "1) \"proto-max-bulk-len\"\n2) \"2097152\"");
}

}  // namespace plinth::hostapi
