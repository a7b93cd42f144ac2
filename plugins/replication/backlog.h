// The replication backlog: a ring buffer of the newest repl-backlog-size bytes of this server's
// stream, addressed by Redis's stream offsets, so a replica that reconnects can continue from
// the first byte it lacks (PSYNC) instead of taking a full sync. Owned by Repl (state.h);
// Feed appends to it. Pure logic, no ABI calls. THREAD: main.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth::replication {

class Backlog {
 public:
  // An empty backlog of size bytes (> 0) whose next byte is stream offset end_offset + 1:
  // end_offset counts the stream bytes fed before it existed (master_repl_offset then). Memory
  // is taken as bytes arrive, never more than size: a huge size costs nothing until it fills.
  Backlog(size_t size, uint64_t end_offset);

  // Appends stream bytes; the oldest are overwritten once size bytes are held.
  // OWNERSHIP: data copied.
  void Append(const char* data, size_t len);
  // Changes the capacity (> 0), keeping the newest min(size, histlen) bytes.
  void Resize(size_t size);

  size_t size() const { return cap_; }         // repl_backlog_size
  size_t histlen() const { return histlen_; }  // repl_backlog_histlen: bytes held
  // master_repl_offset: stream bytes fed ever (the offset of the last byte held).
  uint64_t end_offset() const { return end_; }
  // repl_backlog_first_byte_offset: the 1-based offset of the oldest byte held
  // (end_offset + 1 when empty).
  uint64_t first_offset() const { return end_ - histlen_ + 1; }
  // Whether a replica asking for the stream from offset from (1-based: the first byte it
  // lacks) can be served from here: first_offset <= from <= end_offset + 1.
  bool Holds(uint64_t from) const { return from >= first_offset() && from <= end_ + 1; }

  // Appends the bytes from offset from to the end to *out. Returns false (nothing appended)
  // when Holds(from) is false.
  bool CopyFrom(uint64_t from, std::string* out) const;
  // Calls fn(arg, data, len) for the bytes from offset from to the end, in order, as at most
  // two spans (none when there is nothing to send). Returns false when Holds(from) is false.
  // OWNERSHIP: the spans are borrowed for the call; fn must not change the backlog.
  bool Visit(uint64_t from, void (*fn)(void* arg, const char* data, size_t len), void* arg) const;

 private:
  // Grows until it holds cap_ bytes; only then does it wrap. Every byte of it is held stream
  // (histlen_ == buf_.size()).
  std::vector<char> buf_;
  size_t cap_;
  size_t head_ = 0;     // the oldest byte once full (where the next one goes), else 0
  size_t histlen_ = 0;  // bytes held, <= cap_
  uint64_t end_ = 0;
};

}  // namespace plinth::replication
