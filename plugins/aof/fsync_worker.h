// The everysec fsync thread: at most once a second it fdatasyncs the file the main thread
// appends to, when something was written since the last sync, so the main thread never waits
// for the disk. It also syncs and closes files the main thread retires (a rotated incr file).
// It shares nothing with the host: the main thread talks to it through atomics and a short
// mutex-protected job list. Public methods: main thread (Start/Stop/SetFile/Retire/NoteWrite)
// or any thread (the counters).
#ifndef PLINTH_AOF_FSYNC_WORKER_H
#define PLINTH_AOF_FSYNC_WORKER_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

namespace plinth::aof {

class FsyncWorker {
 public:
  FsyncWorker() = default;
  ~FsyncWorker() { Stop(); }
  FsyncWorker(const FsyncWorker&) = delete;
  FsyncWorker& operator=(const FsyncWorker&) = delete;

  // Starts the thread (no-op when running). interval_ms: the periodic sync spacing.
  void Start(int64_t interval_ms = 1000);
  // Runs the retire jobs still queued, then joins the thread. No-op when not running.
  void Stop();
  bool running() const { return thread_.joinable(); }

  // The file synced periodically (-1: none). The caller keeps it open until it retires it.
  void SetFile(int fd);
  // Syncs fd and closes it on the thread (the thread owns it from now on). Without a running
  // thread it does both at once.
  void Retire(int fd);
  // Bytes went to the current file: the next periodic sync covers them.
  void NoteWrite() { written_.fetch_add(1, std::memory_order_release); }
  // When set, periodic syncs are skipped (no-appendfsync-on-rewrite while a child runs).
  void SetPaused(bool paused) { paused_.store(paused, std::memory_order_relaxed); }

  // When a sync is running: since when (steady ms); 0 when none is.
  int64_t SyncStartedMs() const { return sync_started_ms_.load(std::memory_order_acquire); }
  // Jobs queued and not done (INFO aof_pending_bio_fsync).
  uint64_t Pending() const { return pending_.load(std::memory_order_relaxed); }
  // Failed syncs, and the errno of the last one (0: the last sync worked).
  uint64_t Failures() const { return failures_.load(std::memory_order_relaxed); }
  int LastErrno() const { return last_errno_.load(std::memory_order_relaxed); }
  uint64_t Syncs() const { return syncs_.load(std::memory_order_relaxed); }

  static int64_t SteadyMs();

 private:
  void Run();
  void SyncFd(int fd);

  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<int> retired_;  // guarded by mu_
  bool stop_ = false;        // guarded by mu_
  int fd_ = -1;              // guarded by mu_
  int64_t interval_ms_ = 1000;
  std::atomic<uint64_t> written_{0};
  uint64_t synced_ = 0;  // the thread's own: written_ at its last sync
  std::atomic<bool> paused_{false};
  std::atomic<int64_t> sync_started_ms_{0};
  std::atomic<uint64_t> pending_{0};
  std::atomic<uint64_t> failures_{0};
  std::atomic<int> last_errno_{0};
  std::atomic<uint64_t> syncs_{0};
};

}  // namespace plinth::aof

#endif  // PLINTH_AOF_FSYNC_WORKER_H
