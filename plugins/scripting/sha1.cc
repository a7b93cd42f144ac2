// SHA-1 (FIPS 180-4) over a whole buffer; small and allocation-free.
#include "scripting/sha1.h"

#include <cstdint>
#include <cstring>

namespace plinth::scripting {
namespace {

uint32_t Rotl(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

void Block(uint32_t h[5], const unsigned char* p) {
  uint32_t w[80];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 | uint32_t(p[4 * i + 2]) << 8 |
           uint32_t(p[4 * i + 3]);
  for (int i = 16; i < 80; ++i) w[i] = Rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int i = 0; i < 80; ++i) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6;
    }
    uint32_t t = Rotl(a, 5) + f + e + k + w[i];
    e = d;
    d = c;
    c = Rotl(b, 30);
    b = a;
    a = t;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

}  // namespace

void Sha1HexInto(const char* data, size_t len, char out[40]) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  size_t full = len / 64;
  for (size_t i = 0; i < full; ++i) Block(h, p + 64 * i);
  // The tail, the 0x80 marker and the 64-bit bit length fill one or two final blocks.
  unsigned char tail[128] = {0};
  size_t rest = len - full * 64;
  if (rest) std::memcpy(tail, p + full * 64, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = uint64_t(len) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  Block(h, tail);
  if (tail_len == 128) Block(h, tail + 64);
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 8; ++j) out[i * 8 + j] = kHex[(h[i] >> (28 - 4 * j)) & 0xf];
}

std::string Sha1Hex(std::string_view data) {
  std::string out(40, '0');
  Sha1HexInto(data.data(), data.size(), out.data());
  return out;
}

}  // namespace plinth::scripting
