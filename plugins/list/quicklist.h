// QuickList: the list type's storage, a chain of nodes that each pack many entries into one
// buffer (Redis's quicklist of listpacks), so pushes and pops at both ends are O(1), an element
// costs its bytes plus two to four bytes of framing, and walking a range touches few cache
// lines. Plain C++ with no ABI types; the plugin wraps it as the "list" value type. Not
// thread-safe: one thread at a time per list (the host's main thread, or the lazy-free thread
// for a list nobody else holds).
#ifndef PLINTH_LIST_QUICKLIST_H
#define PLINTH_LIST_QUICKLIST_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "list/packed_node.h"

namespace plinth::list {

// How big a node may grow: Redis's list-max-listpack-size. Negative -1..-5 limit a node's bytes
// to 4, 8, 16, 32 or 64 KiB (below -5 counts as -5); positive limits its entries (and its bytes
// to 8 KiB, Redis's safety limit); 0 counts as 1. An entry larger than the limit gets a node of
// its own.
struct NodeLimit {
  int64_t fill = -2;
  // True when a node of bytes bytes and count entries is over the limit.
  bool Exceeded(size_t bytes, uint32_t count) const;
};

class QuickList {
 public:
  using Node = PackedNode;

  // A position: node index and byte offset of an entry inside it. Valid until the list changes.
  struct Pos {
    uint32_t node = 0;
    size_t off = 0;
  };

  QuickList() = default;
  ~QuickList();
  QuickList(const QuickList&) = delete;
  QuickList& operator=(const QuickList&) = delete;

  // A deep copy, or nullptr when memory ran out.
  QuickList* Clone() const;

  uint64_t size() const { return len_; }
  bool empty() const { return len_ == 0; }
  uint32_t nodes() const { return n_; }

  // Adds value at the head or the tail. Throws std::bad_alloc (the list unchanged).
  void PushFront(std::string_view value, NodeLimit limit);
  void PushBack(std::string_view value, NodeLimit limit);
  // Removes the head or tail entry into *out. Requires a non-empty list.
  void PopFront(std::string* out);
  void PopBack(std::string* out);

  // The entry at 0 <= index < size(). The view lives until the list changes.
  std::string_view At(uint64_t index) const;
  // The position of entry 0 <= index < size().
  Pos Locate(uint64_t index) const;
  // The entry at p and the position after it (or before it), across nodes. Next/Prev return
  // false at the end (the start); p must be a valid position.
  std::string_view Get(Pos p) const;
  bool Next(Pos* p) const;
  bool Prev(Pos* p) const;

  // Replaces the entry at index with value. Throws std::bad_alloc (unchanged).
  void Set(uint64_t index, std::string_view value, NodeLimit limit);
  // Inserts value before (or after, with after) the entry at index. Throws std::bad_alloc.
  void Insert(uint64_t index, bool after, std::string_view value, NodeLimit limit);
  // Removes up to limit entries equal to value (0: all), scanning from the head, or from the
  // tail with from_tail. Returns how many were removed.
  uint64_t RemoveMatching(std::string_view value, uint64_t limit, bool from_tail);
  // Keeps only entries [start, start + keep) of the list.
  void Keep(uint64_t start, uint64_t keep);

  // Bytes held: header, node table and node buffers.
  size_t MemoryUsage() const;

 private:
  Node& node(uint32_t i) const { return ring_[(head_ + i) & (cap_ - 1)]; }
  // Opens an empty node at index i (0 <= i <= n_), shifting later ones. Throws std::bad_alloc.
  Node& InsertNode(uint32_t i);
  // Frees node i's buffer and closes its slot.
  void EraseNode(uint32_t i);
  // Splits node i into halves until no part is over limit (a part of one entry is fine).
  void Rebalance(uint32_t i, NodeLimit limit);
  void Grow(uint32_t min_nodes);

  Node* ring_ = nullptr;  // cap_ slots (a power of two), n_ used from head_
  uint32_t cap_ = 0;
  uint32_t head_ = 0;
  uint32_t n_ = 0;
  uint64_t len_ = 0;
};

}  // namespace plinth::list

#endif  // PLINTH_LIST_QUICKLIST_H
