// One packed node of a list: a buffer of entries framed as varint(len), the bytes, then len again
// as a varint written backwards, so the node is walked from either end without an index. Plain
// functions on a PackedNode; QuickList chains the nodes. THREAD: one thread per node.
#ifndef PLINTH_LIST_PACKED_NODE_H
#define PLINTH_LIST_PACKED_NODE_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace plinth::list {

struct PackedNode {
  char* buf = nullptr;  // malloc'd, cap bytes
  size_t bytes = 0;     // used
  size_t cap = 0;
  uint32_t count = 0;  // entries
};

namespace packed {

// The framed size of an entry of len bytes.
size_t EntrySize(size_t len);
// The entry at byte offset off: its bytes and, when size is set, its framed size.
std::string_view EntryAt(const PackedNode& n, size_t off, size_t* size);
// The offset of the entry that ends at byte offset end (> 0).
size_t EntryStartBefore(const PackedNode& n, size_t end);
// Writes one framed entry at p (EntrySize(value.size()) bytes).
void WriteEntry(char* p, std::string_view value);
// Grows the buffer to hold need bytes (amortised). Throws std::bad_alloc.
void Reserve(PackedNode* n, size_t need);
// Gives back spare room after removals, keeping some for the next push.
void Shrink(PackedNode* n);
// Drops all spare room (a node that just filled up and will not grow soon).
void ShrinkToFit(PackedNode* n);
// Inserts value as an entry at byte offset off. Throws std::bad_alloc (node unchanged).
void InsertEntry(PackedNode* n, size_t off, std::string_view value);
// Removes the bytes [off, off + len) holding entries removed entries.
void EraseBytes(PackedNode* n, size_t off, size_t len, uint32_t entries);

}  // namespace packed
}  // namespace plinth::list

#endif  // PLINTH_LIST_PACKED_NODE_H
