// Commands an AOF-format base holds for strings and collections' plain forms.
#include "aof/rewrite_form.h"

#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include "aof/aof_reader.h"

using namespace plinth::aof;
using Kind = PlainForm::Kind;

namespace {

std::vector<std::vector<std::string>> Commands(const std::string& data) {
  AofReader r(data);
  std::vector<std::string_view> argv;
  std::vector<std::vector<std::string>> out;
  while (r.Next(&argv) == AofReader::Status::kCommand) out.emplace_back(argv.begin(), argv.end());
  return out;
}

PlainForm Strings(std::initializer_list<std::string> s, uint64_t n) {
  PlainForm f;
  f.items.push_back({Kind::kLen, n, {}, 0});
  for (const std::string& x : s) f.items.push_back({Kind::kString, 0, x, 0});
  return f;
}

}  // namespace

TEST_CASE("aof rewrite form: strings, TTLs and SELECT") {
  std::string out;
  AppendSelectCommand(&out, 3);
  AppendStringCommand(&out, "k", "v");
  AppendExpireCommand(&out, "k", 1700000000123);
  const auto cmds = Commands(out);
  REQUIRE(cmds.size() == 3);
  CHECK(cmds[0] == std::vector<std::string>{"SELECT", "3"});
  CHECK(cmds[1] == std::vector<std::string>{"SET", "k", "v"});
  CHECK(cmds[2] == std::vector<std::string>{"PEXPIREAT", "k", "1700000000123"});
}

TEST_CASE("aof rewrite form: a list becomes RPUSH batches of 64") {
  PlainForm f;
  f.items.push_back({Kind::kLen, 130, {}, 0});
  for (int i = 0; i < 130; ++i) f.items.push_back({Kind::kString, 0, std::to_string(i), 0});
  std::string out;
  REQUIRE(AppendCollectionCommands(&out, "l", PLINTH_RDB_LIST, f));
  const auto cmds = Commands(out);
  REQUIRE(cmds.size() == 3);
  CHECK(cmds[0].size() == 66);
  CHECK(cmds[0][0] == "RPUSH");
  CHECK(cmds[0][2] == "0");
  CHECK(cmds[2].size() == 4);
  CHECK(cmds[2].back() == "129");
}

TEST_CASE("aof rewrite form: sets, hashes and sorted sets") {
  std::string out;
  REQUIRE(AppendCollectionCommands(&out, "s", PLINTH_RDB_SET, Strings({"a", "b"}, 2)));
  REQUIRE(AppendCollectionCommands(&out, "h", PLINTH_RDB_HASH, Strings({"f", "v"}, 1)));
  PlainForm z;
  z.items.push_back({Kind::kLen, 2, {}, 0});
  z.items.push_back({Kind::kString, 0, "m1", 0});
  z.items.push_back({Kind::kDouble, 0, {}, 0.1});
  z.items.push_back({Kind::kString, 0, "m2", 0});
  z.items.push_back({Kind::kDouble, 0, {}, -1.0 / 0.0});
  REQUIRE(AppendCollectionCommands(&out, "z", PLINTH_RDB_ZSET_2, z));
  const auto cmds = Commands(out);
  REQUIRE(cmds.size() == 3);
  CHECK(cmds[0] == std::vector<std::string>{"SADD", "s", "a", "b"});
  CHECK(cmds[1] == std::vector<std::string>{"HSET", "h", "f", "v"});
  CHECK(cmds[2] ==
        std::vector<std::string>{"ZADD", "z", "0.10000000000000001", "m1", "-inf", "m2"});
  CHECK(std::stod(FormatScore(0.1)) == 0.1);
}

TEST_CASE("aof rewrite form: malformed forms and unknown types append nothing") {
  std::string out;
  CHECK_FALSE(AppendCollectionCommands(&out, "s", PLINTH_RDB_SET, Strings({"a"}, 2)));
  CHECK_FALSE(AppendCollectionCommands(&out, "h", PLINTH_RDB_HASH, Strings({"a"}, 1)));
  CHECK_FALSE(AppendCollectionCommands(&out, "z", PLINTH_RDB_ZSET_2, Strings({"a", "b"}, 1)));
  CHECK_FALSE(AppendCollectionCommands(&out, "x", 99, Strings({"a"}, 1)));
  CHECK_FALSE(AppendCollectionCommands(&out, "x", PLINTH_RDB_LIST, PlainForm{}));
  CHECK(out.empty());
}
