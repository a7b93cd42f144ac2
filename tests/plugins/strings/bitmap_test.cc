// Tests of the bit operations behind SETBIT, GETBIT, BITCOUNT, BITPOS and BITOP (bitmap.h).
// Range expectations come from Redis 7.0 on the same strings.
#include "strings/bitmap.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace plinth::strings;

namespace {

int64_t Pos(std::string_view s, int bit) { return BitPos(s, bit, BitPosRange{}); }

int64_t Pos(std::string_view s, int bit, int64_t start) {
  BitPosRange r;
  r.has_start = true;
  r.start = start;
  return BitPos(s, bit, r);
}

int64_t Pos(std::string_view s, int bit, int64_t start, int64_t end, bool bits = false) {
  BitPosRange r;
  r.has_start = r.has_end = true;
  r.start = start;
  r.end = end;
  r.bit_unit = bits;
  return BitPos(s, bit, r);
}

// The bit-by-bit meaning of BITCOUNT's range, to check the word-at-a-time code against.
uint64_t SlowCount(std::string_view s, int64_t first_bit, int64_t last_bit) {
  uint64_t n = 0;
  for (int64_t b = first_bit; b <= last_bit; ++b) n += GetBit(s, static_cast<uint64_t>(b));
  return n;
}

}  // namespace

TEST_CASE("strings bitmap: BITCOUNT counts bytes and bit ranges like Redis") {
  const std::string_view s = "foobar";
  CHECK(PopCount(s) == 26);
  CHECK(BitCount(s, 0, 0, false) == 4);
  CHECK(BitCount(s, 1, 1, false) == 6);
  CHECK(BitCount(s, 5, 30, true) == 17);
  CHECK(BitCount(s, 0, -1, true) == 26);
  CHECK(BitCount(s, -1, -1, true) == 0);
  CHECK(BitCount(s, -3, -1, false) == 10);
  CHECK(BitCount(s, -1, -3, false) == 0);
  CHECK(BitCount(s, -50, -20, false) == 4);
  CHECK(BitCount(s, -20, -50, false) == 0);
  CHECK(BitCount(s, 7, 7, true) == 0);
  CHECK(BitCount(s, 1, 6, true) == 4);
  CHECK(BitCount(s, 0, 100, false) == 26);
  CHECK(BitCount("", 0, -1, false) == 0);
  CHECK(BitCount("", 0, -1, true) == 0);
}

TEST_CASE("strings bitmap: BITCOUNT bit ranges agree with a bit-by-bit count") {
  std::mt19937_64 rng(7);
  std::string s(37, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  for (int64_t a = 0; a < 37 * 8; a += 3) {
    for (int64_t b = a; b < 37 * 8; b += 5) CHECK(BitCount(s, a, b, true) == SlowCount(s, a, b));
  }
  CHECK(PopCount(s) == SlowCount(s, 0, 37 * 8 - 1));
}

TEST_CASE("strings bitmap: BITPOS finds bits like Redis") {
  const std::string p("\xff\xf0\x00", 3), q("\x00\x0f\xff", 3), o("\xff\xff\xff", 3);
  CHECK(Pos(p, 0) == 12);
  CHECK(Pos(p, 1) == 0);
  CHECK(Pos(p, 0, 2) == 16);
  CHECK(Pos(p, 1, 2) == -1);
  CHECK(Pos(p, 0, 1, 1) == 12);
  CHECK(Pos(p, 0, -30, -20) == -1);
  CHECK(Pos(p, 1, -20, -30) == 0);  // no early empty range for BITPOS
  CHECK(Pos(p, 0, 3, 5, true) == -1);
  CHECK(Pos(p, 0, 12, 23, true) == 12);
  CHECK(Pos(p, 0, 9, 11, true) == -1);
  CHECK(Pos(p, 0, 100) == -1);
  CHECK(Pos(p, 0, -1, -1, true) == 23);
  CHECK(Pos(p, 0, 14, 14, true) == 14);
  CHECK(Pos(q, 0) == 0);
  CHECK(Pos(q, 1) == 12);
  CHECK(Pos(q, 0, 2) == 24);
  CHECK(Pos(q, 1, 2) == 16);
  CHECK(Pos(q, 0, 1, 1) == 8);
  CHECK(Pos(q, 0, 3, 5, true) == 3);
  CHECK(Pos(q, 1, 0, 7, true) == -1);
  CHECK(Pos(q, 1, 14, 14, true) == 14);
}

TEST_CASE("strings bitmap: BITPOS for a clear bit past the end depends on an explicit end") {
  const std::string o("\xff\xff\xff", 3);
  CHECK(Pos(o, 0) == 24);        // no range: the string is padded with zeros
  CHECK(Pos(o, 0, 0) == 24);     // start only: still padded
  CHECK(Pos(o, 0, 1, 1) == -1);  // explicit end: not padded
  CHECK(Pos(o, 0, 0, -1) == -1);
  CHECK(Pos(o, 1, 2) == 16);
  CHECK(Pos("", 0) == -1);  // an existing empty string has no bits at all
  CHECK(Pos("", 1) == -1);
}

TEST_CASE("strings bitmap: BITPOS scans long strings a word at a time correctly") {
  std::string s(1000, '\xff');
  s[777] = '\xfe';
  CHECK(Pos(s, 0) == 777 * 8 + 7);
  CHECK(Pos(s, 0, 778) == 8000);
  CHECK(Pos(s, 0, 0, 776) == -1);
  std::string z(1000, '\0');
  z[999] = '\x01';
  CHECK(Pos(z, 1) == 7999);
  CHECK(Pos(z, 1, 7990, 7998, true) == -1);
  CHECK(Pos(z, 1, 7990, 7999, true) == 7999);
}

TEST_CASE("strings bitmap: offsets are limited by proto-max-bulk-len") {
  uint64_t off = 0;
  CHECK(ParseBitOffset("0", 512 << 20, &off));
  CHECK(off == 0);
  CHECK(ParseBitOffset("4294967295", int64_t{512} << 20, &off));
  CHECK(off == 4294967295u);
  CHECK_FALSE(ParseBitOffset("4294967296", int64_t{512} << 20, &off));
  CHECK_FALSE(ParseBitOffset("-1", int64_t{512} << 20, &off));
  CHECK_FALSE(ParseBitOffset("1.5", int64_t{512} << 20, &off));
  CHECK_FALSE(ParseBitOffset("#1", int64_t{512} << 20, &off));
  CHECK_FALSE(ParseBitOffset("16", 2, &off));
  CHECK(ParseBitOffset("15", 2, &off));
}

TEST_CASE("strings bitmap: SETBIT flips one bit and returns the old one") {
  std::string s(3, '\0');
  CHECK(SetBit(s.data(), 7, 1) == 0);
  CHECK(s == std::string("\x01\0\0", 3));
  CHECK(SetBit(s.data(), 7, 1) == 1);
  CHECK(SetBit(s.data(), 0, 1) == 0);
  CHECK(s == std::string("\x81\0\0", 3));
  CHECK(SetBit(s.data(), 7, 0) == 1);
  CHECK(s == std::string("\x80\0\0", 3));
  CHECK(SetBit(s.data(), 17, 0) == 0);
  CHECK(s == std::string("\x80\0\0", 3));
  CHECK(GetBit(s, 0) == 1);
  CHECK(GetBit(s, 1) == 0);
  CHECK(GetBit(s, 1000000) == 0);
}

TEST_CASE("strings bitmap: BITOP pads shorter sources with zero bytes") {
  BitOpKind op;
  CHECK(ParseBitOp("and", &op));
  CHECK(op == BitOpKind::kAnd);
  CHECK(ParseBitOp("Xor", &op));
  CHECK(op == BitOpKind::kXor);
  CHECK(ParseBitOp("NOT", &op));
  CHECK(op == BitOpKind::kNot);
  CHECK_FALSE(ParseBitOp("nand", &op));
  CHECK_FALSE(ParseBitOp("", &op));

  const std::string a("\xff\x0f\xaa\x55\x01\x02\x03\x04\x05\x06", 10), b("\x0f\xff", 2);
  std::string r = BitOp(BitOpKind::kAnd, {a, b});
  CHECK(r == std::string("\x0f\x0f\0\0\0\0\0\0\0\0", 10));
  r = BitOp(BitOpKind::kOr, {b, a});
  CHECK(r == std::string("\xff\xff\xaa\x55\x01\x02\x03\x04\x05\x06", 10));
  r = BitOp(BitOpKind::kXor, {a, b, b});
  CHECK(r == a);
  r = BitOp(BitOpKind::kNot, {b});
  CHECK(r == std::string("\xf0\x00", 2));
  // A missing first key is an empty view with no data (the fuzzer's BITOP OR d missing k under
  // UBSan): it reads as zero bytes.
  r = BitOp(BitOpKind::kOr, {std::string_view(), b});
  CHECK(r == b);
  r = BitOp(BitOpKind::kAnd, {std::string_view(), b});
  CHECK(r == std::string("\0\0", 2));
  // A missing key is an empty source: AND with it is all zeros, of the longest length.
  r = BitOp(BitOpKind::kAnd, {a, ""});
  CHECK(r == std::string(10, '\0'));
  CHECK(BitOp(BitOpKind::kOr, {"", ""}).empty());
  CHECK(BitOp(BitOpKind::kNot, {""}).empty());
}

TEST_CASE("strings bitmap: BITOP word loops match a byte-by-byte reference") {
  std::mt19937_64 rng(11);
  std::vector<std::string> srcs;
  for (size_t len : {0u, 1u, 7u, 8u, 9u, 31u, 64u, 65u}) {
    std::string s(len, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    srcs.push_back(s);
  }
  std::vector<std::string_view> views(srcs.begin(), srcs.end());
  for (BitOpKind op : {BitOpKind::kAnd, BitOpKind::kOr, BitOpKind::kXor}) {
    std::string r = BitOp(op, views);
    REQUIRE(r.size() == 65);
    for (size_t i = 0; i < r.size(); ++i) {
      unsigned want = i < srcs[0].size() ? static_cast<unsigned char>(srcs[0][i]) : 0;
      for (size_t j = 1; j < srcs.size(); ++j) {
        unsigned b = i < srcs[j].size() ? static_cast<unsigned char>(srcs[j][i]) : 0;
        want = op == BitOpKind::kAnd ? (want & b) : op == BitOpKind::kOr ? (want | b) : (want ^ b);
      }
      CHECK(static_cast<unsigned char>(r[i]) == want);
    }
  }
}
