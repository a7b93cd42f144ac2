// MemberTable (see member_table.h). A member's copy is one allocation: a 1-byte length for
// members under 255 bytes, else the byte 255 and an 8-byte length, then the bytes. Buckets
// double when members outnumber them and halve when they fall under an eighth of them.
#include "set/member_table.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <stdexcept>

namespace plinth::set {
namespace {

const uint64_t kSeed = [] {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}();

constexpr uint64_t kMulA = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kMulB = 0xC2B2AE3D27D4EB4Full;

// Multiplies into 128 bits and folds the halves: a strong, cheap 64-bit mixer.
inline uint64_t Fold(uint64_t a, uint64_t b) {
  __uint128_t p = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
}

inline uint64_t Read64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

size_t HeaderSize(size_t len) { return len < 255 ? 1 : 9; }

std::string_view BlobView(const char* blob) {
  uint8_t first = static_cast<uint8_t>(blob[0]);
  if (first < 255) return {blob + 1, first};
  uint64_t len;
  std::memcpy(&len, blob + 1, 8);
  return {blob + 9, static_cast<size_t>(len)};
}

char* MakeBlob(std::string_view s) {
  char* blob = static_cast<char*>(std::malloc(HeaderSize(s.size()) + s.size()));
  if (!blob) throw std::bad_alloc();
  if (s.size() < 255) {
    blob[0] = static_cast<char>(s.size());
    if (!s.empty()) std::memcpy(blob + 1, s.data(), s.size());
  } else {
    blob[0] = static_cast<char>(255);
    uint64_t len = s.size();
    std::memcpy(blob + 1, &len, 8);
    std::memcpy(blob + 9, s.data(), s.size());
  }
  return blob;
}

uint64_t ReverseBits(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(v);
}

// What the allocator hands out for n bytes, roughly (16-byte classes).
size_t Rounded(size_t n) { return (n + 15) & ~static_cast<size_t>(15); }

}  // namespace

uint64_t HashBytes(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = kSeed ^ (n * kMulA);
  while (n >= 16) {
    h = Fold(Read64(p) ^ kMulA ^ h, Read64(p + 8) ^ kMulB);
    p += 16;
    n -= 16;
  }
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    a = Read64(p);
    std::memcpy(&b, p + 8, n - 8);
  } else {
    std::memcpy(&a, p, n);
  }
  return Fold(Fold(a ^ kMulA ^ h, b ^ kMulB), kMulA ^ s.size());
}

MemberTable::~MemberTable() {
  for (Entry& e : entries_) std::free(e.blob);
}

void MemberTable::CopyFrom(const MemberTable& other) {
  std::vector<Entry> entries;
  entries.reserve(other.entries_.size());
  try {
    for (const Entry& e : other.entries_) {
      entries.push_back({MakeBlob(BlobView(e.blob)), e.hash, e.next});
    }
  } catch (...) {
    for (Entry& e : entries) std::free(e.blob);
    throw;
  }
  std::vector<uint32_t> buckets = other.buckets_;
  for (Entry& e : entries_) std::free(e.blob);
  entries_ = std::move(entries);
  buckets_ = std::move(buckets);
  blob_bytes_ = other.blob_bytes_;
}

void MemberTable::Reserve(size_t n) {
  if (n > kNone - 1) throw std::length_error("set too large");
  entries_.reserve(n);
  size_t b = 4;
  while (b < n) b <<= 1;
  if (b > buckets_.size()) Rehash(b);
}

uint32_t MemberTable::Find(std::string_view s, uint32_t hash) const {
  if (buckets_.empty()) return kNone;
  for (uint32_t i = buckets_[hash & (buckets_.size() - 1)]; i != kNone; i = entries_[i].next) {
    const Entry& e = entries_[i];
    if (e.hash == hash && BlobView(e.blob) == s) return i;
  }
  return kNone;
}

bool MemberTable::Contains(std::string_view s) const {
  return Find(s, static_cast<uint32_t>(HashBytes(s))) != kNone;
}

void MemberTable::Rehash(size_t n) {
  std::vector<uint32_t> fresh(n, kNone);
  size_t mask = n - 1;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    e.next = fresh[e.hash & mask];
    fresh[e.hash & mask] = i;
  }
  buckets_ = std::move(fresh);
}

bool MemberTable::Add(std::string_view s) {
  uint32_t hash = static_cast<uint32_t>(HashBytes(s));
  if (Find(s, hash) != kNone) return false;
  if (entries_.size() >= kNone - 1) throw std::length_error("set too large");
  if (entries_.size() + 1 > buckets_.size()) Rehash(buckets_.empty() ? 4 : buckets_.size() * 2);
  if (entries_.size() == entries_.capacity()) entries_.reserve(entries_.size() * 2 + 4);
  char* blob = MakeBlob(s);
  uint32_t& head = buckets_[hash & (buckets_.size() - 1)];
  entries_.push_back({blob, hash, head});  // cannot throw: capacity reserved
  head = static_cast<uint32_t>(entries_.size() - 1);
  blob_bytes_ += Rounded(HeaderSize(s.size()) + s.size());
  return true;
}

std::string_view MemberTable::At(size_t i) const { return BlobView(entries_[i].blob); }

void MemberTable::Unlink(uint32_t i) {
  uint32_t* link = &buckets_[entries_[i].hash & (buckets_.size() - 1)];
  while (*link != i) link = &entries_[*link].next;
  *link = entries_[i].next;
}

void MemberTable::RemoveAt(size_t index) {
  uint32_t i = static_cast<uint32_t>(index);
  Unlink(i);
  std::string_view s = At(i);
  blob_bytes_ -= Rounded(HeaderSize(s.size()) + s.size());
  std::free(entries_[i].blob);
  uint32_t last = static_cast<uint32_t>(entries_.size() - 1);
  if (i != last) {
    // Point whatever referenced the last entry at its new index.
    uint32_t* link = &buckets_[entries_[last].hash & (buckets_.size() - 1)];
    while (*link != last) link = &entries_[*link].next;
    *link = i;
    entries_[i] = entries_[last];
  }
  entries_.pop_back();
  if (buckets_.size() > 4 && entries_.size() < buckets_.size() / 8) {
    Rehash(buckets_.size() / 2);
    if (entries_.capacity() > 4 * entries_.size() + 16) entries_.shrink_to_fit();
  }
}

bool MemberTable::Remove(std::string_view s) {
  uint32_t i = Find(s, static_cast<uint32_t>(HashBytes(s)));
  if (i == kNone) return false;
  RemoveAt(i);
  return true;
}

size_t MemberTable::AllocatedBytes() const {
  return entries_.capacity() * sizeof(Entry) + buckets_.size() * sizeof(uint32_t) + blob_bytes_;
}

uint64_t MemberTable::NextCursor(uint64_t cursor, uint64_t mask) {
  // Counts in the reversed bit order, so the buckets a bucket splits into (or merges with)
  // after a resize come next: set the bits above the mask, reverse, add one, reverse back.
  uint64_t v = cursor | ~mask;
  v = ReverseBits(v);
  ++v;
  return ReverseBits(v);
}

}  // namespace plinth::set
