// Reading primitives of the RDB format.
#include "common/rdb/input.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/rdb/crc64.h"
#include "common/rdb/format.h"
#include "common/rdb/lzf.h"

namespace plinth::rdb {
namespace {

constexpr size_t kChunk = 1 << 20;

uint64_t LoadLe(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

bool Input::Fail(std::string_view what) { return FailAt(what, item_start_); }

bool Input::FailAt(std::string_view what, uint64_t offset) {
  if (error_.empty()) {
    error_.assign(what);
    error_ += " at offset " + std::to_string(offset);
    error_offset_ = offset;
  }
  return false;
}

bool Input::Bytes(void* p, size_t n) {
  if (failed()) return false;
  size_t got = source_->Read(p, n);
  crc_ = Crc64(crc_, p, got);
  offset_ += got;
  if (got == n) return true;
  std::string why = source_->Error();
  if (!why.empty()) return Fail("read error (" + why + ")");
  return Fail("unexpected end of file (the file ends at byte " + std::to_string(offset_) + ")");
}

bool Input::Byte(uint8_t* b) { return Bytes(b, 1); }

bool Input::RawLen(uint64_t* n, bool* encoded) {
  uint8_t b[9];
  if (!Byte(&b[0])) return false;
  *encoded = false;
  switch (b[0] >> 6) {
    case kLen6Bit:
      *n = b[0] & 0x3f;
      return true;
    case kLen14Bit:
      if (!Byte(&b[1])) return false;
      *n = (uint64_t{b[0] & 0x3fu} << 8) | b[1];
      return true;
    case kLenEncoded:
      *encoded = true;
      *n = b[0] & 0x3f;
      return true;
    default:
      break;
  }
  int width = b[0] == kLen32Bit ? 4 : b[0] == kLen64Bit ? 8 : 0;
  if (width == 0) return Fail("bad length prefix " + std::to_string(b[0]));
  if (!Bytes(b + 1, static_cast<size_t>(width))) return false;
  uint64_t v = 0;
  for (int i = 1; i <= width; ++i) v = (v << 8) | b[i];  // big endian
  *n = v;
  return true;
}

bool Input::Len(uint64_t* n) {
  bool encoded = false;
  if (!RawLen(n, &encoded)) return false;
  if (encoded) return Fail("an encoded length where a plain length belongs");
  return true;
}

bool Input::RawBytes(std::string* out, uint64_t n) {
  out->clear();
  while (n > 0) {
    size_t chunk = n < kChunk ? static_cast<size_t>(n) : kChunk;
    size_t old = out->size();
    out->resize(old + chunk);
    if (!Bytes(out->data() + old, chunk)) return false;
    n -= chunk;
  }
  return true;
}

bool Input::LzfString(std::string* out) {
  uint64_t clen = 0, ulen = 0;
  if (!Len(&clen) || !Len(&ulen)) return false;
  if (clen == 0 || ulen == 0) return Fail("empty LZF string");
  if (!RawBytes(&scratch_, clen)) return false;
  // Checked only now that clen bytes arrived, so ulen's allocation is bounded by the file.
  if (ulen > LzfMaxExpansion(scratch_.size())) return Fail("LZF length larger than possible");
  out->resize(static_cast<size_t>(ulen));
  if (!LzfDecompress(scratch_.data(), scratch_.size(), out->data(), out->size())) {
    return Fail("corrupt LZF data");
  }
  if (scratch_.capacity() > kChunk) std::string().swap(scratch_);
  return true;
}

bool Input::String(std::string* out) {
  uint64_t n = 0;
  bool encoded = false;
  if (!RawLen(&n, &encoded)) return false;
  if (!encoded) return RawBytes(out, n);
  if (n == kEncLzf) return LzfString(out);
  int width = n == kEncInt8 ? 1 : n == kEncInt16 ? 2 : n == kEncInt32 ? 4 : 0;
  if (width == 0) return Fail("unknown string encoding " + std::to_string(n));
  unsigned char b[4];
  if (!Bytes(b, static_cast<size_t>(width))) return false;
  uint64_t u = LoadLe(b, width);
  if ((u >> (8 * width - 1)) != 0) u |= ~uint64_t{0} << (8 * width);
  *out = std::to_string(static_cast<int64_t>(u));
  return true;
}

bool Input::BinaryDouble(double* v) {
  unsigned char b[8];
  if (!Bytes(b, 8)) return false;
  uint64_t u = LoadLe(b, 8);
  std::memcpy(v, &u, sizeof u);
  return true;
}

bool Input::StringDouble(double* v) {
  uint8_t len = 0;
  if (!Byte(&len)) return false;
  if (len == kScoreNan) *v = std::numeric_limits<double>::quiet_NaN();
  if (len == kScorePosInf) *v = std::numeric_limits<double>::infinity();
  if (len == kScoreNegInf) *v = -std::numeric_limits<double>::infinity();
  if (len >= kScoreNan) return true;
  char buf[256];
  if (!Bytes(buf, len)) return false;
  if (!ParseScore(std::string_view(buf, len), v)) return Fail("bad zset score");
  return true;
}

bool ParseScore(std::string_view text, double* v) {
  if (text.empty() || text.size() > 255) return false;
  char buf[256];
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  if (std::isspace(static_cast<unsigned char>(buf[0]))) return false;
  char* end = nullptr;
  double d = std::strtod(buf, &end);
  if (end != buf + text.size()) return false;
  *v = d;
  return true;
}

}  // namespace plinth::rdb
