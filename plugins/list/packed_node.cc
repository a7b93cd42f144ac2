// Entry framing inside one packed list node (see packed_node.h).
#include "list/packed_node.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace plinth::list::packed {
namespace {

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 128) {
    v >>= 7;
    ++n;
  }
  return n;
}

constexpr size_t kMinCap = 16;

// Reads the forward varint at p into *v; returns its size.
size_t ReadVarint(const char* p, uint64_t* v) {
  uint64_t r = 0;
  size_t n = 0;
  unsigned shift = 0;
  for (;;) {
    const auto b = static_cast<unsigned char>(p[n++]);
    r |= static_cast<uint64_t>(b & 127) << shift;
    if (!(b & 128)) break;
    shift += 7;
  }
  *v = r;
  return n;
}

// Reads the backward varint that ends just before end into *v; returns its size.
size_t ReadVarintBack(const char* end, uint64_t* v) {
  const char* p = end - 1;
  uint64_t r = static_cast<unsigned char>(*p) & 127;
  size_t n = 1;
  unsigned shift = 7;
  while (static_cast<unsigned char>(*p) & 128) {
    --p;
    r |= static_cast<uint64_t>(static_cast<unsigned char>(*p) & 127) << shift;
    shift += 7;
    ++n;
  }
  *v = r;
  return n;
}

}  // namespace

size_t EntrySize(size_t len) { return 2 * VarintSize(len) + len; }

// Writes one framed entry at p (EntrySize(value.size()) bytes).
void WriteEntry(char* p, std::string_view value) {
  uint64_t v = value.size();
  const size_t h = VarintSize(v);
  for (size_t i = 0; i < h; ++i) {
    p[i] = static_cast<char>((v & 127) | (i + 1 < h ? 128 : 0));
    v >>= 7;
  }
  if (!value.empty()) std::memcpy(p + h, value.data(), value.size());
  char* back = p + h + value.size();  // backward: the low bits last
  v = value.size();
  for (size_t i = 0; i < h; ++i) {
    back[h - 1 - i] = static_cast<char>((v & 127) | (i + 1 < h ? 128 : 0));
    v >>= 7;
  }
}

// The entry at off: its bytes and, in *size, its framed size.
std::string_view EntryAt(const PackedNode& n, size_t off, size_t* size) {
  uint64_t len = 0;
  const size_t h = ReadVarint(n.buf + off, &len);
  if (size) *size = 2 * h + len;
  return {n.buf + off + h, static_cast<size_t>(len)};
}

// The offset of the entry that ends at end.
size_t EntryStartBefore(const PackedNode& n, size_t end) {
  uint64_t len = 0;
  const size_t h = ReadVarintBack(n.buf + end, &len);
  return end - 2 * h - len;
}

void Reserve(PackedNode* n, size_t need) {
  if (need <= n->cap) return;
  size_t cap = std::max({need, n->cap + n->cap / 2, kMinCap});
  void* p = std::realloc(n->buf, cap);
  if (!p) throw std::bad_alloc();
  n->buf = static_cast<char*>(p);
  n->cap = cap;
}

// Gives back spare room after removals (keeps some for the next push).
void Shrink(PackedNode* n) {
  if (n->cap <= kMinCap || n->cap - n->bytes <= n->bytes / 2 + 64) return;
  size_t cap = std::max(n->bytes + n->bytes / 4, kMinCap);
  void* p = std::realloc(n->buf, cap);
  if (!p) return;  // keeping the larger buffer is fine
  n->buf = static_cast<char*>(p);
  n->cap = cap;
}

void ShrinkToFit(PackedNode* n) {
  if (n->cap == n->bytes || n->bytes == 0) return;
  void* p = std::realloc(n->buf, n->bytes);
  if (!p) return;
  n->buf = static_cast<char*>(p);
  n->cap = n->bytes;
}

// Opens es bytes at off and writes value there.
void InsertEntry(PackedNode* n, size_t off, std::string_view value) {
  const size_t es = EntrySize(value.size());
  Reserve(n, n->bytes + es);
  std::memmove(n->buf + off + es, n->buf + off, n->bytes - off);
  WriteEntry(n->buf + off, value);
  n->bytes += es;
  n->count++;
}

// Closes the bytes [off, off + len) that held removed entries.
void EraseBytes(PackedNode* n, size_t off, size_t len, uint32_t entries) {
  std::memmove(n->buf + off, n->buf + off + len, n->bytes - off - len);
  n->bytes -= len;
  n->count -= entries;
  Shrink(n);
}

}  // namespace plinth::list::packed
