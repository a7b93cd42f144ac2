// INFO stats expired_keys counts keys that expiry removed, lazily (a command touched a key past
// its time) or actively (the host's periodic sampling), but not a key that EXPIRE, PEXPIREAT
// and the like deleted because they were given a time already past. Confirmed with Debian's
// redis-server 7.0.15 after CONFIG RESETSTAT (see each case).
#include "case_support.h"

namespace plinth::hostapi {

// Redis 7.0: SET k4 v PX 50, 200 ms later GET k4 -> (nil), expired_keys:1.
HOSTAPI_CASE("expired_keys: a key removed by lazy expiry is counted") {
  T t;
  CHECK(Run(t, {"SET", "k", "v", "PX", "100"}) == "OK");
  t.AdvanceMs(300);
  // On the server active expiry may remove it first; it is counted the same.
  CHECK(Run(t, {"GET", "k"}) == "(nil)");
  CHECK(InfoField(t, "stats", "expired_keys") == "1");
}

// Redis 7.0: SET k5 v PX 50, nothing touches it, 1.5 s later expired_keys:1 and DBSIZE 0.
HOSTAPI_CASE("expired_keys: a key removed by active expiry is counted") {
  T t;
  CHECK(Run(t, {"SET", "k", "v", "PX", "100"}) == "OK");
  t.AdvanceMs(1500);
  CHECK(Run(t, {"DBSIZE"}) == "(integer) 0");
  CHECK(InfoField(t, "stats", "expired_keys") == "1");
}

// Redis 7.0: SET k1 v; EXPIRE k1 -1 -> 1, EXISTS k1 -> 0; SET k2 v; PEXPIREAT k2 1 -> 1;
// SET k3 v; EXPIREAT k3 100 -> 1; then expired_keys:0.
HOSTAPI_CASE("expired_keys: EXPIRE or PEXPIREAT with a past time deletes without counting") {
  T t;
  for (const char* k : {"k1", "k2", "k3"}) REQUIRE(Run(t, {"SET", k, "v"}) == "OK");
  CHECK(Run(t, {"EXPIRE", "k1", "-1"}) == "(integer) 1");
  CHECK(Run(t, {"PEXPIREAT", "k2", "1"}) == "(integer) 1");
  CHECK(Run(t, {"EXPIREAT", "k3", "100"}) == "(integer) 1");
  CHECK(Run(t, {"EXISTS", "k1", "k2", "k3"}) == "(integer) 0");
  CHECK(InfoField(t, "stats", "expired_keys") == "0");
}

// The same rule one level down: the host's key_expire_set given a past time (what a plugin's
// own EXPIRE-like command calls) deletes the key without counting it.
HOSTAPI_CASE("expired_keys: key_expire_set with a past time deletes without counting") {
  T t;
  REQUIRE(Run(t, {"SET", "probe:e", "v"}) == "OK");
  CHECK(Run(t, {"PROBE.EXPIRE-PAST"}) == "(integer) 1");
  CHECK(Run(t, {"EXISTS", "probe:e"}) == "(integer) 0");
  CHECK(InfoField(t, "stats", "expired_keys") == "0");
}

}  // namespace plinth::hostapi
