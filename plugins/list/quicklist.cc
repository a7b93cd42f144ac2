// The packed node chain behind the list type (see quicklist.h): the ring of nodes and the list
// operations; entry framing inside one node is packed_node.*.
#include "list/quicklist.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "list/packed_node.h"

namespace plinth::list {

using namespace packed;  // NOLINT: the entry helpers

namespace {
constexpr size_t kSafetyLimit = 8192;  // bytes of a count-limited node, as Redis
}  // namespace

bool NodeLimit::Exceeded(size_t bytes, uint32_t count) const {
  if (fill >= 0) return count > std::max<int64_t>(fill, 1) || bytes > kSafetyLimit;
  const int64_t level = std::min<int64_t>(-fill, 5);
  return bytes > (size_t{4096} << (level - 1));
}

QuickList::~QuickList() {
  for (uint32_t i = 0; i < n_; ++i) std::free(node(i).buf);
  std::free(ring_);
}

QuickList* QuickList::Clone() const {
  auto* c = new (std::nothrow) QuickList();
  if (!c) return nullptr;
  try {
    if (n_) c->Grow(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      const Node& src = node(i);
      Node& dst = c->InsertNode(i);
      Reserve(&dst, src.bytes);
      std::memcpy(dst.buf, src.buf, src.bytes);
      dst.bytes = src.bytes;
      dst.count = src.count;
    }
  } catch (const std::bad_alloc&) {
    delete c;
    return nullptr;
  }
  c->len_ = len_;
  return c;
}

void QuickList::Grow(uint32_t min_nodes) {
  uint32_t cap = cap_ ? cap_ : 1;
  while (cap < min_nodes) cap *= 2;
  if (cap == cap_) return;
  auto* ring = static_cast<Node*>(std::malloc(sizeof(Node) * cap));
  if (!ring) throw std::bad_alloc();
  for (uint32_t i = 0; i < n_; ++i) ring[i] = node(i);
  std::free(ring_);
  ring_ = ring;
  cap_ = cap;
  head_ = 0;
}

QuickList::Node& QuickList::InsertNode(uint32_t i) {
  if (n_ == cap_) Grow(n_ + 1);
  if (i == 0) {
    head_ = (head_ + cap_ - 1) & (cap_ - 1);
  } else {
    for (uint32_t j = n_; j > i; --j) node(j) = node(j - 1);
  }
  n_++;
  node(i) = Node{};
  return node(i);
}

void QuickList::EraseNode(uint32_t i) {
  std::free(node(i).buf);
  if (i == 0) {
    head_ = (head_ + 1) & (cap_ - 1);
  } else {
    for (uint32_t j = i; j + 1 < n_; ++j) node(j) = node(j + 1);
  }
  n_--;
}

void QuickList::PushFront(std::string_view value, NodeLimit limit) {
  const size_t es = EntrySize(value.size());
  bool fresh = n_ == 0 || limit.Exceeded(node(0).bytes + es, node(0).count + 1);
  if (fresh) {
    if (n_ > 0) ShrinkToFit(&node(0));  // full now: its growth room is waste
    InsertNode(0);
  }
  try {
    InsertEntry(&node(0), 0, value);
  } catch (const std::bad_alloc&) {
    if (fresh) EraseNode(0);
    throw;
  }
  len_++;
}

void QuickList::PushBack(std::string_view value, NodeLimit limit) {
  const size_t es = EntrySize(value.size());
  bool fresh = n_ == 0 || limit.Exceeded(node(n_ - 1).bytes + es, node(n_ - 1).count + 1);
  if (fresh) {
    if (n_ > 0) ShrinkToFit(&node(n_ - 1));  // full now: its growth room is waste
    InsertNode(n_);
  }
  Node& n = node(n_ - 1);
  try {
    InsertEntry(&n, n.bytes, value);
  } catch (const std::bad_alloc&) {
    if (fresh) EraseNode(n_ - 1);
    throw;
  }
  len_++;
}

void QuickList::PopFront(std::string* out) {
  Node& n = node(0);
  size_t size = 0;
  out->assign(EntryAt(n, 0, &size));
  EraseBytes(&n, 0, size, 1);
  if (n.count == 0) EraseNode(0);
  len_--;
}

void QuickList::PopBack(std::string* out) {
  Node& n = node(n_ - 1);
  const size_t off = EntryStartBefore(n, n.bytes);
  out->assign(EntryAt(n, off, nullptr));
  n.bytes = off;
  n.count--;
  Shrink(&n);
  if (n.count == 0) EraseNode(n_ - 1);
  len_--;
}

QuickList::Pos QuickList::Locate(uint64_t index) const {
  Pos p;
  uint64_t left = index;
  if (index < len_ / 2) {
    while (left >= node(p.node).count) left -= node(p.node++).count;
  } else {
    uint64_t from_end = len_ - 1 - index;  // entries after the target
    p.node = n_ - 1;
    while (from_end >= node(p.node).count) from_end -= node(p.node--).count;
    left = node(p.node).count - 1 - from_end;
  }
  const Node& n = node(p.node);
  if (left <= n.count / 2) {
    for (size_t size = 0; left > 0; --left) {
      EntryAt(n, p.off, &size);
      p.off += size;
    }
  } else {
    p.off = n.bytes;
    for (uint64_t k = n.count - left; k > 0; --k) p.off = EntryStartBefore(n, p.off);
  }
  return p;
}

std::string_view QuickList::Get(Pos p) const { return EntryAt(node(p.node), p.off, nullptr); }

std::string_view QuickList::At(uint64_t index) const { return Get(Locate(index)); }

bool QuickList::Next(Pos* p) const {
  size_t size = 0;
  EntryAt(node(p->node), p->off, &size);
  p->off += size;
  if (p->off < node(p->node).bytes) return true;
  if (p->node + 1 >= n_) return false;
  p->node++;
  p->off = 0;
  return true;
}

bool QuickList::Prev(Pos* p) const {
  if (p->off == 0) {
    if (p->node == 0) return false;
    p->node--;
    p->off = node(p->node).bytes;
  }
  p->off = EntryStartBefore(node(p->node), p->off);
  return true;
}

void QuickList::Set(uint64_t index, std::string_view value, NodeLimit limit) {
  const Pos p = Locate(index);
  Node& n = node(p.node);
  size_t old_size = 0;
  EntryAt(n, p.off, &old_size);
  const size_t es = EntrySize(value.size());
  if (es > old_size) Reserve(&n, n.bytes - old_size + es);
  std::memmove(n.buf + p.off + es, n.buf + p.off + old_size, n.bytes - p.off - old_size);
  WriteEntry(n.buf + p.off, value);
  n.bytes = n.bytes - old_size + es;
  if (es < old_size) Shrink(&n);
  Rebalance(p.node, limit);
}

void QuickList::Insert(uint64_t index, bool after, std::string_view value, NodeLimit limit) {
  Pos p = Locate(index);
  if (after) {
    size_t size = 0;
    EntryAt(node(p.node), p.off, &size);
    p.off += size;
  }
  const size_t es = EntrySize(value.size());
  const Node& at = node(p.node);
  if (limit.Exceeded(at.bytes + es, at.count + 1)) {
    // A full node: an edge insert goes to the neighbour when it has room.
    if (p.off == at.bytes && p.node + 1 < n_) {
      const Node& next = node(p.node + 1);
      if (!limit.Exceeded(next.bytes + es, next.count + 1)) p = Pos{p.node + 1, 0};
    } else if (p.off == 0 && p.node > 0) {
      const Node& prev = node(p.node - 1);
      if (!limit.Exceeded(prev.bytes + es, prev.count + 1)) p = Pos{p.node - 1, prev.bytes};
    }
  }
  InsertEntry(&node(p.node), p.off, value);
  len_++;
  Rebalance(p.node, limit);
}

void QuickList::Rebalance(uint32_t i, NodeLimit limit) {
  Node& n = node(i);
  if (n.count < 2 || !limit.Exceeded(n.bytes, n.count)) return;
  // Cut at the entry boundary nearest the middle byte, keeping both halves non-empty.
  size_t cut = 0;
  uint32_t k = 0;
  for (size_t size = 0; k + 1 < n.count && (k == 0 || cut < n.bytes / 2); ++k) {
    EntryAt(n, cut, &size);
    cut += size;
  }
  Node& right = InsertNode(i + 1);
  Node& left = node(i);  // InsertNode may have moved the ring
  try {
    Reserve(&right, left.bytes - cut);
  } catch (const std::bad_alloc&) {
    EraseNode(i + 1);
    return;  // an oversized node is still a correct one
  }
  std::memcpy(right.buf, left.buf + cut, left.bytes - cut);
  right.bytes = left.bytes - cut;
  right.count = left.count - k;
  left.bytes = cut;
  left.count = k;
  Shrink(&left);
  Rebalance(i + 1, limit);
  Rebalance(i, limit);
}

uint64_t QuickList::RemoveMatching(std::string_view value, uint64_t limit, bool from_tail) {
  uint64_t removed = 0;
  for (uint32_t step = 0, total = n_; step < total && (limit == 0 || removed < limit); ++step) {
    const uint32_t i = from_tail ? total - 1 - step : step;
    Node& n = node(i);
    // From the tail, the node's last matches go: skip its first (matches - wanted) ones.
    uint64_t skip = 0;
    if (from_tail && limit != 0) {
      uint64_t matches = 0;
      for (size_t off = 0, size = 0; off < n.bytes; off += size)
        if (EntryAt(n, off, &size) == value) ++matches;
      skip = matches > limit - removed ? matches - (limit - removed) : 0;
    }
    size_t w = 0;
    uint32_t kept = 0;
    for (size_t off = 0, size = 0; off < n.bytes; off += size) {
      bool match = EntryAt(n, off, &size) == value;
      if (match && skip > 0) {
        --skip;
        match = false;
      } else if (match && limit != 0 && removed >= limit) {
        match = false;
      }
      if (match) {
        ++removed;
        continue;
      }
      if (w != off) std::memmove(n.buf + w, n.buf + off, size);
      w += size;
      ++kept;
    }
    n.bytes = w;
    n.count = kept;
    Shrink(&n);
  }
  // Drop emptied nodes (indexes shift, so walk from the end).
  for (uint32_t i = n_; i > 0; --i)
    if (node(i - 1).count == 0) EraseNode(i - 1);
  len_ -= removed;
  return removed;
}

void QuickList::Keep(uint64_t start, uint64_t keep) {
  uint64_t drop_back = len_ - start - keep;
  uint64_t drop_front = start;
  len_ = keep;
  while (drop_front > 0 && drop_front >= node(0).count) {
    drop_front -= node(0).count;
    EraseNode(0);
  }
  while (drop_back > 0 && drop_back >= node(n_ - 1).count) {
    drop_back -= node(n_ - 1).count;
    EraseNode(n_ - 1);
  }
  if (drop_front > 0) {
    Node& n = node(0);
    size_t off = 0;
    for (size_t size = 0, k = 0; k < drop_front; ++k, off += size) EntryAt(n, off, &size);
    EraseBytes(&n, 0, off, static_cast<uint32_t>(drop_front));
  }
  if (drop_back > 0) {
    Node& n = node(n_ - 1);
    size_t off = n.bytes;
    for (uint64_t k = 0; k < drop_back; ++k) off = EntryStartBefore(n, off);
    n.bytes = off;
    n.count -= static_cast<uint32_t>(drop_back);
    Shrink(&n);
  }
}

size_t QuickList::MemoryUsage() const {
  size_t total = sizeof(QuickList) + sizeof(Node) * cap_;
  for (uint32_t i = 0; i < n_; ++i) total += node(i).cap;
  return total;
}

}  // namespace plinth::list
