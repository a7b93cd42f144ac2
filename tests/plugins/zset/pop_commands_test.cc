// Command tests of ZPOPMIN, ZPOPMAX and ZMPOP: counts, reply shapes in RESP2 and RESP3, events,
// propagation (ZMPOP as ZPOPMIN/ZPOPMAX key count), errors.
#include <doctest/doctest.h>

#include "zset_fixture.h"

namespace plinth::zset::test {
namespace {

using V = std::vector<std::string>;

TEST_CASE("zset zpopmin and zpopmax: pop from either end and delete the emptied key") {
  Fixture f;
  f.R("ZADD z 1 a 2 b 3 c 4 d");
  f.Events();
  f.Propagated();
  CHECK(f.R("ZPOPMIN z") == "[a ,1]");
  CHECK(f.R("ZPOPMAX z") == "[d ,4]");
  CHECK(f.R("ZPOPMAX z 0") == "[]");
  CHECK(f.R("ZPOPMIN z 10") == "[b ,2 c ,3]");
  CHECK(f.R("EXISTS z") == ":0");
  CHECK(f.R("ZPOPMIN z") == "[]");
  CHECK(f.R("ZPOPMIN z 2") == "[]");
  CHECK(f.Events() == V{"zpopmin z", "zpopmax z", "zpopmin z", "del z"});
  CHECK(f.Propagated() == V{"ZPOPMIN z", "ZPOPMAX z", "ZPOPMIN z 10"});
}

TEST_CASE("zset zpopmin: errors") {
  Fixture f;
  f.R("ZADD z 1 a");
  CHECK(f.R("ZPOPMIN z -1") == "!ERR value is out of range, must be positive");
  CHECK(f.R("ZPOPMIN z x") == "!ERR value is out of range, must be positive");
  CHECK(f.R("ZPOPMIN z 1 2") == "!ERR syntax error");
  f.R("SETSTR s v");
  CHECK(f.R("ZPOPMIN s").rfind("!WRONGTYPE", 0) == 0);
  CHECK(f.R("ZPOPMAX s 0").rfind("!WRONGTYPE", 0) == 0);
}

TEST_CASE("zset zpopmin: RESP3 nests pairs only with a count") {
  Fixture f;
  f.host.SetProtocol(3);
  f.R("ZADD z 1 a 2 b 3 c");
  CHECK(f.R("ZPOPMIN z") == "[a ,1]");
  CHECK(f.R("ZPOPMIN z 1") == "[[b ,2]]");
  CHECK(f.R("ZPOPMAX z 5") == "[[c ,3]]");
}

TEST_CASE("zset zmpop: first non-empty key and nested reply and rewritten propagation") {
  Fixture f;
  f.R("ZADD b 1 x 2 y 3 z");
  f.Propagated();
  CHECK(f.R("ZMPOP 2 a b MIN") == "[b [[x ,1]]]");
  CHECK(f.R("ZMPOP 2 a b MAX COUNT 5") == "[b [[z ,3] [y ,2]]]");
  CHECK(f.R("ZMPOP 2 a b MIN") == "nilarray");
  CHECK(f.Propagated() == V{"ZPOPMIN b 1", "ZPOPMAX b 5"});
  CHECK(f.R("EXISTS b") == ":0");
}

TEST_CASE("zset zmpop: errors") {
  Fixture f;
  f.R("ZADD z 1 a");
  CHECK(f.R("ZMPOP 0 z MIN") == "!ERR numkeys should be greater than 0");
  CHECK(f.R("ZMPOP x z MIN") == "!ERR numkeys should be greater than 0");
  CHECK(f.R("ZMPOP 1 z LEFT") == "!ERR syntax error");
  CHECK(f.R("ZMPOP 2 z MIN") == "!ERR syntax error");
  CHECK(f.R("ZMPOP 9223372036854775807 z MIN") == "!ERR syntax error");
  CHECK(f.R("ZMPOP 1 z MIN COUNT 0") == "!ERR count should be greater than 0");
  CHECK(f.R("ZMPOP 1 z MIN COUNT") == "!ERR syntax error");
  CHECK(f.R("ZMPOP 1 z MIN COUNT 1 COUNT 1") == "!ERR syntax error");
  f.R("SETSTR s v");
  CHECK(f.R("ZMPOP 2 s z MIN").rfind("!WRONGTYPE", 0) == 0);
  CHECK(f.R("ZMPOP 2 z s MIN") == "[z [[a ,1]]]");
}

}  // namespace
}  // namespace plinth::zset::test
