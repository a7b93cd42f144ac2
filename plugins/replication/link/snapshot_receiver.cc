// The full sync payload, in both of the forms Redis primaries send: sized (disk-based sync) and
// delimited by a random 40-byte mark (diskless sync, "capa eof").
#include "replication/link/snapshot_receiver.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace plinth::replication {

namespace {

constexpr size_t kChunk = 64 * 1024;
constexpr auto kProgressEvery = std::chrono::milliseconds(100);

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// fsyncs the folder holding path, so the rename survives a crash. Best effort.
void SyncParentDir(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  fsync(fd);
  close(fd);
}

}  // namespace

std::string SnapshotReceiver::Receive(const std::string& path, bool* eof_mark) {
  std::string line;
  std::string reason = io_->ReadLine(fd_, in_, &line);
  if (!reason.empty()) return "snapshot: " + reason;
  // A primary that cannot produce the snapshot says why instead of the payload (as Redis's
  // replicas read it).
  if (line[0] == '-') return "MASTER aborted replication with an error: " + line.substr(1, 200);
  std::string mark;
  uint64_t total = 0;
  if (line.compare(0, 5, "$EOF:") == 0) {
    mark = line.substr(5);
    if (mark.size() != kMarkLen) return "protocol error: snapshot EOF mark is not 40 bytes";
  } else {
    const char* end = line.data() + line.size();
    const bool sized = line.size() > 1 && line[0] == '$';
    if (!sized || std::from_chars(line.data() + 1, end, total).ptr != end) {
      return "protocol error: expected the snapshot's \"$<length>\" line, got \"" +
             line.substr(0, 64) + "\"";
    }
  }
  *eof_mark = !mark.empty();
  const std::string tmp = path + ".tmp";
  const int out = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) return Errno("open " + tmp);
  reason = mark.empty() ? CopySized(out, total) : CopyUntilMark(out, mark);
  if (reason.empty() && fsync(out) != 0) reason = Errno("fsync " + tmp);
  if (close(out) != 0 && reason.empty()) reason = Errno("close " + tmp);
  if (reason.empty() && rename(tmp.c_str(), path.c_str()) != 0) {
    reason = Errno("rename " + tmp);
  }
  if (!reason.empty()) {
    unlink(tmp.c_str());
    return reason;
  }
  SyncParentDir(path);
  return "";
}

std::string SnapshotReceiver::CopySized(int out, uint64_t total) {
  uint64_t left = total;
  for (;;) {
    const size_t take = static_cast<size_t>(std::min<uint64_t>(in_->size(), left));
    if (take > 0) {
      std::string reason = Append(out, take);
      if (!reason.empty()) return reason;
      left -= take;
      Progress(static_cast<int64_t>(total), left == 0);
    }
    if (left == 0) return "";
    std::string reason = ReadMore();
    if (!reason.empty()) return reason;
  }
}

std::string SnapshotReceiver::CopyUntilMark(int out, const std::string& mark) {
  for (;;) {
    // Searching all held bytes (not only the tail of each read, as Redis does) also finds the
    // mark when a primary sends stream bytes right behind it.
    const size_t at = in_->find(mark);
    if (at != std::string::npos) {
      std::string reason = Append(out, at);
      if (!reason.empty()) return reason;
      in_->erase(0, kMarkLen);
      Progress(-1, true);
      return "";
    }
    // The last kMarkLen - 1 bytes may start the mark: keep them back.
    if (in_->size() >= kMarkLen) {
      std::string reason = Append(out, in_->size() - (kMarkLen - 1));
      if (!reason.empty()) return reason;
      Progress(-1, false);
    }
    std::string reason = ReadMore();
    if (!reason.empty()) return reason;
  }
}

std::string SnapshotReceiver::Append(int out, size_t len) {
  const char* p = in_->data();
  size_t left = len;
  while (left > 0) {
    const ssize_t n = write(out, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Errno("write snapshot");
    p += n;
    left -= static_cast<size_t>(n);
  }
  in_->erase(0, len);
  written_ += len;
  return "";
}

std::string SnapshotReceiver::ReadMore() {
  const size_t old = in_->size();
  in_->resize(old + kChunk);
  size_t n = 0;
  std::string reason = io_->ReadSome(fd_, in_->data() + old, kChunk, &n);
  in_->resize(old + (reason.empty() ? n : 0));
  return reason.empty() ? "" : "snapshot: " + reason;
}

void SnapshotReceiver::Progress(int64_t total, bool last) {
  const auto now = std::chrono::steady_clock::now();
  if (!last && now - last_progress_ < kProgressEvery) return;
  last_progress_ = now;
  if (progress_) progress_(written_, total);
}

}  // namespace plinth::replication
