// Command tests of the hash encodings and the generic commands on hashes: OBJECT ENCODING at
// the listpack thresholds and after CONFIG SET, TYPE, COPY then a write on one side
// (copy-on-write), RENAME, UNLINK and MEMORY USAGE.
#include <doctest/doctest.h>

#include <string>

#include "hash_fixture.h"

using plinth::hash::test::Fixture;

TEST_CASE("hash encoding: listpack up to 512 entries and 64-byte strings, then hashtable") {
  Fixture f;
  f.Fill("h", 512);
  CHECK(f.Run({"object", "encoding", "h"}) == "\"listpack\"");
  f.Run({"hset", "h", "f0", "changed"});
  CHECK(f.Run({"object", "encoding", "h"}) == "\"listpack\"");
  f.Run({"hset", "h", "one-more", "v"});
  CHECK(f.Run({"object", "encoding", "h"}) == "\"hashtable\"");
  f.Run({"hdel", "h", "one-more", "f1", "f2"});
  CHECK(f.Run({"object", "encoding", "h"}) == "\"hashtable\"");  // never back

  f.Run({"hset", "v", "a", std::string(64, 'x')});
  CHECK(f.Run({"object", "encoding", "v"}) == "\"listpack\"");
  f.Run({"hset", "v", "a", std::string(65, 'x')});
  CHECK(f.Run({"object", "encoding", "v"}) == "\"hashtable\"");
  f.Run({"hset", "k", std::string(65, 'k'), "1"});
  CHECK(f.Run({"object", "encoding", "k"}) == "\"hashtable\"");
  f.Run({"hset", "n", "a", "1"});
  f.Run({"hsetnx", "n", "a", std::string(70, 'x')});  // refused: no conversion
  CHECK(f.Run({"object", "encoding", "n"}) == "\"listpack\"");
  f.Run({"hincrbyfloat", "n", "a", "0.1"});
  CHECK(f.Run({"hget", "n", "a"}) == "\"1.1\"");
}

TEST_CASE("hash encoding: the options are registered, mutable, and apply to later writes") {
  Fixture f;
  CHECK(f.host.GetOption("hash-max-listpack-entries") == "512");
  CHECK(f.host.GetOption("hash-max-listpack-value") == "64");
  f.Fill("h", 3);
  std::string error;
  REQUIRE_MESSAGE(f.host.SetOption("hash-max-listpack-entries", "2", &error), error);
  CHECK(f.Run({"object", "encoding", "h"}) == "\"listpack\"");  // existing values stay
  f.Run({"hset", "h", "f0", "x"});                              // any write checks the count again
  CHECK(f.Run({"object", "encoding", "h"}) == "\"hashtable\"");
  REQUIRE(f.host.SetOption("hash-max-listpack-value", "1kb", &error));
  CHECK(f.host.GetOption("hash-max-listpack-value") == "1024");
  f.Run({"hset", "v", "a", std::string(1000, 'x')});
  CHECK(f.Run({"object", "encoding", "v"}) == "\"listpack\"");
  REQUIRE(f.host.SetOption("hash-max-listpack-entries", "0", &error));
  f.Run({"hset", "z", "a", "b"});
  CHECK(f.Run({"object", "encoding", "z"}) == "\"hashtable\"");
  CHECK_FALSE(f.host.SetOption("hash-max-listpack-entries", "-1", &error));
  CHECK_FALSE(f.host.SetOption("hash-max-listpack-entries", "x", &error));
}

TEST_CASE("hash encoding: COPY gives an independent hash in the same encoding") {
  for (int n : {3, 200}) {
    Fixture f;
    f.Fill("src", n);
    CHECK(f.Run({"copy", "src", "dst"}) == "(integer) 1");
    CHECK(f.Run({"type", "dst"}) == "hash");
    CHECK(f.Run({"object", "encoding", "dst"}) == f.Run({"object", "encoding", "src"}));
    f.Run({"hset", "dst", "f0", "changed", "new", "1"});
    f.Run({"hdel", "src", "f1"});
    CHECK(f.Run({"hget", "src", "f0"}) == "\"v0\"");
    CHECK(f.Run({"hget", "dst", "f0"}) == "\"changed\"");
    CHECK(f.Run({"hexists", "dst", "f1"}) == "(integer) 1");
    CHECK(f.Run({"hlen", "src"}) == "(integer) " + std::to_string(n - 1));
    CHECK(f.Run({"hlen", "dst"}) == "(integer) " + std::to_string(n + 1));
  }
}

TEST_CASE("hash encoding: RENAME UNLINK and MEMORY USAGE work on hashes") {
  Fixture f;
  f.Fill("h", 500);
  CHECK(f.Run({"rename", "h", "g"}) == "OK");
  CHECK(f.Run({"hget", "g", "f9"}) == "\"v9\"");
  const std::string mem = f.Run({"memory", "usage", "g"});
  REQUIRE(mem.rfind("(integer) ", 0) == 0);
  const long bytes = std::stol(mem.substr(10));
  CHECK(bytes > 500 * 8);
  CHECK(bytes < 500 * 80);  // lean: well under Redis's ~100 bytes per small pair
  f.Fill("small", 10);
  const long small = std::stol(f.Run({"memory", "usage", "small"}).substr(10));
  CHECK(small < 300);
  CHECK(f.Run({"unlink", "g"}) == "(integer) 1");
  CHECK(f.Run({"exists", "g"}) == "(integer) 0");
}
