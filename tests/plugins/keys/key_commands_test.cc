// DEL, EXISTS, TYPE, TOUCH, RENAME, RENAMENX, COPY, MOVE, SWAPDB, OBJECT and MEMORY through the
// fake host: replies (texts checked against Redis 7.0) and what gets propagated.
#include <string>

#include "keys_fixture.h"

using plinth::keys::test::Fixture;
using Strings = std::vector<std::string>;

TEST_CASE("keys commands: DEL counts deleted keys and propagates only real deletions") {
  Fixture f;
  f.host.PutString("a", "1");
  f.host.PutString("b", "2");
  CHECK(f.Run({"del", "a", "a", "nokey", "b"}) == "(integer) 2");
  CHECK(f.Propagated() == Strings{"del a a nokey b"});
  CHECK(f.Run({"del", "nokey"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  f.host.PutString("c", "3");
  CHECK(f.Run({"unlink", "c"}) == "(integer) 1");
  CHECK(f.host.KeyCount() == 0);
}

TEST_CASE("keys commands: EXISTS counts repeats, TOUCH and TYPE answer like Redis") {
  Fixture f;
  f.host.PutString("k", "v");
  CHECK(f.Run({"exists", "k", "k", "nokey"}) == "(integer) 2");
  CHECK(f.Run({"touch", "k", "nokey"}) == "(integer) 1");
  CHECK(f.Run({"type", "k"}) == "string");
  CHECK(f.Run({"type", "nokey"}) == "none");
}

TEST_CASE("keys commands: RENAME moves the value and its TTL, and RENAMENX refuses to overwrite") {
  Fixture f;
  f.host.PutString("k", "v");
  f.host.SetExpireAtMs("k", plinth::keys::test::kNow + 5000);
  CHECK(f.Run({"rename", "nokey", "x"}) == "(error) ERR no such key");
  CHECK(f.Run({"rename", "k", "k"}) == "OK");
  CHECK(f.Propagated().empty());
  CHECK(f.Run({"rename", "k", "k2"}) == "OK");
  CHECK(f.host.GetString("k2") == "v");
  CHECK(f.host.ExpireAtMs("k2") == plinth::keys::test::kNow + 5000);
  CHECK(f.Propagated() == Strings{"rename k k2"});
  f.host.PutString("k3", "w");
  CHECK(f.Run({"renamenx", "k2", "k3"}) == "(integer) 0");
  CHECK(f.Propagated().empty());
  CHECK(f.Run({"renamenx", "k2", "k2"}) == "(integer) 0");
  CHECK(f.Run({"renamenx", "nokey", "k2"}) == "(error) ERR no such key");
  CHECK(f.Run({"renamenx", "k2", "k4"}) == "(integer) 1");
  CHECK(f.host.GetString("k4") == "v");
}

TEST_CASE("keys commands: COPY honours DB and REPLACE and refuses copying onto itself") {
  Fixture f;
  f.host.PutString("src", "v");
  f.host.PutString("dst", "old");
  CHECK(f.Run({"copy", "src", "src"}) == "(error) ERR source and destination objects are the same");
  CHECK(f.Run({"copy", "src", "dst"}) == "(integer) 0");
  CHECK(f.Run({"copy", "src", "dst", "replace"}) == "(integer) 1");
  CHECK(f.host.GetString("dst") == "v");
  CHECK(f.Run({"copy", "src", "src", "db", "2"}) == "(integer) 1");
  CHECK(f.host.GetString("src", 2) == "v");
  CHECK(f.host.GetString("src") == "v");
  CHECK(f.Run({"copy", "src", "x", "db", "16"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"copy", "nokey", "x"}) == "(integer) 0");
}

TEST_CASE("keys commands: MOVE checks the db, refuses an existing target, keeps the TTL") {
  Fixture f;
  f.host.PutString("k", "v");
  f.host.SetExpireAtMs("k", plinth::keys::test::kNow + 9000);
  CHECK(f.Run({"move", "k", "0"}) == "(error) ERR source and destination objects are the same");
  CHECK(f.Run({"move", "k", "x"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.Run({"move", "k", "16"}) == "(error) ERR DB index is out of range");
  // A db index past 32 bits gets Redis 7.0's own text, whatever its sign.
  const std::string kNot32 =
      "(error) ERR value is out of range, value must between -2147483648 and 2147483647";
  CHECK(f.Run({"move", "k", "9223372036854775807"}) == kNot32);
  CHECK(f.Run({"move", "k", "-9223372036854775808"}) == kNot32);
  CHECK(f.Run({"move", "k", "4294967296"}) == kNot32);
  CHECK(f.Run({"move", "k", "2147483647"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"move", "k", "-1"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"copy", "k", "x", "db", "-9223372036854775807"}) == kNot32);
  f.host.PutString("k", "other", 3);
  CHECK(f.Run({"move", "k", "3"}) == "(integer) 0");
  CHECK(f.Run({"move", "k", "1"}) == "(integer) 1");
  CHECK(f.host.GetString("k", 1) == "v");
  CHECK(f.host.ExpireAtMs("k", 1) == plinth::keys::test::kNow + 9000);
  CHECK(f.Run({"move", "nokey", "1"}) == "(integer) 0");
}

TEST_CASE("keys commands: SWAPDB swaps whole databases and names the bad index") {
  Fixture f;
  f.host.PutString("a", "zero", 0);
  f.host.PutString("b", "one", 1);
  CHECK(f.Run({"swapdb", "x", "1"}) == "(error) ERR invalid first DB index");
  CHECK(f.Run({"swapdb", "0", "y"}) == "(error) ERR invalid second DB index");
  CHECK(f.Run({"swapdb", "0", "99"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"swapdb", "0", "1"}) == "OK");
  CHECK(f.host.GetString("b", 0) == "one");
  CHECK(f.host.GetString("a", 1) == "zero");
}

TEST_CASE("keys commands: OBJECT reports encodings and answers its other subcommands") {
  Fixture f;
  f.host.PutString("n", "123");
  f.host.PutString("s", "hello");
  f.host.PutString("big", std::string(100, 'x'));
  CHECK(f.Run({"object", "encoding", "n"}) == "\"int\"");
  CHECK(f.Run({"object", "encoding", "s"}) == "\"embstr\"");
  CHECK(f.Run({"object", "encoding", "big"}) == "\"raw\"");
  CHECK(f.Run({"object", "encoding", "nokey"}) == "(nil)");
  CHECK(f.Run({"object", "refcount", "s"}) == "(integer) 1");
  CHECK(f.Run({"object", "freq", "s"}).rfind("(error) ERR An LFU maxmemory policy", 0) == 0);
  CHECK(f.Run({"object", "idletime", "s"}) == "(integer) 0");
  CHECK(f.Run({"object", "encoding"}) ==
        "(error) ERR wrong number of arguments for 'object|encoding' command");
  CHECK(f.Run({"object", "foo"}) == "(error) ERR unknown subcommand 'foo'. Try OBJECT HELP.");
  CHECK(f.Run({"object", "help"}).find("OBJECT <subcommand>") != std::string::npos);
}

TEST_CASE("keys commands: MEMORY USAGE sizes a key and validates SAMPLES") {
  Fixture f;
  f.host.PutString("k", "value");
  std::string usage = f.Run({"memory", "usage", "k"});
  CHECK(usage.rfind("(integer) ", 0) == 0);
  CHECK(std::stoll(usage.substr(10)) > 5);
  CHECK(f.Run({"memory", "usage", "k", "samples", "5"}) == usage);
  CHECK(f.Run({"memory", "usage", "nokey"}) == "(nil)");
  CHECK(f.Run({"memory", "usage", "k", "samples", "-1"}) == "(error) ERR syntax error");
  CHECK(f.Run({"memory", "nosuch"}) == "(error) ERR unknown subcommand 'nosuch'. Try MEMORY HELP.");
}
