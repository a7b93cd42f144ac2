// Receives a full sync's snapshot from the primary into a file: "$<len>" followed by exactly len
// bytes, or "$EOF:<40-byte mark>" followed by bytes up to the mark. Writes path + ".tmp", fsyncs
// it and renames it to path, so path only ever holds a whole snapshot. Link thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "replication/link/wire_io.h"

namespace plinth::replication {

class SnapshotReceiver {
 public:
  // Bytes received so far and the announced total (-1 with an EOF mark).
  using ProgressFn = std::function<void(uint64_t read, int64_t total)>;

  // OWNERSHIP: io, in and progress are borrowed for the receiver's life; fd is not owned. *in
  // holds bytes already read from fd and not yet consumed.
  SnapshotReceiver(WireIo* io, int fd, std::string* in, ProgressFn progress)
      : io_(io), fd_(fd), in_(in), progress_(std::move(progress)) {}

  // Reads the "$..." line (skipping keepalives) and the payload into path. Returns "" or the
  // reason it failed (the .tmp file is then removed). *eof_mark tells which form came. Bytes
  // that followed the payload stay in *in: they are the stream's first. Calls progress at most
  // ten times a second, and once at the end.
  std::string Receive(const std::string& path, bool* eof_mark);

  static constexpr size_t kMarkLen = 40;

 private:
  std::string CopySized(int out, uint64_t total);
  std::string CopyUntilMark(int out, const std::string& mark);
  std::string Append(int out, size_t len);  // writes in_[0..len) to out and drops it
  std::string ReadMore();
  void Progress(int64_t total, bool last);

  WireIo* io_;
  int fd_;
  std::string* in_;
  ProgressFn progress_;
  uint64_t written_ = 0;
  std::chrono::steady_clock::time_point last_progress_{};
};

}  // namespace plinth::replication
