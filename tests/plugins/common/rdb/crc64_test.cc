// CRC-64/Jones as Redis's RDB checksum.
#include "common/rdb/crc64.h"

#include <doctest/doctest.h>

#include <string>

namespace plinth::rdb {
namespace {

TEST_CASE("crc64: matches the check value of CRC-64/Jones") {
  CHECK(Crc64(0, "123456789", 9) == 0xe9c6d914c4b8d9caull);
  CHECK(Crc64(0, "", 0) == 0);
}

TEST_CASE("crc64: extending a crc piecewise equals one pass at every split") {
  std::string data;
  for (int i = 0; i < 100; ++i) data.push_back(static_cast<char>(i * 37 + 11));
  uint64_t whole = Crc64(0, data.data(), data.size());
  for (size_t split = 0; split <= data.size(); ++split) {
    uint64_t c = Crc64(0, data.data(), split);
    CHECK(Crc64(c, data.data() + split, data.size() - split) == whole);
  }
}

}  // namespace
}  // namespace plinth::rdb
