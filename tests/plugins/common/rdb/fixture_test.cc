// The reader over a file Redis 7.0 wrote (tests/plugins/common/rdb/fixtures).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "common/rdb/source.h"
#include "common/rdb/verify.h"
#include "rdb_test_util.h"

namespace plinth::rdb {
namespace {

const char kFixture[] =
    PLINTH_TEST_SOURCE_DIR "/tests/plugins/common/rdb/fixtures/redis7_all_encodings.rdb";

TEST_CASE("rdb reader: reads a file Redis 7.0 wrote with every encoding") {
  int fd = open(kFixture, O_RDONLY);
  REQUIRE(fd >= 0);
  FdSource src(fd);
  VerifyReport report;
  CHECK_MESSAGE(Verify(&src, &report), report.error);
  close(fd);
  CHECK(report.version == 10);
  CHECK(report.checksum_verified);
  CHECK(report.keys == 15);
  CHECK(report.expires == 2);
  CHECK(report.keys_by_type["string"] == 4);
  CHECK(report.keys_by_type["list"] == 2);
  CHECK(report.keys_by_type["set"] == 4);
  CHECK(report.keys_by_type["hash"] == 3);
  CHECK(report.keys_by_type["zset"] == 2);
  CHECK(report.keys_by_rdb_type[18] == 2);  // quicklist-2
  CHECK(report.keys_by_rdb_type[11] == 2);  // intset
  CHECK(report.keys_by_rdb_type[16] == 2);  // hash listpack
  CHECK(report.keys_by_rdb_type[4] == 1);   // hash table
  CHECK(report.keys_by_rdb_type[17] == 1);  // zset listpack
  CHECK(report.keys_by_rdb_type[5] == 1);   // skiplist
  CHECK(report.aux["redis-ver"] == "7.0.15");
}

TEST_CASE("rdb reader: the Redis-made values read back as Redis holds them") {
  int fd = open(kFixture, O_RDONLY);
  REQUIRE(fd >= 0);
  std::string bytes;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) bytes.append(buf, static_cast<size_t>(n));
  close(fd);
  test::Recorder r;
  REQUIRE(test::ReadAll(bytes, &r) == "");
  auto get = [&](uint64_t db, const char* k) { return r.keys.at({db, k}); };
  CHECK(get(0, "big").items[0] == std::string(3000, 'a'));
  CHECK(get(0, "n").items[0] == "123456");
  CHECK(get(0, "s").expire_ms > 0);
  CHECK(get(0, "l").items == std::vector<std::string>{"a", "b", "1", "2"});
  CHECK(get(0, "bigl").items.size() == 300);
  CHECK(get(0, "bigl").items[299] == "element-number-300-padding-padding-padding");
  CHECK(get(0, "ints").items.size() == 300);
  CHECK(get(0, "bigz").items.size() == 300);
  CHECK(get(0, "z").scores == std::vector<double>{1, 2.5});
  CHECK(get(0, "h").items == std::vector<std::string>{"a", "1", "b", "2"});
  CHECK(get(3, "other").items[0] == "db3");
}

}  // namespace
}  // namespace plinth::rdb
