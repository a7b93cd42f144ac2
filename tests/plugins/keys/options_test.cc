// COPY / FLUSH / MEMORY USAGE option grammars and db index parsing.
#include "keys/options.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::keys;

TEST_CASE("options: db indexes are integers inside the configured range") {
  int32_t db = -1;
  std::string err;
  CHECK(ParseDbIndex("3", 16, &db, &err));
  CHECK(db == 3);
  CHECK_FALSE(ParseDbIndex("16", 16, &db, &err));
  CHECK(err == "ERR DB index is out of range");
  CHECK_FALSE(ParseDbIndex("-1", 16, &db, &err));
  CHECK(err == "ERR DB index is out of range");
  CHECK_FALSE(ParseDbIndex("abc", 16, &db, &err));
  CHECK(err == "ERR value is not an integer or out of range");
  CHECK_FALSE(ParseDbIndex("4294967296", 16, &db, &err));
  CHECK(err == "ERR value is out of range, value must between -2147483648 and 2147483647");
  CHECK_FALSE(ParseDbIndex("-9223372036854775808", 16, &db, &err));
  CHECK(err == "ERR value is out of range, value must between -2147483648 and 2147483647");
}

TEST_CASE("options: COPY takes DB and REPLACE in any order") {
  std::string err;
  CopyOptions o{2};
  CHECK(ParseCopyOptions({}, 16, &o, &err));
  CHECK(o.dst_db == 2);
  CHECK_FALSE(o.replace);
  CHECK(ParseCopyOptions({"REPLACE", "db", "5"}, 16, &o, &err));
  CHECK(o.dst_db == 5);
  CHECK(o.replace);
}

TEST_CASE("options: COPY errors match Redis") {
  std::string err;
  CopyOptions o{0};
  CHECK_FALSE(ParseCopyOptions({"db"}, 16, &o, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseCopyOptions({"replace", "foo"}, 16, &o, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseCopyOptions({"db", "99"}, 16, &o, &err));
  CHECK(err == "ERR DB index is out of range");
  CHECK_FALSE(ParseCopyOptions({"db", "x"}, 16, &o, &err));
  CHECK(err == "ERR value is not an integer or out of range");
}

TEST_CASE("options: FLUSHDB takes at most one of SYNC and ASYNC") {
  FlushMode m;
  std::string err;
  CHECK(ParseFlushMode({}, &m, &err));
  CHECK(m == FlushMode::kDefault);
  CHECK(ParseFlushMode({"async"}, &m, &err));
  CHECK(m == FlushMode::kAsync);
  CHECK(ParseFlushMode({"SYNC"}, &m, &err));
  CHECK(m == FlushMode::kSync);
  CHECK_FALSE(ParseFlushMode({"sync", "x"}, &m, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseFlushMode({"now"}, &m, &err));
}

TEST_CASE("options: MEMORY USAGE validates SAMPLES") {
  std::string err;
  CHECK(ParseMemoryUsageOptions({}, &err));
  CHECK(ParseMemoryUsageOptions({"samples", "0"}, &err));
  CHECK(ParseMemoryUsageOptions({"SAMPLES", "5", "samples", "7"}, &err));
  CHECK_FALSE(ParseMemoryUsageOptions({"samples", "-1"}, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseMemoryUsageOptions({"samples", "abc"}, &err));
  CHECK(err == "ERR value is not an integer or out of range");
  CHECK_FALSE(ParseMemoryUsageOptions({"samples"}, &err));
  CHECK(err == "ERR syntax error");
  CHECK_FALSE(ParseMemoryUsageOptions({"foo"}, &err));
}
