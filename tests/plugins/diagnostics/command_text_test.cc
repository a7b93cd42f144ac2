// How SLOWLOG and MONITOR show commands: Redis's limits, quoting and redactions.
#include "diagnostics/command_text.h"

#include <doctest/doctest.h>

#include <string>

using plinth::diagnostics::Args;
using plinth::diagnostics::MonitorLine;
using plinth::diagnostics::SlowlogArgs;

TEST_CASE("slow log arguments: at most 32, each at most 128 bytes") {
  Args args = {"rpush", "list"};
  std::vector<std::string> storage;
  for (int i = 0; i < 40; ++i) storage.push_back(std::to_string(i));
  for (const std::string& s : storage) args.push_back(s);
  const auto shown = SlowlogArgs(args);
  REQUIRE(shown.size() == 32);
  CHECK(shown[30] == "28");
  CHECK(shown[31] == "... (11 more arguments)");
  const std::string big(300, 'v');
  const auto cut = SlowlogArgs({"set", "k", big});
  CHECK(cut[2] == std::string(128, 'v') + "... (172 more bytes)");
  CHECK(SlowlogArgs({"get", std::string(128, 'k')})[1] == std::string(128, 'k'));
}

TEST_CASE("slow log and monitor hide passwords") {
  CHECK(SlowlogArgs({"AUTH", "user", "pw"}) ==
        std::vector<std::string>{"AUTH", "(redacted)", "(redacted)"});
  CHECK(SlowlogArgs({"hello", "3", "AUTH", "u", "p", "SETNAME", "n"}) ==
        std::vector<std::string>{"hello", "3", "AUTH", "(redacted)", "(redacted)", "SETNAME", "n"});
  CHECK(SlowlogArgs({"config", "set", "maxmemory", "1mb", "requirepass", "x"})[5] == "(redacted)");
  CHECK(SlowlogArgs({"config", "set", "maxmemory", "1mb"})[3] == "1mb");
  CHECK(SlowlogArgs({"migrate", "h", "1", "", "0", "10", "KEYS", "a", "AUTH2", "u", "p"})[9] ==
        "(redacted)");
}

TEST_CASE("monitor lines: time, database, source and quoted arguments") {
  CHECK(MonitorLine(1339518083107412, 0, "127.0.0.1:60866", {"keys", "*"}) ==
        "1339518083.107412 [0 127.0.0.1:60866] \"keys\" \"*\"");
  CHECK(MonitorLine(1000000005, 3, "lua", {"set", "k", "v"}) ==
        "1000.000005 [3 lua] \"set\" \"k\" \"v\"");
  CHECK(MonitorLine(0, 0, "a", {"set", "q\"\\", std::string("\n\r\t\x01\xff", 5)}) ==
        "0.000000 [0 a] \"set\" \"q\\\"\\\\\" \"\\n\\r\\t\\x01\\xff\"");
  CHECK(MonitorLine(0, 0, "a", {"auth", "secret"}) == "0.000000 [0 a] \"auth\" \"(redacted)\"");
}
