// The EXPIRE family, TTL, EXPIRETIME and PERSIST through the fake host, including how relative
// times are propagated as absolute PEXPIREAT and past times as DEL.
#include <string>

#include "keys_fixture.h"

using plinth::keys::test::Fixture;
using plinth::keys::test::kNow;
using Strings = std::vector<std::string>;

TEST_CASE("expire commands: EXPIRE sets an absolute expiry and propagates PEXPIREAT") {
  Fixture f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"expire", "k", "10"}) == "(integer) 1");
  CHECK(f.host.ExpireAtMs("k") == kNow + 10000);
  CHECK(f.Propagated() == Strings{"pexpireat k " + std::to_string(kNow + 10000)});
  CHECK(f.Run({"pexpire", "k", "1500"}) == "(integer) 1");
  CHECK(f.host.ExpireAtMs("k") == kNow + 1500);
  CHECK(f.Run({"expireat", "k", "4102444800"}) == "(integer) 1");
  CHECK(f.host.ExpireAtMs("k") == 4102444800000);
  CHECK(f.Propagated() ==
        Strings{"pexpireat k " + std::to_string(kNow + 1500), "pexpireat k 4102444800000"});
}

TEST_CASE("expire commands: a time in the past deletes the key and propagates DEL") {
  Fixture f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"expire", "k", "-1"}) == "(integer) 1");
  CHECK(f.host.KeyCount() == 0);
  CHECK(f.Propagated() == Strings{"del k"});
  f.host.PutString("k", "v");
  CHECK(f.Run({"pexpireat", "k", std::to_string(kNow)}) == "(integer) 1");
  CHECK(f.host.GetString("k") == std::nullopt);
}

TEST_CASE("expire commands: missing keys, failed conditions and errors change nothing") {
  Fixture f;
  CHECK(f.Run({"expire", "nokey", "10"}) == "(integer) 0");
  f.host.PutString("k", "v");
  CHECK(f.Run({"expire", "k", "10", "xx"}) == "(integer) 0");
  CHECK(f.Run({"expire", "k", "10", "gt"}) == "(integer) 0");
  CHECK(f.Run({"expire", "k", "10", "nx"}) == "(integer) 1");
  CHECK(f.Run({"expire", "k", "20", "nx"}) == "(integer) 0");
  CHECK(f.Run({"expire", "k", "5", "gt"}) == "(integer) 0");
  CHECK(f.Run({"expire", "k", "20", "gt"}) == "(integer) 1");
  CHECK(f.Run({"expire", "k", "30", "lt"}) == "(integer) 0");
  CHECK(f.Run({"expire", "k", "5", "LT"}) == "(integer) 1");
  CHECK(f.host.ExpireAtMs("k") == kNow + 5000);
  CHECK(f.Run({"expire", "k", "10", "nx", "xx"}) ==
        "(error) ERR NX and XX, GT or LT options at the same time are not compatible");
  CHECK(f.Run({"expire", "k", "10", "gt", "lt"}) ==
        "(error) ERR GT and LT options at the same time are not compatible");
  CHECK(f.Run({"expire", "k", "10", "foo"}) == "(error) ERR Unsupported option foo");
  CHECK(f.Run({"expire", "k", "ten"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"expire", "k", "9223372036854775807"}) ==
        "(error) ERR invalid expire time in 'expire' command");
  CHECK(f.Run({"pexpire", "k", "9223372036854775807"}) ==
        "(error) ERR invalid expire time in 'pexpire' command");
  CHECK(f.host.ExpireAtMs("k") == kNow + 5000);
  f.Propagated();
  CHECK(f.Run({"expire", "k", "10", "nx"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
}

TEST_CASE("expire commands: TTL and PTTL count down with the clock and report -1 and -2") {
  Fixture f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"ttl", "k"}) == "(integer) -1");
  CHECK(f.Run({"pttl", "nokey"}) == "(integer) -2");
  f.host.SetExpireAtMs("k", kNow + 10499);
  CHECK(f.Run({"ttl", "k"}) == "(integer) 10");
  CHECK(f.Run({"pttl", "k"}) == "(integer) 10499");
  f.host.SetTimeMs(kNow + 10000);
  CHECK(f.Run({"pttl", "k"}) == "(integer) 499");
  f.host.SetTimeMs(kNow + 20000);
  CHECK(f.Run({"ttl", "k"}) == "(integer) -2");
}

TEST_CASE("expire commands: EXPIRETIME reports the absolute time, and PERSIST removes it") {
  Fixture f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"expiretime", "k"}) == "(integer) -1");
  CHECK(f.Run({"pexpiretime", "nokey"}) == "(integer) -2");
  f.host.SetExpireAtMs("k", 4102444800500);
  CHECK(f.Run({"pexpiretime", "k"}) == "(integer) 4102444800500");
  CHECK(f.Run({"expiretime", "k"}) == "(integer) 4102444801");
  CHECK(f.Run({"persist", "k"}) == "(integer) 1");
  CHECK(f.Run({"persist", "k"}) == "(integer) 0");
  CHECK(f.Run({"persist", "nokey"}) == "(integer) 0");
  CHECK(f.host.ExpireAtMs("k") == -1);
  CHECK(f.Propagated() == Strings{"persist k"});
}
