// Memory and file descriptor sources.
#include "common/rdb/source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plinth::rdb {

size_t MemorySource::Read(void* buf, size_t n) {
  size_t left = bytes_.size() - pos_;
  if (n > left) n = left;
  if (n > 0) std::memcpy(buf, bytes_.data() + pos_, n);
  pos_ += n;
  return n;
}

bool FdSource::Fill() {
  begin_ = end_ = 0;
  while (!eof_) {
    ssize_t r = ::read(fd_, buf_.data(), buf_.size());
    if (r > 0) {
      end_ = static_cast<size_t>(r);
      return true;
    }
    if (r == 0) {
      eof_ = true;
    } else if (errno != EINTR) {
      error_ = std::strerror(errno);
      eof_ = true;
    }
  }
  return false;
}

size_t FdSource::Read(void* buf, size_t n) {
  auto* out = static_cast<char*>(buf);
  size_t done = 0;
  while (done < n) {
    if (begin_ == end_) {
      // A large read bypasses the buffer.
      if (n - done >= buf_.size() && !eof_) {
        ssize_t r = ::read(fd_, out + done, n - done);
        if (r > 0) {
          done += static_cast<size_t>(r);
          continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) error_ = std::strerror(errno);
        eof_ = true;
        break;
      }
      if (!Fill()) break;
    }
    size_t take = end_ - begin_;
    if (take > n - done) take = n - done;
    std::memcpy(out + done, buf_.data() + begin_, take);
    begin_ += take;
    done += take;
  }
  return done;
}

}  // namespace plinth::rdb
