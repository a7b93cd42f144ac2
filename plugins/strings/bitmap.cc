// Bit operations for the bitmap commands (see bitmap.h). Bulk loops work a 64-bit word at a
// time; strings can be up to proto-max-bulk-len (512 MiB by default).
#include "strings/bitmap.h"

#include <cstring>
#include <plinth/text.hpp>

#include "strings/range.h"
#include "strings/token.h"

namespace plinth::strings {
namespace {

uint64_t LoadWord(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

void StoreWord(unsigned char* p, uint64_t w) { std::memcpy(p, &w, sizeof w); }

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// The first bit equal to bit in bit positions [from, to] of p (inclusive, both valid), or -1.
int64_t FindBit(const unsigned char* p, int64_t from, int64_t to, int bit) {
  const unsigned char skip = bit ? 0x00 : 0xff;  // a byte that holds no wanted bit
  int64_t pos = from;
  while (pos <= to) {
    int64_t byte = pos >> 3;
    // Whole bytes from a byte boundary: skip the ones without a wanted bit, a word at a time.
    if ((pos & 7) == 0 && pos + 7 <= to) {
      const uint64_t skip_word = bit ? 0 : ~uint64_t{0};
      while (pos + 63 <= to && LoadWord(p + byte) == skip_word) {
        pos += 64;
        byte += 8;
      }
      while (pos + 7 <= to && p[byte] == skip) {
        pos += 8;
        ++byte;
      }
      if (pos > to) break;
    }
    int shift = 7 - static_cast<int>(pos & 7);
    if (((p[byte] >> shift) & 1) == bit) return pos;
    ++pos;
  }
  return -1;
}

}  // namespace

uint64_t PopCount(std::string_view bytes) {
  const unsigned char* p = Bytes(bytes);
  size_t n = bytes.size();
  uint64_t count = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) count += static_cast<uint64_t>(__builtin_popcountll(LoadWord(p + i)));
  for (; i < n; ++i) count += static_cast<uint64_t>(__builtin_popcount(p[i]));
  return count;
}

uint64_t BitCount(std::string_view s, int64_t start, int64_t end, bool bit_unit) {
  int64_t len = static_cast<int64_t>(s.size());
  IndexRange r = NormalizeRange(start, end, bit_unit ? len * 8 : len, true);
  if (r.Empty()) return 0;
  if (!bit_unit) {
    return PopCount(
        s.substr(static_cast<size_t>(r.start), static_cast<size_t>(r.end - r.start + 1)));
  }
  int64_t first = r.start >> 3, last = r.end >> 3;
  uint64_t count =
      PopCount(s.substr(static_cast<size_t>(first), static_cast<size_t>(last - first + 1)));
  const unsigned char* p = Bytes(s);
  // Take back the bits of the edge bytes that lie outside the range.
  unsigned head_mask = (0xff00u >> (r.start & 7)) & 0xffu;  // bits before start
  unsigned tail_mask = (1u << (7 - (r.end & 7))) - 1;       // bits after end
  count -= static_cast<uint64_t>(__builtin_popcount(p[first] & head_mask));
  count -= static_cast<uint64_t>(__builtin_popcount(p[last] & tail_mask));
  return count;
}

int64_t BitPos(std::string_view s, int bit, const BitPosRange& range) {
  int64_t len = static_cast<int64_t>(s.size());
  int64_t first_bit = 0, last_bit = len * 8 - 1;
  bool end_given = false;
  if (range.has_start) {
    bool bits = range.has_end && range.bit_unit;
    int64_t end = range.has_end ? range.end : (bits ? len * 8 + 7 : len - 1);
    end_given = range.has_end;
    IndexRange r = NormalizeRange(range.start, end, bits ? len * 8 : len, false);
    if (r.Empty()) return -1;
    first_bit = bits ? r.start : r.start * 8;
    last_bit = bits ? r.end : r.end * 8 + 7;
  }
  if (first_bit > last_bit) return -1;
  int64_t pos = FindBit(Bytes(s), first_bit, last_bit, bit);
  if (pos >= 0) return pos;
  if (bit == 1 || end_given) return -1;
  // No clear bit inside: the string counts as padded with zeros past its last byte in range.
  return ((last_bit >> 3) + 1) * 8;
}

bool ParseBitOffset(std::string_view arg, int64_t max_bytes, uint64_t* out) {
  int64_t v = 0;
  if (!text::ParseInt64(arg, &v)) return false;
  if (v < 0 || (v >> 3) >= max_bytes) return false;
  *out = static_cast<uint64_t>(v);
  return true;
}

int GetBit(std::string_view s, uint64_t offset) {
  uint64_t byte = offset >> 3;
  if (byte >= s.size()) return 0;
  return (Bytes(s)[byte] >> (7 - (offset & 7))) & 1;
}

int SetBit(char* bytes, uint64_t offset, int on) {
  unsigned char& b = reinterpret_cast<unsigned char&>(bytes[static_cast<size_t>(offset >> 3)]);
  unsigned mask = 1u << (7 - (offset & 7));
  int old = (b & mask) ? 1 : 0;
  b = static_cast<unsigned char>(on ? (b | mask) : (b & ~mask));
  return old;
}

bool ParseBitOp(std::string_view name, BitOpKind* out) {
  auto eq = [name](std::string_view word) { return IsToken(name, word); };
  if (eq("AND"))
    *out = BitOpKind::kAnd;
  else if (eq("OR"))
    *out = BitOpKind::kOr;
  else if (eq("XOR"))
    *out = BitOpKind::kXor;
  else if (eq("NOT"))
    *out = BitOpKind::kNot;
  else
    return false;
  return true;
}

std::string BitOp(BitOpKind op, const std::vector<std::string_view>& srcs) {
  size_t maxlen = 0;
  for (std::string_view s : srcs) maxlen = s.size() > maxlen ? s.size() : maxlen;
  if (srcs.empty() || maxlen == 0) return {};
  std::string out(maxlen, '\0');
  unsigned char* r = reinterpret_cast<unsigned char*>(out.data());
  // A missing first key is an empty view whose data() may be null: memcpy must not see it.
  if (!srcs[0].empty()) std::memcpy(r, srcs[0].data(), srcs[0].size());
  if (op == BitOpKind::kNot) {
    size_t i = 0;
    for (; i + 8 <= maxlen; i += 8) StoreWord(r + i, ~LoadWord(r + i));
    for (; i < maxlen; ++i) r[i] = static_cast<unsigned char>(~r[i]);
    return out;
  }
  for (size_t j = 1; j < srcs.size(); ++j) {
    const unsigned char* p = Bytes(srcs[j]);
    size_t n = srcs[j].size(), i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t a = LoadWord(r + i), b = LoadWord(p + i);
      StoreWord(r + i, op == BitOpKind::kAnd ? (a & b) : op == BitOpKind::kOr ? (a | b) : (a ^ b));
    }
    for (; i < n; ++i) {
      unsigned a = r[i], b = p[i];
      r[i] = static_cast<unsigned char>(op == BitOpKind::kAnd  ? (a & b)
                                        : op == BitOpKind::kOr ? (a | b)
                                                               : (a ^ b));
    }
    // Past this source's end it reads as zero bytes: AND clears, OR and XOR keep.
    if (op == BitOpKind::kAnd && n < maxlen) std::memset(r + n, 0, maxlen - n);
  }
  return out;
}

}  // namespace plinth::strings
