// The backlog's ring buffer (see backlog.h).
#include "replication/backlog.h"

#include <algorithm>
#include <cstring>

namespace plinth::replication {

Backlog::Backlog(size_t size, uint64_t end_offset) : cap_(size ? size : 1), end_(end_offset) {}

void Backlog::Append(const char* data, size_t len) {
  end_ += len;
  if (len >= cap_) {  // only the last cap_ bytes survive
    buf_.assign(data + (len - cap_), data + len);
    head_ = 0;
    histlen_ = cap_;
    return;
  }
  if (histlen_ < cap_) {  // still growing: the bytes go at the end, no wrap yet
    const size_t grow = std::min(len, cap_ - histlen_);
    if (buf_.capacity() < histlen_ + grow)
      buf_.reserve(std::min(cap_, std::max(histlen_ + grow, 2 * buf_.capacity())));
    buf_.insert(buf_.end(), data, data + grow);
    histlen_ += grow;
    data += grow;
    len -= grow;
    head_ = 0;
    if (len == 0) return;
  }
  // Full: overwrite the oldest bytes.
  const size_t first = std::min(len, cap_ - head_);
  std::memcpy(buf_.data() + head_, data, first);
  std::memcpy(buf_.data(), data + first, len - first);
  head_ = (head_ + len) % cap_;
}

bool Backlog::Visit(uint64_t from, void (*fn)(void*, const char*, size_t), void* arg) const {
  if (!Holds(from)) return false;
  const size_t skip = static_cast<size_t>(from - first_offset());
  const size_t n = histlen_ - skip;
  if (n == 0) return true;
  const size_t start = (head_ + skip) % histlen_;
  const size_t first = std::min(n, histlen_ - start);
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
  if (size == cap_) return;
  const size_t keep = std::min(size, histlen_);
  std::string tail;
  CopyFrom(end_ - keep + 1, &tail);
  std::vector<char>(tail.begin(), tail.end()).swap(buf_);
  cap_ = size;
  head_ = 0;
  histlen_ = keep;
}

}  // namespace plinth::replication
