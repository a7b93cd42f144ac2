// The backlog's ring buffer (see backlog.h).
#include "backlog.h"

#include <algorithm>
#include <cstring>

namespace plinth::replication {

Backlog::Backlog(size_t size, uint64_t end_offset) : buf_(size ? size : 1), end_(end_offset) {}

void Backlog::Append(const char* data, size_t len) {
  const size_t cap = buf_.size();
  end_ += len;
  if (len >= cap) {  // only the last cap bytes survive
    std::memcpy(buf_.data(), data + (len - cap), cap);
    head_ = 0;
    histlen_ = cap;
    return;
  }
  const size_t first = std::min(len, cap - head_);
  std::memcpy(buf_.data() + head_, data, first);
  std::memcpy(buf_.data(), data + first, len - first);
  head_ = (head_ + len) % cap;
  histlen_ = std::min(cap, histlen_ + len);
}

bool Backlog::Visit(uint64_t from, void (*fn)(void*, const char*, size_t), void* arg) const {
  if (!Holds(from)) return false;
  const size_t cap = buf_.size();
  const size_t skip = static_cast<size_t>(from - first_offset());
  const size_t n = histlen_ - skip;
  if (n == 0) return true;
  const size_t oldest = (head_ + cap - histlen_) % cap;
  const size_t start = (oldest + skip) % cap;
  const size_t first = std::min(n, cap - start);
  fn(arg, buf_.data() + start, first);
  if (n > first) fn(arg, buf_.data(), n - first);
  return true;
}

bool Backlog::CopyFrom(uint64_t from, std::string* out) const {
  auto append = [](void* a, const char* d, size_t l) {
    static_cast<std::string*>(a)->append(d, l);
  };
  return Visit(from, append, out);
}

void Backlog::Resize(size_t size) {
  if (size == 0) size = 1;
  if (size == buf_.size()) return;
  const size_t keep = std::min(size, histlen_);
  std::string tail;
  CopyFrom(end_ - keep + 1, &tail);
  buf_.assign(size, 0);
  std::memcpy(buf_.data(), tail.data(), keep);
  head_ = keep % size;
  histlen_ = keep;
}

}  // namespace plinth::replication
