// Command tests of XADD, XTRIM, XDEL and XSETID: ids, errors, events and propagation.
#include "stream_fixture.h"

namespace plinth::stream::test {
namespace {

TEST_CASE("stream xadd: ids, partial ids and errors") {
  Fixture f;
  CHECK(f.R("XADD s 1-1 a 1") == "1-1");
  CHECK(f.R("XADD s 1-* b 2") == "1-2");
  CHECK(f.R("XADD s * c 3") == "1700000000000-0");
  CHECK(f.R("XADD s * c 3") == "1700000000000-1");
  CHECK(f.R("XADD s 1-5 a 1") ==
        "!ERR The ID specified in XADD is equal or smaller than the target stream top item");
  CHECK(f.R("XADD t 0-0 a 1") == "!ERR The ID specified in XADD must be greater than 0-0");
  CHECK(f.R("XADD s 9-9 a") == "!ERR wrong number of arguments for 'xadd' command");
  CHECK(f.R("XADD s x-1 a 1") == "!ERR Invalid stream ID specified as stream command argument");
  CHECK(f.R("XADD nokey NOMKSTREAM * a 1") == "nil");
  CHECK(f.R("EXISTS nokey") == ":0");
  CHECK(f.R("SETSTR str x") == "OK");
  CHECK(f.R("XADD str * a 1") ==
        "!WRONGTYPE Operation against a key holding the wrong kind of value");
  CHECK(f.R("TYPE s") == "stream");
  CHECK(f.R("OBJECT ENCODING s") == "stream");
}

TEST_CASE("stream xadd: events, generated ids and exact trims are propagated") {
  Fixture f;
  f.R("XADD s 1-1 a 1");
  f.R("XADD s 1-2 a 1");
  f.Events();
  f.Propagated();
  CHECK(f.R("XADD s MAXLEN ~ 1 * a 2") == "1700000000000-0");
  CHECK(f.Events() == V{"xadd s"});  // ~ removes no node short of a whole one
  CHECK(f.Propagated() == V{"XADD s MAXLEN = 3 1700000000000-0 a 2"});
  CHECK(f.R("XADD s MAXLEN 1 * a 3") == "1700000000000-1");
  CHECK(f.Events() == V{"xadd s", "xtrim s"});
  CHECK(f.Propagated() == V{"XADD s MAXLEN 1 1700000000000-1 a 3"});
  CHECK(f.R("XLEN s") == ":1");
}

TEST_CASE("stream xtrim and xdel: counts, errors and first id upkeep") {
  Fixture f;
  for (int i = 1; i <= 5; ++i) f.R("XADD s 1-" + std::to_string(i) + " f v");
  f.Events();
  CHECK(f.R("XTRIM s MAXLEN 3") == ":2");
  CHECK(f.Events() == V{"xtrim s"});
  CHECK(f.R("XTRIM s MAXLEN 3") == ":0");
  CHECK(f.Events().empty());
  CHECK(f.R("XTRIM s MINID 1-4") == ":1");
  CHECK(f.R("XTRIM s LIMIT 1") ==
        "!ERR syntax error, LIMIT cannot be used without specifying a trimming strategy");
  CHECK(f.R("XTRIM s MAXLEN 1 LIMIT 1") ==
        "!ERR syntax error, LIMIT cannot be used without the special ~ option");
  CHECK(f.R("XDEL s 1-4 1-9") == ":1");
  CHECK(f.Events() == V{"xtrim s", "xdel s"});
  CHECK(f.R("XINFO STREAM s").find("recorded-first-entry-id 1-5") != std::string::npos);
  CHECK(f.R("XDEL s 1-5") == ":1");
  CHECK(f.R("EXISTS s") == ":1");  // an empty stream stays
  CHECK(f.R("XDEL s bad") == "!ERR Invalid stream ID specified as stream command argument");
}

TEST_CASE("stream xsetid: checks and effects") {
  Fixture f;
  f.R("XADD s 5-5 f v");
  CHECK(f.R("XSETID s 5-4") ==
        "!ERR The ID specified in XSETID is smaller than the target stream top item");
  CHECK(f.R("XSETID s 9-0 ENTRIESADDED 0") ==
        "!ERR The entries_added specified in XSETID is smaller than the target stream length");
  CHECK(f.R("XSETID s 9-0 ENTRIESADDED 7 MAXDELETEDID 8-0") == "OK");
  CHECK(f.R("XADD s 9-0 f v") ==
        "!ERR The ID specified in XADD is equal or smaller than the target stream top item");
  CHECK(f.R("XSETID nokey 1-1") == "!ERR no such key");
  CHECK(f.R("XINFO STREAM s").find("max-deleted-entry-id 8-0 entries-added :7") !=
        std::string::npos);
}

}  // namespace
}  // namespace plinth::stream::test
