// What the hash commands put on the propagation stream: writes verbatim, HINCRBYFLOAT as HSET
// of its result, and nothing for a command that changed nothing.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hash_fixture.h"

using plinth::hash::test::Fixture;
using Lines = std::vector<std::string>;

TEST_CASE("hash propagation: writes go verbatim and HINCRBYFLOAT as HSET of the result") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  f.Run({"hset", "h", "a", "1"});  // same value: Redis still propagates
  f.Run({"hmset", "h", "b", "2"});
  f.Run({"hsetnx", "h", "c", "3"});
  f.Run({"hincrby", "h", "a", "5"});
  f.Run({"hincrbyfloat", "h", "f", "1.5"});
  f.Run({"hincrbyfloat", "h", "f", "0.1"});
  f.Run({"hdel", "h", "a"});
  CHECK(f.Propagated() == Lines{"hset h a 1", "hset h a 1", "hmset h b 2", "hsetnx h c 3",
                                "hincrby h a 5", "hset h f 1.5", "hset h f 1.6", "hdel h a"});
}

TEST_CASE("hash propagation: no-ops and errors propagate nothing") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  f.Propagated();
  f.Run({"hsetnx", "h", "a", "2"});
  f.Run({"hdel", "h", "x", "y"});
  f.Run({"hdel", "nosuch", "x"});
  f.Run({"hincrby", "h", "a", "x"});
  f.Run({"hincrbyfloat", "h", "a", "inf"});
  f.Run({"hset", "h", "a"});
  f.Run({"hget", "h", "a"});
  f.Run({"hscan", "h", "0"});
  CHECK(f.Propagated().empty());
}

TEST_CASE("hash propagation: a TTL survives writes to the hash") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  CHECK(f.Run({"expire", "h", "100"}) == "(integer) 1");
  f.Run({"hset", "h", "b", "2"});
  f.Run({"hincrbyfloat", "h", "a", "1"});
  f.Run({"hdel", "h", "a"});
  CHECK(f.Run({"ttl", "h"}) == "(integer) 100");
}

TEST_CASE("hash propagation: WATCH sees a hash write") {
  Fixture f;
  f.Run({"hset", "h", "a", "1"});
  const uint64_t dirty = f.host.Dirty();
  f.Run({"hset", "h", "a", "2"});
  CHECK(f.host.Dirty() > dirty);
}
