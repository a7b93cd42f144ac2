// Byte sources the RDB reader pulls from: memory (tests, the fuzzer, replication buffers) and
// a file descriptor read through a buffer. A source is used by one thread at a time.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::rdb {

class Source {
 public:
  virtual ~Source() = default;
  // Copies up to n bytes into buf and returns how many; fewer than n only at the end of the
  // input or on a read error (then Error() says which).
  virtual size_t Read(void* buf, size_t n) = 0;
  // Why the last short Read stopped early, or "" at a plain end of input.
  virtual std::string Error() const { return {}; }
};

// Reads a byte range in memory. OWNERSHIP: the bytes are borrowed and must outlive the source.
class MemorySource final : public Source {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  size_t Read(void* buf, size_t n) override;

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Reads an open file descriptor through a 64 KiB buffer, retrying EINTR. OWNERSHIP: the fd is
// borrowed; the caller closes it.
class FdSource final : public Source {
 public:
  explicit FdSource(int fd) : fd_(fd), buf_(kBufferSize) {}
  size_t Read(void* buf, size_t n) override;
  std::string Error() const override { return error_; }

 private:
  static constexpr size_t kBufferSize = 64 * 1024;
  bool Fill();

  int fd_;
  std::vector<char> buf_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  std::string error_;
};

}  // namespace plinth::rdb
