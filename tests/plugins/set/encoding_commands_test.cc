// Command tests of the encodings through the host: OBJECT ENCODING at the intset limits, the
// set-max-intset-entries option changed at run time, canonical integers, MEMORY USAGE, UNLINK
// and DEL of a large set.
#include "set_fixture.h"

namespace plinth::set::test {

using V = std::vector<std::string>;

TEST_CASE("set encodings: integers stay an intset up to set-max-intset-entries") {
  Fixture f;
  CHECK(f.host.GetOption("set-max-intset-entries") == "512");
  for (int i = 0; i < 512; ++i) f.Run({"SADD", "s", std::to_string(i * 7 - 1000)});
  CHECK(f.Encoding("s") == "intset");
  CHECK(f.Run({"SADD", "s", "-1000"}) == "(integer) 0");
  CHECK(f.Encoding("s") == "intset");
  f.Run({"SADD", "s", "100000"});
  CHECK(f.Encoding("s") == "hashtable");
  CHECK(f.Run({"SCARD", "s"}) == "(integer) 513");
  CHECK(f.Run({"SISMEMBER", "s", "-1000"}) == "(integer) 1");
  // Never back, even when it shrinks to one integer.
  for (int i = 0; i < 512; ++i) f.Run({"SREM", "s", std::to_string(i * 7 - 1000)});
  CHECK(f.Members("s") == V{"100000"});
  CHECK(f.Encoding("s") == "hashtable");
}

TEST_CASE("set encodings: only canonical int64 text stays in an intset") {
  Fixture f;
  f.Run({"SADD", "ok", "0", "-1", "9223372036854775807", "-9223372036854775808"});
  CHECK(f.Encoding("ok") == "intset");
  CHECK(f.Members("ok") == V{"-1", "-9223372036854775808", "0", "9223372036854775807"});
  for (const char* m : {"01", "+1", "-0", " 1", "1 ", "9223372036854775808", "1.0", "a", ""}) {
    CAPTURE(m);
    std::string key = std::string("k") + m;
    f.Run({"SADD", key, "5", m});
    CHECK(f.Encoding(key) == "hashtable");
    CHECK(f.Run({"SISMEMBER", key, m}) == "(integer) 1");
    CHECK(f.Run({"SISMEMBER", key, "5"}) == "(integer) 1");
  }
}

TEST_CASE("set encodings: the limit is mutable and read by the next add") {
  Fixture f;
  std::string error;
  REQUIRE(f.host.SetOption("set-max-intset-entries", "2", &error));
  f.Run({"SADD", "a", "1", "2"});
  CHECK(f.Encoding("a") == "intset");
  f.Run({"SADD", "a", "3"});
  CHECK(f.Encoding("a") == "hashtable");
  REQUIRE(f.host.SetOption("set-max-intset-entries", "0", &error));
  f.Run({"SADD", "b", "1"});
  CHECK(f.Encoding("b") == "hashtable");
  CHECK_FALSE(f.host.SetOption("set-max-intset-entries", "-1", &error));
  REQUIRE(f.host.SetOption("set-max-intset-entries", "512", &error));
  f.Run({"SADD", "c", "1", "2", "3"});
  CHECK(f.Encoding("c") == "intset");
}

TEST_CASE("set encodings: adding one non-integer converts an intset with its members") {
  Fixture f;
  f.Run({"SADD", "s", "3", "1", "2"});
  f.Run({"SADD", "s", "x"});
  CHECK(f.Encoding("s") == "hashtable");
  CHECK(f.Members("s") == V{"1", "2", "3", "x"});
  f.Run({"SADD", "n", "x"});
  CHECK(f.Encoding("n") == "hashtable");
}

TEST_CASE("set encodings: MEMORY USAGE grows with the members and intsets are small") {
  Fixture f;
  for (int i = 0; i < 100; ++i) f.Run({"SADD", "ints", std::to_string(i)});
  for (int i = 0; i < 100; ++i) f.Run({"SADD", "words", "member:" + std::to_string(i)});
  int64_t ints = f.host.Call({"MEMORY", "USAGE", "ints"}).integer;
  int64_t words = f.host.Call({"MEMORY", "USAGE", "words"}).integer;
  CHECK(ints > 200);
  CHECK(ints < 600);
  CHECK(words > 100 * 16);
  CHECK(words < 100 * 64);
}

TEST_CASE("set encodings: UNLINK and DEL free large and small sets") {
  Fixture f;
  for (int i = 0; i < 2000; ++i) f.Run({"SADD", "big", "m" + std::to_string(i)});
  f.Run({"SADD", "small", "1"});
  CHECK(f.Run({"UNLINK", "big"}) == "(integer) 1");
  CHECK(f.Run({"DEL", "small"}) == "(integer) 1");
  f.host.RunPosted();
  CHECK(f.Run({"EXISTS", "big", "small"}) == "(integer) 0");
}

}  // namespace plinth::set::test
