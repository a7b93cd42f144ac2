// The everysec fsync thread (see fsync_worker.h).
#include "aof/fsync_worker.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace plinth::aof {

int64_t FsyncWorker::SteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void FsyncWorker::Start(int64_t interval_ms) {
  if (thread_.joinable()) return;
  interval_ms_ = interval_ms;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = false;
  }
  thread_ = std::thread([this] { Run(); });
}

void FsyncWorker::Stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void FsyncWorker::SetFile(int fd) {
  std::lock_guard<std::mutex> lock(mu_);
  fd_ = fd;
  synced_ = written_.load(std::memory_order_acquire);
}

void FsyncWorker::Retire(int fd) {
  if (fd < 0) return;
  if (!thread_.joinable()) {
    SyncFd(fd);
    close(fd);
    return;
  }
  pending_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (fd_ == fd) fd_ = -1;
    retired_.push_back(fd);
  }
  cv_.notify_all();
}

void FsyncWorker::SyncFd(int fd) {
  sync_started_ms_.store(SteadyMs(), std::memory_order_release);
  int rc;
  do {
    rc = fdatasync(fd);
  } while (rc != 0 && errno == EINTR);
  sync_started_ms_.store(0, std::memory_order_release);
  syncs_.fetch_add(1, std::memory_order_relaxed);
  if (rc != 0) {
    failures_.fetch_add(1, std::memory_order_relaxed);
    last_errno_.store(errno, std::memory_order_relaxed);
  } else {
    last_errno_.store(0, std::memory_order_relaxed);
  }
}

void FsyncWorker::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  int64_t last_sync = SteadyMs();
  while (true) {
    const int64_t wait = interval_ms_ - (SteadyMs() - last_sync);
    if (retired_.empty() && !stop_ && wait > 0) cv_.wait_for(lock, std::chrono::milliseconds(wait));
    while (!retired_.empty()) {
      const int fd = retired_.front();
      retired_.pop_front();
      lock.unlock();
      SyncFd(fd);
      close(fd);
      pending_.fetch_sub(1, std::memory_order_relaxed);
      lock.lock();
    }
    if (stop_) return;
    if (SteadyMs() - last_sync < interval_ms_) continue;
    last_sync = SteadyMs();
    const uint64_t written = written_.load(std::memory_order_acquire);
    const int fd = fd_;
    if (fd < 0 || written == synced_ || paused_.load(std::memory_order_relaxed)) continue;
    synced_ = written;
    // The main thread never closes the current file itself (it retires it through us), so fd
    // stays valid while we sync it without the lock.
    lock.unlock();
    SyncFd(fd);
    lock.lock();
  }
}

}  // namespace plinth::aof
