// The replication stream's command cutter: offsets, commands split across chunks, and the
// malformed or hostile input that must end the link instead of crashing or allocating.
#include "replication/link/stream_parser.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using plinth::replication::StreamCommand;
using plinth::replication::StreamParser;

namespace {

const std::string kSet = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv\r\nxy\r\n";
const std::string kPing = "*1\r\n$4\r\nPING\r\n";

std::string FeedError(const std::string& bytes, std::vector<StreamCommand>* out = nullptr) {
  StreamParser parser(0);
  std::vector<StreamCommand> local;
  std::string error;
  CHECK_FALSE(parser.Feed(bytes, out ? out : &local, &error));
  return error;
}

}  // namespace

TEST_CASE("stream parser: each command carries the offset just past it") {
  StreamParser parser(1000);
  std::vector<StreamCommand> out;
  std::string error;
  REQUIRE(parser.Feed(kSet + kPing, &out, &error));
  REQUIRE(out.size() == 2);
  CHECK(out[0].argv == std::vector<std::string>{"SET", "k", "v\r\nxy"});
  CHECK(out[0].end_offset == 1000 + kSet.size());
  CHECK(out[1].argv == std::vector<std::string>{"PING"});
  CHECK(out[1].end_offset == 1000 + kSet.size() + kPing.size());
  CHECK(parser.offset() == out[1].end_offset);
}

TEST_CASE("stream parser: a stream cut at every byte gives the same commands") {
  const std::string all = kSet + kPing + kSet;
  for (size_t cut = 0; cut <= all.size(); ++cut) {
    StreamParser parser(7);
    std::vector<StreamCommand> out;
    std::string error;
    REQUIRE(parser.Feed(all.substr(0, cut), &out, &error));
    REQUIRE(parser.Feed(all.substr(cut), &out, &error));
    REQUIRE(out.size() == 3);
    CHECK(out[2].end_offset == 7 + all.size());
  }
  StreamParser parser(0);
  std::vector<StreamCommand> out;
  std::string error;
  for (char c : all) REQUIRE(parser.Feed(std::string_view(&c, 1), &out, &error));
  CHECK(out.size() == 3);
  CHECK(parser.offset() == all.size());
}

TEST_CASE("stream parser: a partial command is not reported and does not move the offset") {
  StreamParser parser(5);
  std::vector<StreamCommand> out;
  std::string error;
  REQUIRE(parser.Feed(kPing + kSet.substr(0, 20), &out, &error));
  CHECK(out.size() == 1);
  CHECK(parser.offset() == 5 + kPing.size());
}

TEST_CASE("stream parser: a large bulk arriving in chunks is whole and exact") {
  const std::string value(300000, 'x');
  const std::string cmd = "*2\r\n$3\r\nGET\r\n$300000\r\n" + value + "\r\n";
  StreamParser parser(0);
  std::vector<StreamCommand> out;
  std::string error;
  for (size_t at = 0; at < cmd.size(); at += 4096) {
    REQUIRE(parser.Feed(std::string_view(cmd).substr(at, 4096), &out, &error));
  }
  REQUIRE(out.size() == 1);
  CHECK(out[0].argv[1] == value);
  CHECK(out[0].end_offset == cmd.size());
}

TEST_CASE("stream parser: rejects a byte other than '*' where a command starts") {
  std::vector<StreamCommand> out;
  CHECK(FeedError(kPing + "GARBAGE\r\n", &out).find("protocol error") == 0);
  CHECK(out.size() == 1);  // the whole command before the fault is still delivered
  CHECK(FeedError("\n").find("protocol error") == 0);
  CHECK(FeedError("*1\r\n+OK\r\n").find("expected '$'") != std::string::npos);
}

TEST_CASE("stream parser: rejects bad or negative or empty or absurd lengths") {
  CHECK(FeedError("*-1\r\n").find("protocol error") == 0);
  CHECK(FeedError("*0\r\n").find("protocol error") == 0);
  CHECK(FeedError("*1x\r\n").find("protocol error") == 0);
  CHECK(FeedError("*\r\n").find("protocol error") == 0);
  CHECK(FeedError("*1\r\n$-5\r\n").find("protocol error") == 0);
  CHECK(FeedError("*1048577\r\n").find("argument count over") != std::string::npos);
  CHECK(FeedError("*1\r\n$536870913\r\n").find("bulk length over") != std::string::npos);
  CHECK(FeedError("*99999999999999999999999999\r\n").find("protocol error") == 0);
  CHECK(FeedError("*1" + std::string(100, '1')).find("protocol error") == 0);
}

TEST_CASE("stream parser: the largest allowed sizes are accepted without allocating them") {
  StreamParser parser(0);
  std::vector<StreamCommand> out;
  std::string error;
  CHECK(parser.Feed("*1048576\r\n$536870912\r\nabc", &out, &error));
  CHECK(out.empty());
}

TEST_CASE("stream parser: rejects a bulk not followed by CRLF") {
  CHECK(FeedError("*1\r\n$4\r\nPINGxx").find("CRLF") != std::string::npos);
  CHECK(FeedError("*1\r\n$4\r\nPING\r\r").find("CRLF") != std::string::npos);
}
