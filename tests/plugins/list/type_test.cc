// The list type inside the host with the keys plugin beside it: TYPE, OBJECT ENCODING, MEMORY
// USAGE, COPY then copy-on-write, RENAME, UNLINK, and the node-size options.
#include "list_fixture.h"

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::list::test {
namespace {

TEST_CASE("list type: TYPE OBJECT ENCODING and MEMORY USAGE") {
  Fixture f(true);
  f.Run({"RPUSH", "l", "a", "b"});
  CHECK(f.Run({"TYPE", "l"}) == "list");
  CHECK(f.Run({"OBJECT", "ENCODING", "l"}) == "\"quicklist\"");
  const std::string small = f.Run({"MEMORY", "USAGE", "l"});
  Argv argv{"RPUSH", "l"};
  for (int i = 0; i < 2000; ++i) argv.push_back("value-" + std::to_string(i));
  f.Run(argv);
  CHECK(f.Run({"OBJECT", "ENCODING", "l"}) == "\"quicklist\"");
  const int64_t big = f.host.Call({"MEMORY", "USAGE", "l"}).integer;
  CHECK(big > 2000 * 8);
  CHECK(big < 2000 * 20);  // packed: far below one allocation per element
  CHECK(small != "(integer) 0");
}

TEST_CASE("list type: COPY then a change to one side leaves the other alone") {
  Fixture f(true);
  f.Run({"RPUSH", "a", "1", "2", "3"});
  CHECK(f.Run({"COPY", "a", "b"}) == "(integer) 1");
  CHECK(f.Run({"RPUSH", "b", "4"}) == "(integer) 4");
  CHECK(f.Run({"LPOP", "a"}) == "\"1\"");
  CHECK(f.Run({"LRANGE", "a", "0", "-1"}) == "1) \"2\"\n2) \"3\"");
  CHECK(f.Run({"LRANGE", "b", "0", "-1"}) == "1) \"1\"\n2) \"2\"\n3) \"3\"\n4) \"4\"");
  CHECK(f.Run({"COPY", "b", "c"}) == "(integer) 1");
  CHECK(f.Run({"LSET", "c", "0", "x"}) == "OK");
  CHECK(f.Run({"LINSERT", "b", "BEFORE", "2", "y"}) == "(integer) 5");
  CHECK(f.Run({"LRANGE", "c", "0", "1"}) == "1) \"x\"\n2) \"2\"");
  CHECK(f.Run({"LRANGE", "b", "0", "1"}) == "1) \"1\"\n2) \"y\"");
  CHECK(f.Run({"COPY", "b", "d"}) == "(integer) 1");
  CHECK(f.Run({"RPOPLPUSH", "b", "d"}) == "\"4\"");
  CHECK(f.Run({"LLEN", "b"}) == "(integer) 4");
  CHECK(f.Run({"LLEN", "d"}) == "(integer) 6");
}

TEST_CASE("list type: RENAME UNLINK and DEL work on lists") {
  const int64_t live = fakehost::FakeHost::LiveValues();
  {
    Fixture f(true);
    Argv argv{"RPUSH", "l"};
    for (int i = 0; i < 50000; ++i) argv.push_back(std::to_string(i));
    f.Run(argv);
    CHECK(f.Run({"RENAME", "l", "m"}) == "OK");
    CHECK(f.Run({"LINDEX", "m", "-1"}) == "\"49999\"");
    CHECK(f.Run({"UNLINK", "m"}) == "(integer) 1");
    f.Run({"RPUSH", "n", "x"});
    CHECK(f.Run({"DEL", "n"}) == "(integer) 1");
    CHECK(f.host.KeyCount() == 0);
    f.Run({"RPUSH", "kept", "x"});
  }
  CHECK(fakehost::FakeHost::LiveValues() == live);
}

TEST_CASE("list type: list-max-listpack-size and its alias are runtime options") {
  Fixture f;
  CHECK(f.host.GetOption("list-max-listpack-size") == "-2");
  CHECK(f.host.GetOption("list-max-ziplist-size") == "-2");
  CHECK(f.host.GetOption("list-compress-depth") == "0");
  CHECK(f.host.SetOption("list-max-listpack-size", "2"));
  CHECK(f.host.SetOption("list-compress-depth", "3"));
  std::string err;
  CHECK_FALSE(f.host.SetOption("list-compress-depth", "-1", &err));
  CHECK(f.host.SetOption("list-max-ziplist-size", "-5"));
  Argv argv{"RPUSH", "l"};
  for (int i = 0; i < 100; ++i) argv.push_back(std::to_string(i));
  f.Run(argv);
  CHECK(f.Run({"LINDEX", "l", "99"}) == "\"99\"");
}

TEST_CASE("list type: a configured alias sets the node size at startup") {
  fakehost::FakeHost host;
  REQUIRE(host.SetOption("list-max-ziplist-size", "1"));
  REQUIRE(host.Load(&plinth_plugin_entry_v1, "list.so"));
  CHECK(host.GetOption("list-max-listpack-size") == "-2");
  host.Call({"RPUSH", "l", "a", "b", "c"});
  CHECK(host.Call({"LRANGE", "l", "0", "-1"}).elements.size() == 3);
}

}  // namespace
}  // namespace plinth::list::test
