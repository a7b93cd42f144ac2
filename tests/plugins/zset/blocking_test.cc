// Command tests of BZPOPMIN, BZPOPMAX and BZMPOP on the host's blocking API: serving at once,
// blocking and waking in order, timeouts, MULTI, wrong types, propagation as ZPOPMIN/ZPOPMAX.
#include <doctest/doctest.h>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

using V = std::vector<std::string>;

std::string One(Fixture& f, uint64_t client) {
  std::vector<fakehost::Reply> r = f.host.TakeReplies(client);
  REQUIRE(r.size() == 1);
  return Render(r[0]);
}

TEST_CASE("zset bzpopmin: serves at once when a key has entries") {
  Fixture f;
  f.R("ZADD b 1 x 2 y");
  f.Propagated();
  CHECK(f.R("BZPOPMIN a b 0") == "[b x ,1]");
  CHECK(f.R("BZPOPMAX a b 0") == "[b y ,2]");
  CHECK(f.Propagated() == V{"ZPOPMIN b", "ZPOPMAX b"});
  CHECK(f.R("EXISTS b") == ":0");
}

TEST_CASE("zset bzpopmin: blocks then wakes clients in the order they blocked") {
  Fixture f;
  const uint64_t c1 = f.host.AddClient(), c2 = f.host.AddClient();
  CHECK_FALSE(f.host.CallAs(c1, Split("BZPOPMIN k 0")).has_value());
  CHECK_FALSE(f.host.CallAs(c2, Split("BZPOPMAX k other 0")).has_value());
  CHECK(f.host.Blocked(c1));
  f.Propagated();
  f.R("ZADD k 1 a 2 b 3 c");
  CHECK(One(f, c1) == "[k a ,1]");
  CHECK(One(f, c2) == "[k c ,3]");
  CHECK_FALSE(f.host.Blocked(c1));
  CHECK(f.Propagated() == V{"ZADD k 1 a 2 b 3 c", "ZPOPMIN k", "ZPOPMAX k"});
  CHECK(f.R("ZRANGE k 0 -1") == "[b]");
}

TEST_CASE("zset bzpopmin: a client finding nothing left stays blocked") {
  Fixture f;
  const uint64_t c1 = f.host.AddClient(), c2 = f.host.AddClient();
  CHECK_FALSE(f.host.CallAs(c1, Split("BZPOPMIN k 0")).has_value());
  CHECK_FALSE(f.host.CallAs(c2, Split("BZPOPMIN k 0")).has_value());
  f.R("ZADD k 1 a");
  CHECK(One(f, c1) == "[k a ,1]");
  CHECK(f.host.Blocked(c2));
  CHECK(f.host.TakeReplies(c2).empty());
  f.R("ZADD k 2 b");
  CHECK(One(f, c2) == "[k b ,2]");
}

TEST_CASE("zset bzpopmin: times out with the null array") {
  Fixture f;
  const uint64_t c = f.host.AddClient();
  CHECK_FALSE(f.host.CallAs(c, Split("BZPOPMIN k 0.5")).has_value());
  f.host.AdvanceTimeMs(400);
  CHECK(f.host.Blocked(c));
  f.host.AdvanceTimeMs(200);
  CHECK(One(f, c) == "nilarray");
  CHECK_FALSE(f.host.Blocked(c));
}

TEST_CASE("zset bzpopmin: inside MULTI replies the null at once") {
  Fixture f;
  CHECK(f.R("MULTI") == "OK");
  CHECK(f.R("BZPOPMIN k 0") == "QUEUED");
  CHECK(f.R("EXEC") == "[nilarray]");
}

TEST_CASE("zset bzpopmin: timeout and type errors") {
  Fixture f;
  CHECK(f.R("BZPOPMIN k x") == "!ERR timeout is not a float or out of range");
  CHECK(f.R("BZPOPMIN k -1") == "!ERR timeout is negative");
  CHECK(f.R("BZPOPMIN k inf") == "!ERR timeout is negative");
  f.R("SETSTR s v");
  f.R("ZADD z 1 a");
  CHECK(f.R("BZPOPMIN s z 0").rfind("!WRONGTYPE", 0) == 0);
  CHECK(f.R("BZPOPMIN z s 0") == "[z a ,1]");
}

TEST_CASE("zset bzmpop: serves and blocks and propagates as ZPOPMIN/ZPOPMAX with a count") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c");
  f.Propagated();
  CHECK(f.R("BZMPOP 0 2 x z MAX COUNT 2") == "[z [[c ,3] [b ,2]]]");
  CHECK(f.Propagated() == V{"ZPOPMAX z 2"});
  const uint64_t c = f.host.AddClient();
  f.R("DEL z");
  CHECK_FALSE(f.host.CallAs(c, Split("BZMPOP 0 1 z MIN")).has_value());
  f.R("ZADD z 5 e");
  CHECK(One(f, c) == "[z [[e ,5]]]");
  CHECK(f.Propagated() == V{"DEL z", "ZADD z 5 e", "ZPOPMIN z 1"});
}

TEST_CASE("zset bzmpop: errors before blocking") {
  Fixture f;
  CHECK(f.R("BZMPOP x 1 z MIN") == "!ERR timeout is not a float or out of range");
  CHECK(f.R("BZMPOP 0 0 z MIN") == "!ERR numkeys should be greater than 0");
  CHECK(f.R("BZMPOP 0 2 z MIN") == "!ERR syntax error");
  CHECK(f.R("BZMPOP 0 1 z MIN COUNT 0") == "!ERR count should be greater than 0");
}

TEST_CASE("zset bzpopmin: a disconnected blocked client is forgotten") {
  Fixture f;
  const uint64_t c = f.host.AddClient();
  CHECK_FALSE(f.host.CallAs(c, Split("BZPOPMIN k 0")).has_value());
  f.host.CloseClient(c);
  f.R("ZADD k 1 a");
  CHECK(f.R("ZCARD k") == ":1");
}

}  // namespace
}  // namespace plinth::zset::test
