// LZF: a control byte below 32 starts a literal run of ctrl+1 bytes; otherwise its top three
// bits hold a match length minus 2 (7: add the next byte) and its low five bits with the next
// byte hold the match distance minus 1, so matches reach 8 KiB back.
#include "common/rdb/lzf.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace plinth::rdb {
namespace {

constexpr size_t kMaxLiteral = 32;
constexpr size_t kMaxOffset = 8192;
constexpr size_t kMaxMatch = 264;  // 7 + 255 + 2
constexpr int kHashBits = 14;

uint32_t Hash3(const unsigned char* p) {
  uint32_t v = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
  return (v * 2654435761u) >> (32 - kHashBits);
}

// Emits the pending literal run [lit, end) in chunks of at most 32 bytes.
void FlushLiterals(const unsigned char* lit, const unsigned char* end, std::string* out) {
  while (lit < end) {
    size_t run = static_cast<size_t>(end - lit);
    if (run > kMaxLiteral) run = kMaxLiteral;
    out->push_back(static_cast<char>(run - 1));
    out->append(reinterpret_cast<const char*>(lit), run);
    lit += run;
  }
}

void EmitMatch(size_t len, size_t dist, std::string* out) {
  size_t l = len - 2;
  size_t off = dist - 1;
  if (l < 7) {
    out->push_back(static_cast<char>((l << 5) | (off >> 8)));
  } else {
    out->push_back(static_cast<char>((7 << 5) | (off >> 8)));
    out->push_back(static_cast<char>(l - 7));
  }
  out->push_back(static_cast<char>(off & 0xff));
}

}  // namespace

bool LzfCompress(const char* in, size_t n, std::string* out) {
  out->clear();
  if (n < 4) return false;
  const auto* base = reinterpret_cast<const unsigned char*>(in);
  const unsigned char* end = base + n;
  std::vector<uint32_t> table(size_t{1} << kHashBits, UINT32_MAX);
  const unsigned char* p = base;
  const unsigned char* lit = base;
  while (p + 3 <= end) {
    uint32_t h = Hash3(p);
    uint32_t cand = table[h];
    size_t pos = static_cast<size_t>(p - base);
    table[h] = static_cast<uint32_t>(pos);
    if (cand != UINT32_MAX && pos - cand <= kMaxOffset && std::memcmp(base + cand, p, 3) == 0) {
      size_t limit = static_cast<size_t>(end - p);
      if (limit > kMaxMatch) limit = kMaxMatch;
      size_t len = 3;
      while (len < limit && base[cand + len] == p[len]) ++len;
      FlushLiterals(lit, p, out);
      EmitMatch(len, pos - cand, out);
      p += len;
      lit = p;
    } else {
      ++p;
    }
    if (out->size() >= n) return false;
  }
  FlushLiterals(lit, end, out);
  return out->size() < n;
}

bool LzfDecompress(const char* in, size_t n, char* out, size_t out_len) {
  const auto* ip = reinterpret_cast<const unsigned char*>(in);
  const unsigned char* in_end = ip + n;
  size_t op = 0;
  while (ip < in_end) {
    size_t ctrl = *ip++;
    if (ctrl < 32) {
      size_t run = ctrl + 1;
      if (static_cast<size_t>(in_end - ip) < run || out_len - op < run) return false;
      std::memcpy(out + op, ip, run);
      ip += run;
      op += run;
      continue;
    }
    size_t len = ctrl >> 5;
    if (len == 7) {
      if (ip >= in_end) return false;
      len += *ip++;
    }
    len += 2;
    if (ip >= in_end) return false;
    size_t dist = ((ctrl & 0x1f) << 8) + *ip++ + 1;
    if (dist > op || out_len - op < len) return false;
    // Byte by byte: a match may overlap the bytes it produces (a run).
    for (size_t i = 0; i < len; ++i, ++op) out[op] = out[op - dist];
  }
  return op == out_len;
}

}  // namespace plinth::rdb
