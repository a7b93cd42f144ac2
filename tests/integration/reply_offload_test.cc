// The zero-copy reply path as a user sees it: large GET replies go out by reference
// (reply_offload, a default plugin) and stay intact whatever happens to the key while they
// wait in a client's output, references are released exactly once when a client vanishes
// mid-write, and small replies mix with referenced ones in order. plugins/reply_offload/README.md.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "test_server.h"

using plinth::testing::InfoField;
using plinth::testing::Multibulk;
using plinth::testing::RespConn;
using plinth::testing::TestServer;

namespace {

constexpr size_t kMiB = 1024 * 1024;
constexpr int kQueued = 24;  // 24 MiB of replies: more than loopback socket buffers hold

std::string Pattern(size_t size, char seed) {
  std::string s(size, 0);
  for (size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i * 7 + seed) % 26);
  return s;
}

std::string Bulk(const std::string& v) {
  return "$" + std::to_string(v.size()) + "\r\n" + v + "\r\n";
}

// Queues kQueued GETs of "big" on a client that does not read, lets change run from another
// client while those replies wait, then reads them: each must be the value as it was.
void CheckIntactWhileQueued(const std::function<void(RespConn&)>& change) {
  TestServer s;
  RespConn admin(s.port());
  const std::string old = Pattern(kMiB, 1);
  REQUIRE(admin.Cmd({"SET", "big", old}) == "+OK\r\n");
  const long long alive0 = s.ValuesAlive();
  const long long used0 = s.UsedMemory();
  const long long ref0 = InfoField(admin, "stats", "reply_bytes_referenced");
  RespConn reader(s.port());
  std::string gets;
  for (int i = 0; i < kQueued; ++i) gets += Multibulk({"GET", "big"});
  reader.Send(gets);
  // Every GET has run once their bytes show in the counter.
  for (int i = 0; i < 300 && InfoField(admin, "stats", "reply_bytes_referenced") <
                                 ref0 + static_cast<long long>(kQueued * kMiB);
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(InfoField(admin, "stats", "reply_bytes_referenced") ==
        ref0 + static_cast<long long>(kQueued * kMiB));
  change(admin);
  const std::string want = Bulk(old);
  int wrong = 0;
  for (int i = 0; i < kQueued; ++i)
    if (reader.Read(10000) != want) ++wrong;
  CHECK(wrong == 0);
  CHECK(reader.Cmd({"PING"}) == "+PONG\r\n");
  // Once written and flushed, no value is left: the replies dropped their references.
  CHECK(admin.Cmd({"FLUSHALL"}) == "+OK\r\n");
  CHECK(s.ValuesAliveBecomes(alive0 - 1) == alive0 - 1);
  CHECK(s.UsedMemory() < used0 + 4 * static_cast<long long>(kMiB));
}

}  // namespace

TEST_CASE("reply offload: queued replies keep the value when it is overwritten") {
  CheckIntactWhileQueued([](RespConn& c) {
    CHECK(c.Cmd({"SET", "big", Pattern(kMiB, 2)}) == "+OK\r\n");
  });
}

TEST_CASE("reply offload: queued replies keep the value when it is changed in place") {
  CheckIntactWhileQueued([](RespConn& c) {
    CHECK(c.Cmd({"SETRANGE", "big", "0", "XYZ"}) == ":1048576\r\n");
    CHECK(c.Cmd({"APPEND", "big", "tail"}) == ":1048580\r\n");
  });
}

TEST_CASE("reply offload: queued replies keep the value when it is deleted") {
  CheckIntactWhileQueued([](RespConn& c) { CHECK(c.Cmd({"DEL", "big"}) == ":1\r\n"); });
}

TEST_CASE("reply offload: queued replies keep the value when it expires") {
  CheckIntactWhileQueued([](RespConn& c) {
    CHECK(c.Cmd({"PEXPIRE", "big", "1"}) == ":1\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(c.Cmd({"GET", "big"}) == "$-1\r\n");
  });
}

TEST_CASE("reply offload: queued replies keep the value when it is renamed") {
  CheckIntactWhileQueued([](RespConn& c) {
    CHECK(c.Cmd({"RENAME", "big", "big2"}) == "+OK\r\n");
    CHECK(c.Cmd({"SET", "big2", "small"}) == "+OK\r\n");
  });
}

TEST_CASE("reply offload: queued replies keep the value when the databases are flushed") {
  CheckIntactWhileQueued([](RespConn& c) { CHECK(c.Cmd({"FLUSHALL"}) == "+OK\r\n"); });
  CheckIntactWhileQueued([](RespConn& c) { CHECK(c.Cmd({"FLUSHALL", "ASYNC"}) == "+OK\r\n"); });
}

TEST_CASE("reply offload: a client gone mid-write releases every reference once") {
  TestServer s;
  RespConn admin(s.port());
  REQUIRE(admin.Cmd({"SET", "big", Pattern(kMiB, 3)}) == "+OK\r\n");
  const long long alive0 = s.ValuesAlive();
  const long long used0 = s.UsedMemory();
  for (bool reset : {false, true}) {
    CAPTURE(reset);
    for (int round = 0; round < 5; ++round) {
      auto c = std::make_unique<RespConn>(s.port());
      std::string gets;
      for (int i = 0; i < kQueued; ++i) gets += Multibulk({"GET", "big"});
      c->Send(gets);
      c->Read(5000);  // the first reply is being written
      if (reset) c->ResetOnClose();
      c.reset();
    }
    CHECK(admin.Cmd({"DEL", "big"}) == ":1\r\n");
    // Every reference the vanished clients held is dropped: the value itself is freed.
    CHECK(s.ValuesAliveBecomes(alive0 - 1) == alive0 - 1);
    REQUIRE(admin.Cmd({"SET", "big", Pattern(kMiB, 3)}) == "+OK\r\n");
  }
  // Nothing of 240 MiB of unsent replies stays behind.
  long long used1 = s.UsedMemory();
  CHECK(used1 < used0 + 8 * static_cast<long long>(kMiB));
}

TEST_CASE("reply offload: referenced and copied replies mix in order in MGET and pipelines") {
  TestServer s;
  RespConn c(s.port());
  const std::string big = Pattern(kMiB, 4), mid = Pattern(100 * 1024, 5);
  REQUIRE(c.Cmd({"SET", "big", big}) == "+OK\r\n");
  REQUIRE(c.Cmd({"SET", "mid", mid}) == "+OK\r\n");
  REQUIRE(c.Cmd({"SET", "small", "x"}) == "+OK\r\n");
  const long long ref0 = InfoField(c, "stats", "reply_bytes_referenced");
  const long long copied0 = InfoField(c, "stats", "reply_bytes_copied");
  CHECK(c.Cmd({"MGET", "small", "big", "nokey", "mid", "small", "big"}) ==
        "*6\r\n$1\r\nx\r\n" + Bulk(big) + "$-1\r\n" + Bulk(mid) + "$1\r\nx\r\n" + Bulk(big));
  std::string pipe, want;
  for (int i = 0; i < 20; ++i) {
    pipe += Multibulk({"GET", i % 3 ? "small" : "big"}) + Multibulk({"PING"});
    want += (i % 3 ? "$1\r\nx\r\n" : Bulk(big)) + "+PONG\r\n";
  }
  c.Send(pipe);
  std::string got;
  for (int i = 0; i < 40; ++i) got += c.Read(10000);
  CHECK(got == want);
  CHECK(InfoField(c, "stats", "reply_bytes_referenced") > ref0 + static_cast<long long>(8 * kMiB));
  CHECK(InfoField(c, "stats", "reply_bytes_copied") > copied0);
}

TEST_CASE("reply offload: referenced bytes count in omem and the output buffer limit") {
  TestServer s({"--client-output-buffer-limit", "normal 32mb 0 0"});
  RespConn admin(s.port());
  REQUIRE(admin.Cmd({"SET", "big", Pattern(kMiB, 6)}) == "+OK\r\n");
  RespConn slow(s.port());
  std::string gets;
  for (int i = 0; i < 20; ++i) gets += Multibulk({"GET", "big"});
  slow.Send(gets);  // 20 MiB: under the limit, more than socket buffers take: it waits in omem
  // Some client line shows more than 8 MiB waiting (admin's own shows omem=0).
  bool waiting = false;
  for (int tries = 0; tries < 200 && !waiting; ++tries) {
    const std::string list = admin.Cmd({"CLIENT", "LIST"});
    for (size_t at = list.find("omem="); at != std::string::npos; at = list.find("omem=", at + 1))
      waiting = waiting || std::stoll(list.substr(at + 5)) > static_cast<long long>(8 * kMiB);
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(waiting);
  CHECK(InfoField(admin, "stats", "reply_bytes_referenced") >=
        static_cast<long long>(20 * kMiB));  // those bytes are references, not copies
  gets.clear();
  for (int i = 0; i < 30; ++i) gets += Multibulk({"GET", "big"});
  slow.Send(gets);  // 30 MiB more, all by reference: over the hard limit, the client goes
  CHECK(slow.WaitClosed(5000));
  CHECK(InfoField(admin, "stats", "client_output_buffer_limit_disconnections") == 1);
}
