// Slice-by-8 over tables computed once on first use.
#include "common/rdb/crc64.h"

#include <cstring>

namespace plinth::rdb {
namespace {

// 0xad93d23594c935a9 with its bits reversed, for the reflected (LSB-first) form.
constexpr uint64_t kPolyReflected = 0x95ac9329ac4bc9b5ull;

struct Tables {
  uint64_t t[8][256];
  Tables() {
    for (int i = 0; i < 256; ++i) {
      uint64_t c = static_cast<uint64_t>(i);
      for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ kPolyReflected : c >> 1;
      t[0][i] = c;
    }
    for (int k = 1; k < 8; ++k) {
      for (int i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
    }
  }
};

const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

uint64_t LoadLe64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

uint64_t Crc64(uint64_t crc, const void* data, size_t n) {
  const auto& t = GetTables().t;
  const auto* p = static_cast<const unsigned char*>(data);
  while (n >= 8) {
    crc ^= LoadLe64(p);
    crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^ t[5][(crc >> 16) & 0xff] ^
          t[4][(crc >> 24) & 0xff] ^ t[3][(crc >> 32) & 0xff] ^ t[2][(crc >> 40) & 0xff] ^
          t[1][(crc >> 48) & 0xff] ^ t[0][crc >> 56];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

}  // namespace plinth::rdb
