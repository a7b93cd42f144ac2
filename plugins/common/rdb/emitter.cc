// RDB encodings of lengths, strings and doubles.
#include "common/rdb/emitter.h"

#include <cstring>

#include "common/rdb/compact.h"
#include "common/rdb/crc64.h"
#include "common/rdb/format.h"
#include "common/rdb/lzf.h"

namespace plinth::rdb {

bool Emitter::Fail(std::string what) {
  if (error_.empty()) error_ = std::move(what);
  return false;
}

bool Emitter::Bytes(const void* p, size_t n) {
  if (failed()) return false;
  if (!sink_->Write(p, n)) {
    std::string why = sink_->Error();
    return Fail("write error" + (why.empty() ? std::string() : " (" + why + ")"));
  }
  crc_ = Crc64(crc_, p, n);
  offset_ += n;
  return true;
}

bool Emitter::Le(uint64_t v, int n) {
  unsigned char b[8];
  for (int i = 0; i < n; ++i) b[i] = static_cast<unsigned char>((v >> (8 * i)) & 0xff);
  return Bytes(b, static_cast<size_t>(n));
}

bool Emitter::Len(uint64_t n) {
  unsigned char b[9];
  size_t size = 0;
  if (n < 64) {
    b[0] = static_cast<unsigned char>(n);
    size = 1;
  } else if (n < 16384) {
    b[0] = static_cast<unsigned char>(0x40 | (n >> 8));
    b[1] = static_cast<unsigned char>(n & 0xff);
    size = 2;
  } else {
    int width = n <= UINT32_MAX ? 4 : 8;
    b[0] = width == 4 ? kLen32Bit : kLen64Bit;
    for (int i = 0; i < width; ++i) {
      b[1 + i] = static_cast<unsigned char>((n >> (8 * (width - 1 - i))) & 0xff);  // big endian
    }
    size = 1 + static_cast<size_t>(width);
  }
  return Bytes(b, size);
}

bool Emitter::String(std::string_view s) {
  int64_t v = 0;
  if (s.size() <= 11 && ParseCanonicalInt(s, &v) && v >= INT32_MIN && v <= INT32_MAX) {
    int width = v >= -128 && v <= 127 ? 1 : v >= -32768 && v <= 32767 ? 2 : 4;
    uint8_t enc = width == 1 ? kEncInt8 : width == 2 ? kEncInt16 : kEncInt32;
    return Byte(static_cast<uint8_t>(0xC0 | enc)) && Le(static_cast<uint64_t>(v), width);
  }
  if (compression_ && s.size() > 20 && LzfCompress(s.data(), s.size(), &lzf_) &&
      lzf_.size() + 4 <= s.size()) {
    bool ok = Byte(0xC0 | kEncLzf) && Len(lzf_.size()) && Len(s.size()) &&
              Bytes(lzf_.data(), lzf_.size());
    if (lzf_.capacity() > (1u << 20)) std::string().swap(lzf_);
    return ok;
  }
  return Len(s.size()) && Bytes(s.data(), s.size());
}

bool Emitter::BinaryDouble(double v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof u);
  return Le(u, 8);
}

}  // namespace plinth::rdb
