// The listpack byte format (see listpack.h): encodings, backlens and the header.
#include "stream/listpack.h"

#include <plinth/text.hpp>

namespace plinth::stream {

std::string LpValue::Text() const { return is_int ? std::to_string(num) : std::string(str); }

namespace lp {
namespace {

constexpr uint32_t kUnknownCount = 65535;

uint8_t At(std::string_view lp, size_t off) { return static_cast<uint8_t>(lp[off]); }

void PutLe(std::string* out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t GetLe(std::string_view lp, size_t off, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(At(lp, off + i)) << (8 * i);
  return v;
}

// The encoding + data bytes of integer v.
std::string EncodeInt(int64_t v) {
  std::string e;
  if (v >= 0 && v <= 127) {
    e.push_back(static_cast<char>(v));
  } else if (v >= -4096 && v <= 4095) {
    const uint64_t u = v < 0 ? (uint64_t{1} << 13) + v : static_cast<uint64_t>(v);
    e.push_back(static_cast<char>((u >> 8) | 0xC0));
    e.push_back(static_cast<char>(u & 0xFF));
  } else if (v >= -32768 && v <= 32767) {
    e.push_back(static_cast<char>(0xF1));
    PutLe(&e, static_cast<uint64_t>(v), 2);
  } else if (v >= -8388608 && v <= 8388607) {
    e.push_back(static_cast<char>(0xF2));
    PutLe(&e, static_cast<uint64_t>(v), 3);
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    e.push_back(static_cast<char>(0xF3));
    PutLe(&e, static_cast<uint64_t>(v), 4);
  } else {
    e.push_back(static_cast<char>(0xF4));
    PutLe(&e, static_cast<uint64_t>(v), 8);
  }
  return e;
}

std::string EncodeString(std::string_view s) {
  std::string e;
  const size_t n = s.size();
  if (n < 64) {
    e.push_back(static_cast<char>(0x80 | n));
  } else if (n < 4096) {
    e.push_back(static_cast<char>((n >> 8) | 0xE0));
    e.push_back(static_cast<char>(n & 0xFF));
  } else {
    e.push_back(static_cast<char>(0xF0));
    PutLe(&e, n, 4);
  }
  e.append(s);
  return e;
}

void AppendBacklen(std::string* e, uint64_t l) {
  if (l <= 127) {
    e->push_back(static_cast<char>(l));
    return;
  }
  int n = l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
  for (int i = n - 1; i >= 0; --i) {
    uint8_t b = static_cast<uint8_t>((l >> (7 * i)) & 127);
    if (i != n - 1) b |= 128;
    e->push_back(static_cast<char>(b));
  }
}

size_t BacklenSize(uint64_t l) {
  return l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
}

// Size of the encoding + data of the element at off; 0 when it does not fit in lp.
size_t EncodedSize(std::string_view lp, size_t off) {
  const size_t avail = lp.size() - off;
  const uint8_t b = At(lp, off);
  size_t need = 0;
  if (b < 0x80) return 1;
  if ((b & 0xC0) == 0x80) {
    need = 1 + (b & 0x3F);
  } else if ((b & 0xE0) == 0xC0) {
    need = 2;
  } else if ((b & 0xF0) == 0xE0) {
    if (avail < 2) return 0;
    need = 2 + ((static_cast<size_t>(b & 0x0F) << 8) | At(lp, off + 1));
  } else if (b == 0xF0) {
    if (avail < 5) return 0;
    need = 5 + GetLe(lp, off + 1, 4);
  } else if (b == 0xF1) {
    need = 3;
  } else if (b == 0xF2) {
    need = 4;
  } else if (b == 0xF3) {
    need = 5;
  } else if (b == 0xF4) {
    need = 9;
  } else {
    return 0;
  }
  return need <= avail ? need : 0;
}

void Bump(std::string* lp, int64_t delta_count) {
  const uint32_t total = static_cast<uint32_t>(lp->size());
  for (int i = 0; i < 4; ++i) (*lp)[i] = static_cast<char>((total >> (8 * i)) & 0xFF);
  uint32_t n = HeaderCount(*lp);
  if (delta_count != 0 && n != kUnknownCount) {
    n = static_cast<uint32_t>(n + delta_count);
    (*lp)[4] = static_cast<char>(n & 0xFF);
    (*lp)[5] = static_cast<char>((n >> 8) & 0xFF);
  }
}

void AppendEncoded(std::string* lp, const std::string& enc) {
  std::string e = enc;
  AppendBacklen(&e, enc.size());
  lp->insert(lp->size() - 1, e);
  Bump(lp, 1);
}

}  // namespace

std::string Create() {
  std::string lp(kHeaderSize + 1, '\0');
  lp[kHeaderSize] = static_cast<char>(kEof);
  Bump(&lp, 0);
  return lp;
}

uint32_t Bytes(const std::string& lp) { return static_cast<uint32_t>(GetLe(lp, 0, 4)); }

uint32_t HeaderCount(const std::string& lp) { return static_cast<uint32_t>(GetLe(lp, 4, 2)); }

size_t Next(const std::string& lp, size_t off) {
  const size_t n = EncodedSize(lp, off);
  return off + n + BacklenSize(n);
}

size_t Prev(const std::string& lp, size_t off) {
  if (off <= kHeaderSize) return std::string::npos;
  size_t p = off - 1;
  uint64_t val = 0, shift = 0;
  for (;;) {
    val |= static_cast<uint64_t>(At(lp, p) & 127) << shift;
    if (!(At(lp, p) & 128)) break;
    shift += 7;
    --p;
  }
  return off - BacklenSize(val) - val;
}

size_t Last(const std::string& lp) { return Prev(lp, lp.size() - 1); }

LpValue Get(const std::string& lp, size_t off) {
  LpValue v;
  const uint8_t b = At(lp, off);
  auto sign = [](uint64_t u, int bits) {
    const uint64_t m = uint64_t{1} << (bits - 1);
    return static_cast<int64_t>((u ^ m) - m);
  };
  v.is_int = true;
  if (b < 0x80) {
    v.num = b;
  } else if ((b & 0xE0) == 0xC0) {
    v.num = sign((static_cast<uint64_t>(b & 0x1F) << 8) | At(lp, off + 1), 13);
  } else if (b == 0xF1) {
    v.num = sign(GetLe(lp, off + 1, 2), 16);
  } else if (b == 0xF2) {
    v.num = sign(GetLe(lp, off + 1, 3), 24);
  } else if (b == 0xF3) {
    v.num = sign(GetLe(lp, off + 1, 4), 32);
  } else if (b == 0xF4) {
    v.num = static_cast<int64_t>(GetLe(lp, off + 1, 8));
  } else {
    v.is_int = false;
    size_t hdr = 1, len = b & 0x3F;
    if ((b & 0xF0) == 0xE0) {
      hdr = 2;
      len = (static_cast<size_t>(b & 0x0F) << 8) | At(lp, off + 1);
    } else if (b == 0xF0) {
      hdr = 5;
      len = GetLe(lp, off + 1, 4);
    }
    v.str = std::string_view(lp).substr(off + hdr, len);
  }
  return v;
}

int64_t GetInt(const std::string& lp, size_t off) {
  LpValue v = Get(lp, off);
  if (v.is_int) return v.num;
  int64_t n = 0;
  text::ParseInt64(v.str, &n);
  return n;
}

void AppendInt(std::string* lp, int64_t v) { AppendEncoded(lp, EncodeInt(v)); }

void AppendString(std::string* lp, std::string_view s) {
  int64_t v = 0;
  if (!s.empty() && s.size() <= 20 && text::ParseInt64(s, &v)) return AppendInt(lp, v);
  AppendEncoded(lp, EncodeString(s));
}

void ReplaceInt(std::string* lp, size_t off, int64_t v) {
  const size_t old = Next(*lp, off) - off;
  std::string e = EncodeInt(v);
  AppendBacklen(&e, e.size());
  lp->replace(off, old, e);
  Bump(lp, 0);
}

bool Validate(std::string_view lp, size_t* count) {
  if (lp.size() < kHeaderSize + 1) return false;
  if (GetLe(lp, 0, 4) != lp.size() || At(lp, lp.size() - 1) != kEof) return false;
  size_t off = kHeaderSize, n = 0;
  while (off < lp.size() - 1) {
    const size_t enc = EncodedSize(lp.substr(0, lp.size() - 1), off);
    if (enc == 0) return false;
    const size_t bl = BacklenSize(enc);
    if (off + enc + bl > lp.size() - 1) return false;
    // The backlen must read back as the encoded size.
    uint64_t val = 0, shift = 0;
    size_t p = off + enc + bl - 1;
    for (size_t i = 0; i < bl; ++i, --p) {
      val |= static_cast<uint64_t>(At(lp, p) & 127) << shift;
      shift += 7;
    }
    if (val != enc) return false;
    off += enc + bl;
    ++n;
  }
  const uint64_t hdr = GetLe(lp, 4, 2);
  if (hdr != kUnknownCount && hdr != n) return false;
  *count = n;
  return true;
}

}  // namespace lp
}  // namespace plinth::stream
