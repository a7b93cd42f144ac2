// The bucket-slot helpers the table (db_table.cc) and the entry operations (db.cc) share:
// 6-byte pointers, hash tags and key comparison. Main thread only.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "host/core/db.h"

namespace plinth::host::db_slots {

constexpr size_t kMinBuckets = 4;
constexpr int kSlots = Bucket::kSlots;
constexpr uint64_t kPtrMask = (uint64_t{1} << 48) - 1;
constexpr size_t kRehashPerOp = 2;  // buckets a command moves while a resize runs

inline Entry* SlotPtr(const Bucket& b, size_t i) {
  uint64_t x;
  std::memcpy(&x, b.ptr + 6 * i, 8);  // the last slot's read ends inside tag[]
  return reinterpret_cast<Entry*>(x & kPtrMask);
}

inline void SetSlot(Bucket& b, size_t i, const Entry* e, uint8_t tag) {
  const uint64_t x = reinterpret_cast<uintptr_t>(e);
  if (x & ~kPtrMask) std::abort();  // a user address above 48 bits: never on Linux by default
  std::memcpy(b.ptr + 6 * i, &x, 6);
  b.tag[i] = tag;
}

inline uint8_t TagOf(uint64_t h) {
  const auto t = static_cast<uint8_t>(h >> 56);
  return t ? t : 1;
}

inline uint64_t HashKey(std::string_view k) { return HashBytes(k.data(), k.size()); }

// The slots of b whose tag is tag, as a mask: byte i of the result is 0x80 for slot i < 8;
// slot 8 is bit 0 of the second value.
struct TagMatch {
  uint64_t first8;
  bool last;
};
inline TagMatch MatchTags(const Bucket& b, uint8_t tag) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  uint64_t x;
  std::memcpy(&x, b.tag, 8);
  x ^= 0x0101010101010101ULL * tag;                            // matching bytes become zero
  const uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);  // exactly the zero bytes
  return {zero, b.tag[8] == tag};
}

// Whether entry e's key is key; 8..16-byte keys (the common ones) without a call.
inline bool KeyIs(const Entry* e, std::string_view key) {
  const size_t n = key.size();
  if (n >= 255 || e->klen != n || (e->flags & kValLongKey)) return EntryKey(e) == key;
  const char* a = e->body + KeyOffset(e);
  if (n < 8 || n > 16) return std::memcmp(a, key.data(), n) == 0;
  uint64_t x0, x1, y0, y1;
  std::memcpy(&x0, a, 8);
  std::memcpy(&y0, key.data(), 8);
  std::memcpy(&x1, a + n - 8, 8);
  std::memcpy(&y1, key.data() + n - 8, 8);
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

}  // namespace plinth::host::db_slots
