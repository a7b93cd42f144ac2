// IntSet: a sorted array of distinct int64 values stored at the narrowest width (2, 4 or 8
// bytes) that holds them all, the compact encoding of a small all-integer set ("intset").
// Lookups are binary searches; inserts and removals move the tail. Plain C++, no ABI types.
// THREAD: any, one thread at a time per instance.
#ifndef PLINTH_SET_INTSET_H
#define PLINTH_SET_INTSET_H

#include <cstddef>
#include <cstdint>

namespace plinth::set {

class IntSet {
 public:
  IntSet() = default;
  ~IntSet();
  IntSet(const IntSet&) = delete;
  IntSet& operator=(const IntSet&) = delete;

  // Deep copy of other into *this (replacing its content). Throws std::bad_alloc.
  void CopyFrom(const IntSet& other);
  // Frees the array; the set becomes empty.
  void Clear();

  size_t Size() const { return count_; }
  // True when v is in the set. O(log n).
  bool Contains(int64_t v) const;
  // Inserts v in order, widening the array when v needs more bytes. Returns false when it was
  // already there. Throws std::bad_alloc (the set unchanged).
  bool Add(int64_t v);
  // Removes v. Returns false when it was not there.
  bool Remove(int64_t v);
  // The i-th smallest value, 0 <= i < Size().
  int64_t At(size_t i) const;
  // Removes the i-th smallest value, 0 <= i < Size().
  void RemoveAt(size_t i);
  // Bytes of the array (the allocation, not this header).
  size_t AllocatedBytes() const { return count_ * width_; }

 private:
  // Index where v is or would go; *found tells which.
  size_t Search(int64_t v, bool* found) const;
  void Widen(uint8_t width);

  uint8_t* data_ = nullptr;
  uint32_t count_ = 0;
  uint8_t width_ = 2;  // bytes per value: 2, 4 or 8
};

}  // namespace plinth::set

#endif  // PLINTH_SET_INTSET_H
