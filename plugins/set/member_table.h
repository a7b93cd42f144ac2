// MemberTable: the "hashtable" encoding of a set, a hash set of byte strings built for low
// per-member overhead and O(1) uniform random picks. Members live in one dense array of
// 16-byte entries (a pointer to a length-prefixed copy of the bytes, the 32-bit hash and the
// index of the next entry in its bucket); buckets are a power-of-two array of 32-bit entry
// indexes. Removal moves the last entry into the hole, so the array stays dense and a random
// index is a random member. Scans walk buckets with a reversed-bits cursor (as Redis does), so
// a member present for a whole scan is returned at least once across resizes.
// Plain C++, no ABI types. THREAD: any, one thread at a time per instance.
#ifndef PLINTH_SET_MEMBER_TABLE_H
#define PLINTH_SET_MEMBER_TABLE_H

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::set {

// The hash of s with this process's random seed.
uint64_t HashBytes(std::string_view s);

class MemberTable {
 public:
  MemberTable() = default;
  ~MemberTable();
  MemberTable(const MemberTable&) = delete;
  MemberTable& operator=(const MemberTable&) = delete;

  // A deep copy. Throws std::bad_alloc.
  void CopyFrom(const MemberTable& other);
  // Makes room for n members without rehashing on the way. Throws std::bad_alloc.
  void Reserve(size_t n);

  size_t Size() const { return entries_.size(); }
  bool Contains(std::string_view s) const;
  // Adds a copy of s. Returns false when it was already there. Throws std::bad_alloc or
  // std::length_error (more than 2^32-1 members), the table unchanged.
  bool Add(std::string_view s);
  // Removes s. Returns false when it was not there.
  bool Remove(std::string_view s);
  // The member at dense index i, 0 <= i < Size(). Borrowed until the table changes.
  std::string_view At(size_t i) const;
  // Removes the member at dense index i; the last member takes index i.
  void RemoveAt(size_t i);
  // Visits the members of the bucket at cursor (masked to the table), then returns the next
  // cursor, 0 when the scan is complete. visit(std::string_view) must not change the table.
  template <typename F>
  uint64_t ScanBucket(uint64_t cursor, F&& visit) const;
  // Bytes of the entry array, the buckets and the member copies.
  size_t AllocatedBytes() const;

 private:
  struct Entry {
    char* blob;     // length header then the bytes (see member_table.cc)
    uint32_t hash;  // low 32 bits of HashBytes
    uint32_t next;  // next entry index in the bucket, kNone at the end
  };
  static constexpr uint32_t kNone = UINT32_MAX;

  // Index of s in entries_, or kNone.
  uint32_t Find(std::string_view s, uint32_t hash) const;
  // Rebuilds the buckets with n (a power of two) heads.
  void Rehash(size_t n);
  // Unlinks entry i from its bucket chain.
  void Unlink(uint32_t i);
  static uint64_t NextCursor(uint64_t cursor, uint64_t mask);

  std::vector<Entry> entries_;
  std::vector<uint32_t> buckets_;
  size_t blob_bytes_ = 0;
};

template <typename F>
uint64_t MemberTable::ScanBucket(uint64_t cursor, F&& visit) const {
  if (buckets_.empty()) return 0;
  uint64_t mask = buckets_.size() - 1;
  for (uint32_t i = buckets_[cursor & mask]; i != kNone; i = entries_[i].next) visit(At(i));
  return NextCursor(cursor, mask);
}

}  // namespace plinth::set

#endif  // PLINTH_SET_MEMBER_TABLE_H
