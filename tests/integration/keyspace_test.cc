// The keyspace as a client sees it: active expiry removes keys nobody reads and gives the
// memory back; SCAN keeps its guarantee while the table grows under it.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "test_server.h"

using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

long long Field(RespConn& c, const std::string& section, const std::string& name) {
  std::string info = c.Cmd({"INFO", section});
  auto at = info.find("\n" + name + ":");
  return at == std::string::npos ? -1 : std::atoll(info.c_str() + at + name.size() + 2);
}

// Sends count SETs in one pipeline and reads every reply.
void Fill(RespConn& c, const std::string& prefix, int count, const std::string& extra = "") {
  std::string batch;
  for (int i = 0; i < count; ++i) {
    std::vector<std::string> args = {"SET", prefix + std::to_string(i), std::string(100, 'v')};
    if (!extra.empty()) {
      args.push_back("PX");
      args.push_back(extra);
    }
    batch += Multibulk(args);
  }
  c.Send(batch);
  for (int i = 0; i < count; ++i) REQUIRE(c.Read() == "+OK\r\n");
}

}  // namespace

TEST_CASE("keyspace: expired keys disappear without being read and memory comes back") {
  TestServer s;
  RespConn c(s.port());
  long long before = s.UsedMemory();
  // 5 s to live: the fill itself can take 3 s under TSan on a busy machine, and every key must
  // still be there when it ends.
  Fill(c, "volatile:", 20000, "5000");
  Fill(c, "stay:", 10);
  CHECK(c.Cmd({"DBSIZE"}) == ":20010\r\n");
  long long full = s.UsedMemory();
  for (int i = 0; i < 150 && c.Cmd({"DBSIZE"}) != ":10\r\n"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(c.Cmd({"DBSIZE"}) == ":10\r\n");  // DBSIZE counts expired keys until they are removed
  CHECK(Field(c, "stats", "expired_keys") == 20000);
  CHECK(c.Cmd({"EXISTS", "stay:3"}) == ":1\r\n");
  // Sanitizer builds run without tcmalloc and report no allocator figures.
  if (before > 0) {
    CHECK(full > before + 20000 * 100);
    CHECK(s.UsedMemory() < before + (full - before) / 4);
  }
}

TEST_CASE("keyspace: SCAN returns every key present for the whole scan while others come and go") {
  TestServer s;
  RespConn c(s.port()), writer(s.port());
  Fill(c, "stay:", 3000);
  std::set<std::string> seen;
  std::string cursor = "0";
  int round = 0;
  do {
    // The table grows for 40 rounds, then shrinks back as those keys go.
    if (round < 40) {
      Fill(writer, "churn:" + std::to_string(round) + ":", 400);
    } else if (round < 80) {
      std::vector<std::string> del = {"DEL"};
      for (int i = 0; i < 400; ++i)
        del.push_back("churn:" + std::to_string(round - 40) + ":" + std::to_string(i));
      writer.Cmd(del);
    }
    ++round;
    std::string reply = c.Cmd({"SCAN", cursor, "COUNT", "50"});
    // *2\r\n$N\r\n<cursor>\r\n*K\r\n($L\r\n<key>\r\n)*
    size_t p = reply.find("\r\n", 4) + 2;
    size_t e = reply.find("\r\n", p);
    cursor = reply.substr(p, e - p);
    p = reply.find("\r\n", e + 2) + 2;
    while (p < reply.size()) {
      size_t len_end = reply.find("\r\n", p);
      size_t len = std::stoul(reply.substr(p + 1, len_end - p - 1));
      seen.insert(reply.substr(len_end + 2, len));
      p = len_end + 2 + len + 2;
    }
  } while (cursor != "0" && round < 100000);
  for (int i = 0; i < 3000; ++i) CHECK(seen.count("stay:" + std::to_string(i)) == 1);
}

TEST_CASE("keyspace: OBJECT ENCODING follows Redis 7.0 through in-place changes") {
  TestServer s;
  RespConn c(s.port());
  auto enc = [&](const std::string& key) { return c.Cmd({"OBJECT", "ENCODING", key}); };
  CHECK(c.Cmd({"INCR", "n"}) == ":1\r\n");
  CHECK(enc("n") == "$3\r\nint\r\n");
  CHECK(c.Cmd({"INCRBY", "n", "99999"}) == ":100000\r\n");  // rewritten in place, still int
  CHECK(enc("n") == "$3\r\nint\r\n");
  CHECK(c.Cmd({"INCRBYFLOAT", "f", "1.5"}) == "$3\r\n1.5\r\n");
  CHECK(c.Cmd({"INCRBYFLOAT", "f", "1.5"}) == "$1\r\n3\r\n");
  CHECK(enc("f") == "$6\r\nembstr\r\n");  // Redis never re-encodes INCRBYFLOAT's result
  CHECK(c.Cmd({"APPEND", "a", "abc"}) == ":3\r\n");
  CHECK(enc("a") == "$6\r\nembstr\r\n");
  CHECK(c.Cmd({"APPEND", "a", "d"}) == ":4\r\n");
  CHECK(enc("a") == "$3\r\nraw\r\n");
  CHECK(c.Cmd({"SET", "s", std::string(44, 'x')}) == "+OK\r\n");
  CHECK(enc("s") == "$6\r\nembstr\r\n");
  CHECK(c.Cmd({"SET", "s", std::string(45, 'x')}) == "+OK\r\n");  // overwritten in place
  CHECK(enc("s") == "$3\r\nraw\r\n");
  CHECK(c.Cmd({"SETRANGE", "s", "0", "y"}) == ":45\r\n");
  CHECK(enc("s") == "$3\r\nraw\r\n");
  CHECK(c.Cmd({"SET", "s", "12"}) == "+OK\r\n");
  CHECK(enc("s") == "$3\r\nint\r\n");
}
