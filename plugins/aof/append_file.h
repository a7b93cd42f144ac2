// The file the AOF appends to and the bytes waiting for it. The main thread adds stream bytes
// (Add), writes them before the loop sleeps (Flush) and, for appendfsync always, syncs them
// (Sync). A failed or short write keeps the unwritten bytes buffered for the next try; a write
// that stopped half way is cut back off the file when it can be, as Redis does. Main thread.
#ifndef PLINTH_AOF_APPEND_FILE_H
#define PLINTH_AOF_APPEND_FILE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::aof {

class AppendFile {
 public:
  AppendFile() = default;
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Starts appending to fd (opened for append; the caller keeps ownership) whose size is size.
  void Attach(int fd, int64_t size);
  // Stops using the file; returns its fd (-1 when none). Buffered bytes stay buffered.
  int Detach();
  int fd() const { return fd_; }
  // Bytes on the file since Attach plus its size then.
  int64_t size() const { return size_; }

  // Queues bytes for the file.
  void Add(std::string_view bytes) { buf_.append(bytes.data(), bytes.size()); }
  size_t buffered() const { return buf_.size(); }
  // Writes the buffer to the file. Returns true when it is all written; false with *err
  // (errno text) when a write failed: what was not written stays buffered. No file: true when
  // nothing is buffered.
  bool Flush(std::string* err);
  // fdatasyncs the file. false with *err on failure.
  bool Sync(std::string* err);
  // Drops the buffered bytes (appendonly switched off).
  void DiscardBuffer() { buf_.clear(); }

 private:
  int fd_ = -1;
  int64_t size_ = 0;
  std::string buf_;
};

}  // namespace plinth::aof

#endif  // PLINTH_AOF_APPEND_FILE_H
