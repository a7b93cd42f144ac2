// The append target and its buffer (see append_file.h).
#include "aof/append_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "aof/fs_util.h"

namespace plinth::aof {

void AppendFile::Attach(int fd, int64_t size) {
  fd_ = fd;
  size_ = size;
}

int AppendFile::Detach() {
  const int fd = fd_;
  fd_ = -1;
  size_ = 0;
  return fd;
}

bool AppendFile::Flush(std::string* err) {
  if (buf_.empty()) return true;
  if (fd_ < 0) {
    *err = "no append-only file is open";
    return false;
  }
  const size_t n = WriteFully(fd_, buf_);
  if (n == buf_.size()) {
    size_ += static_cast<int64_t>(n);
    buf_.clear();
    return true;
  }
  const int saved = errno;
  *err = std::string("error writing to the AOF: ") + std::strerror(saved);
  // A command cut in half on the file would read as corruption before the next write lands:
  // take the partial write back; if that fails too, keep what is there and send the rest.
  if (n > 0) {
    if (ftruncate(fd_, size_) != 0) {
      size_ += static_cast<int64_t>(n);
      buf_.erase(0, n);
    }
  }
  errno = saved;
  return false;
}

bool AppendFile::Sync(std::string* err) {
  if (fd_ < 0) return true;
  while (fdatasync(fd_) != 0) {
    if (errno == EINTR) continue;
    *err = std::string("error syncing the AOF: ") + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace plinth::aof
