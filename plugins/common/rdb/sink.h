// Byte sinks the RDB writer pushes to: memory (tests, replication) and a file descriptor
// written through a buffer. A sink is used by one thread at a time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace plinth::rdb {

class Sink {
 public:
  virtual ~Sink() = default;
  // Appends p[0, n). Returns false on a write error (then Error() says which); the sink is
  // unusable afterwards.
  virtual bool Write(const void* p, size_t n) = 0;
  // Pushes buffered bytes on. Returns false on a write error.
  virtual bool Flush() { return true; }
  virtual std::string Error() const { return {}; }
};

// Appends to a string. OWNERSHIP: the string is borrowed and must outlive the sink.
class MemorySink final : public Sink {
 public:
  explicit MemorySink(std::string* out) : out_(out) {}
  bool Write(const void* p, size_t n) override;

 private:
  std::string* out_;
};

// Writes an open file descriptor through a 64 KiB buffer, retrying EINTR and short writes.
// Flush writes the buffer but does not fsync. OWNERSHIP: the fd is borrowed.
class FdSink final : public Sink {
 public:
  explicit FdSink(int fd) : fd_(fd) { buf_.reserve(kBufferSize); }
  bool Write(const void* p, size_t n) override;
  bool Flush() override;
  std::string Error() const override { return error_; }

 private:
  static constexpr size_t kBufferSize = 64 * 1024;
  bool WriteAll(const char* p, size_t n);

  int fd_;
  std::vector<char> buf_;
  std::string error_;
};

}  // namespace plinth::rdb
