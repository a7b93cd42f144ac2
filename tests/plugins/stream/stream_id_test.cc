// Unit tests of stream id parsing with Redis 7.0's rules.
#include "stream/stream_id.h"

#include <doctest/doctest.h>

namespace plinth::stream {
namespace {

TEST_CASE("stream id: strict, range and partial forms") {
  StreamId id;
  bool seq_given = true;
  CHECK(ParseId("5-7", &id, true, 0));
  CHECK(id == StreamId{5, 7});
  CHECK(ParseId("5", &id, false, UINT64_MAX));
  CHECK(id == StreamId{5, UINT64_MAX});
  CHECK(ParseId("5-*", &id, true, 0, &seq_given));
  CHECK_FALSE(seq_given);
  CHECK_FALSE(ParseId("5-*", &id, true, 0));
  CHECK_FALSE(ParseId("-", &id, true, 0));
  CHECK(ParseId("+", &id, false, 0));
  CHECK(id.IsMax());
  CHECK(ParseId("007-+1", &id, true, 0));  // strtoull's leniency, as Redis
  CHECK(id == StreamId{7, 1});
  CHECK_FALSE(ParseId("-1-0", &id, true, 0));
  CHECK_FALSE(ParseId("1-x", &id, true, 0));
  CHECK_FALSE(ParseId("18446744073709551616", &id, true, 0));
  CHECK_FALSE(ParseId(std::string(128, '1'), &id, true, 0));
  bool ex = false;
  CHECK(ParseRangeId("(3-4", &id, &ex, 0));
  CHECK(ex);
  CHECK_FALSE(ParseRangeId("(-", &id, &ex, 0));
  CHECK(ParseRangeId("(", &id, &ex, 0) == false);
}

TEST_CASE("stream id: increments, decrements and the 16-byte key") {
  StreamId id{1, UINT64_MAX};
  CHECK(id.Incr());
  CHECK(id == StreamId{2, 0});
  CHECK(id.Decr());
  CHECK(id == StreamId{1, UINT64_MAX});
  StreamId max = StreamId::Max();
  CHECK_FALSE(max.Incr());
  StreamId zero;
  CHECK_FALSE(zero.Decr());
  unsigned char k[16];
  StreamId{0x0102030405060708, 9}.Encode(k);
  CHECK(k[0] == 1);
  CHECK(k[7] == 8);
  CHECK(k[15] == 9);
  CHECK(StreamId::Decode(k) == StreamId{0x0102030405060708, 9});
  CHECK(StreamId{3, 4}.ToString() == "3-4");
}

}  // namespace
}  // namespace plinth::stream
