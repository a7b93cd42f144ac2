// The strict AOF reader: whole files, truncation at every byte of the last record, MULTI
// without EXEC, and corruption reported with the exact offset.
#include "aof/aof_reader.h"

#include <doctest/doctest.h>

using namespace plinth::aof;
using Status = AofReader::Status;

namespace {

std::string Cmd(std::vector<std::string_view> argv) {
  std::string out;
  AppendCommand(&out, argv);
  return out;
}

}  // namespace

TEST_CASE("aof reader: reads commands, annotations, and binary arguments") {
  const std::string data = Cmd({"SELECT", "0"}) + "#TS:1700000000\r\n" +
                           Cmd({"SET", "k", std::string_view("a\0\r\n", 4)});
  AofReader r(data);
  std::vector<std::string_view> argv;
  REQUIRE(r.Next(&argv) == Status::kCommand);
  CHECK(argv == std::vector<std::string_view>{"SELECT", "0"});
  REQUIRE(r.Next(&argv) == Status::kCommand);
  CHECK(argv.size() == 3);
  CHECK(argv[2] == std::string_view("a\0\r\n", 4));
  CHECK(r.Next(&argv) == Status::kEnd);
  CHECK(r.valid_prefix() == data.size());
  CHECK(ScanAof("").status == Status::kEnd);
}

TEST_CASE("aof reader: a cut at every byte of the last record is a truncation to its start") {
  const std::string head = Cmd({"SET", "a", "1"}) + Cmd({"INCR", "a"});
  const std::string last = Cmd({"SET", "key", "value"});
  for (size_t cut = 1; cut < last.size(); ++cut) {
    CAPTURE(cut);
    const ScanResult r = ScanAof(head + last.substr(0, cut));
    CHECK(r.status == Status::kTruncated);
    CHECK(r.valid_prefix == head.size());
    CHECK(r.error_offset == head.size());
    CHECK(r.commands == 2);
  }
  CHECK(ScanAof(head + last).status == Status::kEnd);
}

TEST_CASE("aof reader: MULTI without EXEC at the end is a truncation to before MULTI") {
  const std::string head = Cmd({"SET", "a", "1"});
  const std::string tx = Cmd({"MULTI"}) + Cmd({"INCR", "a"}) + Cmd({"INCR", "b"});
  const std::string exec = Cmd({"EXEC"});
  const std::string full = head + tx + exec;
  for (size_t cut = head.size() + 1; cut < full.size(); ++cut) {
    CAPTURE(cut);
    const ScanResult r = ScanAof(std::string_view(full).substr(0, cut));
    CHECK(r.status == Status::kTruncated);
    CHECK(r.valid_prefix == head.size());
  }
  const ScanResult whole = ScanAof(full);
  CHECK(whole.status == Status::kEnd);
  CHECK(whole.valid_prefix == full.size());
}

TEST_CASE("aof reader: corruption in the middle is an error at its exact offset") {
  const std::string a = Cmd({"SET", "a", "1"});
  struct Case {
    std::string bad;
    size_t offset;  // relative to the bad record
    const char* what;
  } cases[] = {
      {"+OK\r\n", 0, "expected '*'"},
      {"\r\n", 0, "expected '*'"},
      {"*0\r\n", 1, "invalid multibulk length"},
      {"*-1\r\n", 1, "invalid multibulk length"},
      {"*1x\r\n", 2, "invalid multibulk length"},
      {"*1\r\r", 3, "invalid CRLF"},
      {"*1\r\n:3\r\n", 4, "expected '$'"},
      {"*1\r\n$-1\r\n", 5, "invalid bulk length"},
      {"*1\r\n$3\r\nabcX\r\n", 11, "invalid CRLF"},
      {"*1\r\n$99999999999999999\r\n", 17, "invalid bulk length"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.bad);
    const ScanResult r = ScanAof(a + c.bad + a);
    CHECK(r.status == Status::kError);
    CHECK(r.error_offset == a.size() + c.offset);
    CHECK(r.error.find(c.what) != std::string::npos);
    CHECK(r.error.find("at offset " + std::to_string(a.size() + c.offset)) != std::string::npos);
  }
}

TEST_CASE("aof reader: EXEC without MULTI and nested MULTI are corruption") {
  CHECK(ScanAof(Cmd({"EXEC"})).status == Status::kError);
  CHECK(ScanAof(Cmd({"MULTI"}) + Cmd({"multi"})).status == Status::kError);
}

TEST_CASE("aof reader: a huge count with little data is a truncation, not an allocation") {
  const ScanResult r = ScanAof("*1000000000\r\n$1\r\nx\r\n");
  CHECK(r.status == Status::kTruncated);
  CHECK(r.valid_prefix == 0);
}
