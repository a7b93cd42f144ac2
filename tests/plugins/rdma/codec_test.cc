// The control-message codec against the golden bytes of ../shared/design/RDMA.md, and what a
// receiver must refuse.
#include "rdma/codec.h"

#include <doctest/doctest.h>

#include <vector>

using namespace plinth::rdma;

namespace {
std::vector<uint8_t> Encoded(const CtlMsg& m) {
  std::vector<uint8_t> b(kCtlSize);
  EncodeCtl(m, b.data());
  return b;
}
}  // namespace

TEST_CASE("rdma codec: RegisterXferMemory matches the golden bytes") {
  CtlMsg m;
  m.op = Op::kRegisterXferMemory;
  m.addr = 0x00007f1234567000ULL;
  m.length = 0x00100000;
  m.rkey = 0x00abcdef;
  std::vector<uint8_t> want = {0x00, 0x03};
  want.resize(16, 0x00);
  for (uint8_t b : {0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x70, 0x00}) want.push_back(b);
  for (uint8_t b : {0x00, 0x10, 0x00, 0x00, 0x00, 0xab, 0xcd, 0xef}) want.push_back(b);
  CHECK(Encoded(m) == want);
  CtlMsg back;
  REQUIRE(DecodeCtl(want.data(), want.size(), &back));
  CHECK(back.op == Op::kRegisterXferMemory);
  CHECK(back.addr == m.addr);
  CHECK(back.length == m.length);
  CHECK(back.rkey == m.rkey);
}

TEST_CASE("rdma codec: Keepalive and the feature reply match the golden bytes") {
  CtlMsg k;
  k.op = Op::kKeepalive;
  std::vector<uint8_t> want(kCtlSize, 0);
  want[1] = 0x02;
  CHECK(Encoded(k) == want);
  CtlMsg f;
  f.op = Op::kGetServerFeature;
  f.select = 0xbeef;
  std::vector<uint8_t> reply(kCtlSize, 0);
  reply[2] = 0xbe;
  reply[3] = 0xef;
  CHECK(Encoded(f) == reply);
}

TEST_CASE("rdma codec: a message that is not 32 bytes or has an unknown opcode is refused") {
  std::vector<uint8_t> b(40, 0);
  b[1] = 0x02;
  CtlMsg m;
  CHECK_FALSE(DecodeCtl(b.data(), 40, &m));
  CHECK_FALSE(DecodeCtl(b.data(), 31, &m));
  CHECK(DecodeCtl(b.data(), 32, &m));
  b[1] = 0x04;
  CHECK_FALSE(DecodeCtl(b.data(), 32, &m));
  b[0] = 0x01;
  b[1] = 0x00;
  CHECK_FALSE(DecodeCtl(b.data(), 32, &m));  // 0x0100: big-endian, not 1
}
