// Decoders of ziplist, listpack, intset and zipmap blobs. Each walks the blob once with every
// read checked against the end, then checks the header's counts and offsets.
#include "common/rdb/compact.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace plinth::rdb {
namespace {

uint64_t LoadLe(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The n-byte little endian two's complement integer at p.
int64_t LoadSigned(const unsigned char* p, int n) {
  uint64_t v = LoadLe(p, n);
  if (n < 8 && (v >> (8 * n - 1)) != 0) v |= ~uint64_t{0} << (8 * n);
  return static_cast<int64_t>(v);
}

std::string IntText(int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool Bad(std::string* error, const char* what, size_t at) {
  *error = std::string(what) + " (blob byte " + std::to_string(at) + ")";
  return false;
}

// One ziplist entry's encoding at p (after the prevlen): appends the element and sets *len to
// the bytes of encoding plus payload.
bool ZiplistElement(const unsigned char* p, size_t avail, std::vector<std::string>* out,
                    size_t* len) {
  if (avail < 1) return false;
  uint8_t e = p[0];
  size_t hdr = 0, payload = 0;
  switch (e >> 6) {
    case 0:
      hdr = 1, payload = e & 0x3f;
      break;
    case 1:
      if (avail < 2) return false;
      hdr = 2, payload = (size_t{e & 0x3fu} << 8) | p[1];
      break;
    case 2:
      if (avail < 5) return false;
      hdr = 5, payload = (size_t{p[1]} << 24) | (size_t{p[2]} << 16) | (size_t{p[3]} << 8) | p[4];
      break;
    default: {
      int n = 0;
      if (e == 0xC0)
        n = 2;
      else if (e == 0xD0)
        n = 4;
      else if (e == 0xE0)
        n = 8;
      else if (e == 0xF0)
        n = 3;
      else if (e == 0xFE)
        n = 1;
      if (n == 0 && e >= 0xF1 && e <= 0xFD) {
        out->push_back(IntText((e & 0x0f) - 1));
        *len = 1;
        return true;
      }
      if (n == 0 || avail < 1 + static_cast<size_t>(n)) return false;
      out->push_back(IntText(LoadSigned(p + 1, n)));
      *len = 1 + static_cast<size_t>(n);
      return true;
    }
  }
  if (avail - hdr < payload) return false;
  out->emplace_back(reinterpret_cast<const char*>(p + hdr), payload);
  *len = hdr + payload;
  return true;
}

// The listpack backlen for an entry of l bytes, most significant group first.
size_t EncodeBacklen(size_t l, unsigned char* buf) {
  if (l <= 127) {
    buf[0] = static_cast<unsigned char>(l);
    return 1;
  }
  size_t n = l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
  for (size_t i = 0; i < n; ++i) {
    unsigned char group = static_cast<unsigned char>((l >> (7 * (n - 1 - i))) & 127);
    buf[i] = i == 0 ? group : static_cast<unsigned char>(group | 128);
  }
  return n;
}

// One listpack entry's encoding and payload at p: appends the element, sets *len.
bool ListpackElement(const unsigned char* p, size_t avail, std::vector<std::string>* out,
                     size_t* len) {
  uint8_t e = p[0];
  size_t hdr = 0, payload = 0;
  if ((e & 0x80) == 0) {
    out->push_back(IntText(e));
    *len = 1;
    return true;
  }
  if ((e & 0xC0) == 0x80) {
    hdr = 1, payload = e & 0x3f;
  } else if ((e & 0xE0) == 0xC0) {
    if (avail < 2) return false;
    int64_t v = (int64_t{e & 0x1f} << 8) | p[1];
    if (v >= 4096) v -= 8192;
    out->push_back(IntText(v));
    *len = 2;
    return true;
  } else if ((e & 0xF0) == 0xE0) {
    if (avail < 2) return false;
    hdr = 2, payload = (size_t{e & 0x0fu} << 8) | p[1];
  } else if (e == 0xF0) {
    if (avail < 5) return false;
    hdr = 5, payload = LoadLe(p + 1, 4);
  } else {
    int n = e == 0xF1 ? 2 : e == 0xF2 ? 3 : e == 0xF3 ? 4 : e == 0xF4 ? 8 : 0;
    if (n == 0 || avail < 1 + static_cast<size_t>(n)) return false;
    out->push_back(IntText(LoadSigned(p + 1, n)));
    *len = 1 + static_cast<size_t>(n);
    return true;
  }
  if (avail - hdr < payload) return false;
  out->emplace_back(reinterpret_cast<const char*>(p + hdr), payload);
  *len = hdr + payload;
  return true;
}

}  // namespace

bool DecodeZiplist(std::string_view blob, std::vector<std::string>* out, std::string* error) {
  const auto* b = reinterpret_cast<const unsigned char*>(blob.data());
  size_t size = blob.size();
  if (size < 11) return Bad(error, "ziplist shorter than its header", 0);
  if (LoadLe(b, 4) != size) return Bad(error, "ziplist byte count does not match", 0);
  if (b[size - 1] != 0xFF) return Bad(error, "ziplist does not end with 0xFF", size - 1);
  uint64_t tail = LoadLe(b + 4, 4);
  uint64_t declared = LoadLe(b + 8, 2);
  size_t p = 10, last = 10, prev_size = 0, count = 0;
  while (p < size - 1) {
    size_t start = p;
    size_t prevlen = b[p];
    if (prevlen == 254) {
      if (size - 1 - p < 5) return Bad(error, "ziplist prevlen truncated", p);
      prevlen = LoadLe(b + p + 1, 4);
      p += 5;
    } else {
      p += 1;
    }
    if (prevlen != prev_size) return Bad(error, "ziplist prevlen does not match", start);
    size_t len = 0;
    if (!ZiplistElement(b + p, size - 1 - p, out, &len)) {
      return Bad(error, "ziplist entry malformed or out of bounds", start);
    }
    p += len;
    prev_size = p - start;
    last = start;
    ++count;
  }
  if (tail != last) return Bad(error, "ziplist tail offset does not match", 4);
  if (declared != 0xFFFF && declared != count) {
    return Bad(error, "ziplist entry count does not match", 8);
  }
  return true;
}

bool DecodeListpack(std::string_view blob, std::vector<std::string>* out, std::string* error) {
  const auto* b = reinterpret_cast<const unsigned char*>(blob.data());
  size_t size = blob.size();
  if (size < 7) return Bad(error, "listpack shorter than its header", 0);
  if (LoadLe(b, 4) != size) return Bad(error, "listpack byte count does not match", 0);
  if (b[size - 1] != 0xFF) return Bad(error, "listpack does not end with 0xFF", size - 1);
  uint64_t declared = LoadLe(b + 4, 2);
  size_t p = 6, count = 0;
  while (p < size - 1) {
    size_t len = 0;
    if (!ListpackElement(b + p, size - 1 - p, out, &len)) {
      return Bad(error, "listpack entry malformed or out of bounds", p);
    }
    unsigned char back[5];
    size_t blen = EncodeBacklen(len, back);
    if (size - 1 - p - len < blen || std::memcmp(b + p + len, back, blen) != 0) {
      return Bad(error, "listpack backlen does not match its entry", p);
    }
    p += len + blen;
    ++count;
  }
  if (declared != 0xFFFF && declared != count) {
    return Bad(error, "listpack element count does not match", 4);
  }
  return true;
}

bool DecodeIntset(std::string_view blob, std::vector<std::string>* out, std::string* error) {
  const auto* b = reinterpret_cast<const unsigned char*>(blob.data());
  if (blob.size() < 8) return Bad(error, "intset shorter than its header", 0);
  uint64_t enc = LoadLe(b, 4);
  uint64_t n = LoadLe(b + 4, 4);
  if (enc != 2 && enc != 4 && enc != 8) return Bad(error, "intset encoding is not 2, 4 or 8", 0);
  if (8 + n * enc != blob.size()) return Bad(error, "intset size does not match its count", 4);
  int64_t prev = 0;
  for (uint64_t i = 0; i < n; ++i) {
    int64_t v = LoadSigned(b + 8 + i * enc, static_cast<int>(enc));
    if (i > 0 && v <= prev) return Bad(error, "intset not strictly ascending", 8 + i * enc);
    out->push_back(IntText(v));
    prev = v;
  }
  return true;
}

namespace {

// A zipmap length at *p: one byte below 254, or 254 and a 4-byte little endian length.
bool ZipmapLen(const unsigned char* b, size_t end, size_t* p, size_t* len) {
  if (*p >= end) return false;
  if (b[*p] < 254) {
    *len = b[(*p)++];
    return true;
  }
  if (b[*p] != 254 || end - *p < 5) return false;
  *len = LoadLe(b + *p + 1, 4);
  *p += 5;
  return true;
}

}  // namespace

bool DecodeZipmap(std::string_view blob, std::vector<std::string>* out, std::string* error) {
  const auto* b = reinterpret_cast<const unsigned char*>(blob.data());
  size_t size = blob.size();
  if (size < 2) return Bad(error, "zipmap shorter than its header", 0);
  if (b[size - 1] != 0xFF) return Bad(error, "zipmap does not end with 0xFF", size - 1);
  size_t end = size - 1, p = 1, pairs = 0;
  while (p < end) {
    size_t start = p, klen = 0, vlen = 0;
    if (!ZipmapLen(b, end, &p, &klen) || end - p < klen) {
      return Bad(error, "zipmap field out of bounds", start);
    }
    out->emplace_back(reinterpret_cast<const char*>(b + p), klen);
    p += klen;
    if (!ZipmapLen(b, end, &p, &vlen) || p >= end) {
      return Bad(error, "zipmap value length out of bounds", start);
    }
    size_t free = b[p++];
    if (end - p < vlen || end - p - vlen < free) {
      return Bad(error, "zipmap value out of bounds", start);
    }
    out->emplace_back(reinterpret_cast<const char*>(b + p), vlen);
    p += vlen + free;
    ++pairs;
  }
  if (b[0] < 254 && b[0] != pairs) return Bad(error, "zipmap pair count does not match", 0);
  return true;
}

bool ParseCanonicalInt(std::string_view s, int64_t* v) {
  if (s.empty() || s.size() > 20) return false;
  if (s[0] == '0') {
    if (s.size() != 1) return false;
  } else if (s[0] == '-') {
    if (s.size() < 2 || s[1] < '1' || s[1] > '9') return false;
  } else if (s[0] < '1' || s[0] > '9') {
    return false;
  }
  int64_t out = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  *v = out;
  return true;
}

void ListpackBuilder::AddEntry(const char* enc, size_t enc_len, std::string_view payload) {
  entries_.append(enc, enc_len);
  entries_.append(payload);
  unsigned char back[5];
  size_t n = EncodeBacklen(enc_len + payload.size(), back);
  entries_.append(reinterpret_cast<const char*>(back), n);
  ++count_;
}

void ListpackBuilder::AppendInt(int64_t v) {
  char enc[9];
  size_t n = 0;
  if (v >= 0 && v <= 127) {
    enc[0] = static_cast<char>(v);
    n = 1;
  } else if (v >= -4096 && v <= 4095) {
    uint64_t u = static_cast<uint64_t>(v) & 0x1fff;
    enc[0] = static_cast<char>(0xC0 | (u >> 8));
    enc[1] = static_cast<char>(u & 0xff);
    n = 2;
  } else {
    int bytes = v >= INT16_MIN && v <= INT16_MAX   ? 2
                : v >= -(1 << 23) && v < (1 << 23) ? 3
                : v >= INT32_MIN && v <= INT32_MAX ? 4
                                                   : 8;
    enc[0] = static_cast<char>(bytes == 2 ? 0xF1 : bytes == 3 ? 0xF2 : bytes == 4 ? 0xF3 : 0xF4);
    uint64_t u = static_cast<uint64_t>(v);
    for (int i = 0; i < bytes; ++i) enc[1 + i] = static_cast<char>((u >> (8 * i)) & 0xff);
    n = 1 + static_cast<size_t>(bytes);
  }
  AddEntry(enc, n, {});
}

void ListpackBuilder::Append(std::string_view element) {
  int64_t v = 0;
  if (ParseCanonicalInt(element, &v)) return AppendInt(v);
  char enc[5];
  size_t n = 0, len = element.size();
  if (len < 64) {
    enc[0] = static_cast<char>(0x80 | len);
    n = 1;
  } else if (len < 4096) {
    enc[0] = static_cast<char>(0xE0 | (len >> 8));
    enc[1] = static_cast<char>(len & 0xff);
    n = 2;
  } else {
    enc[0] = static_cast<char>(0xF0);
    for (int i = 0; i < 4; ++i) enc[1 + i] = static_cast<char>((len >> (8 * i)) & 0xff);
    n = 5;
  }
  AddEntry(enc, n, element);
}

std::string ListpackBuilder::Finish() {
  std::string out;
  size_t total = bytes();
  uint64_t num = count_ < 0xFFFF ? count_ : 0xFFFF;
  out.reserve(total);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((total >> (8 * i)) & 0xff));
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>((num >> (8 * i)) & 0xff));
  out += entries_;
  out.push_back(static_cast<char>(0xFF));
  entries_.clear();
  count_ = 0;
  return out;
}

std::string EncodeIntset(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  uint32_t enc = 2;
  for (int64_t v : values) {
    if (v < INT32_MIN || v > INT32_MAX) {
      enc = 8;
    } else if ((v < INT16_MIN || v > INT16_MAX) && enc < 4) {
      enc = 4;
    }
  }
  std::string out;
  auto put = [&out](uint64_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(enc, 4);
  put(values.size(), 4);
  for (int64_t v : values) put(static_cast<uint64_t>(v), enc);
  return out;
}

}  // namespace plinth::rdb
