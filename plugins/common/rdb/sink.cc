// Memory and file descriptor sinks.
#include "common/rdb/sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plinth::rdb {

bool MemorySink::Write(const void* p, size_t n) {
  out_->append(static_cast<const char*>(p), n);
  return true;
}

bool FdSink::WriteAll(const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? std::strerror(errno) : "write returned 0";
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool FdSink::Write(const void* p, size_t n) {
  if (!error_.empty()) return false;
  const auto* c = static_cast<const char*>(p);
  if (buf_.size() + n > kBufferSize) {
    if (!Flush()) return false;
    if (n >= kBufferSize) return WriteAll(c, n);
  }
  buf_.insert(buf_.end(), c, c + n);
  return true;
}

bool FdSink::Flush() {
  if (!error_.empty()) return false;
  bool ok = WriteAll(buf_.data(), buf_.size());
  buf_.clear();
  return ok;
}

}  // namespace plinth::rdb
