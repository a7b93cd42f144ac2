// Full syncs: one forked child writes the keyspace as RDB, to a file (then sent to each replica
// in chunks as its output drains) or to a pipe the parent forwards to every replica of that
// sync between "$EOF:<mark>" and the mark (diskless). Replicas waiting at once share a child;
// the stream fed after the fork waits in each replica's pending bytes until its payload is out.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <plinth/plugin.hpp>
#include <vector>

#include "common/rdb/snapshot.h"
#include "replication/primary_impl.h"
#include "replication/primary_util.h"

namespace plinth::replication {
namespace {

constexpr size_t kChunk = 64 * 1024;
constexpr int kPipeReadsPerTurn = 32;  // 2 MB a turn at most, so clients keep being served

int64_t OptionNamed(plinth_plugin_t* self, const char* name, int64_t def) {
  const plinth_option_t* o = sdk::Api().option_find(self, name);
  return o ? sdk::Api().option_int(o) : def;
}

// The child: writes the snapshot to fd and leaves; other_end (-1: none) is the pipe's read
// end, closed so that a parent that stops reading makes the write fail. Never returns.
[[noreturn]] void RunChild(plinth_plugin_t* self, int fd, int other_end,
                           const rdb::SaveOptions& options, common::ChildError* reason) {
  if (other_end >= 0) close(other_end);
  std::string err;
  bool ok = rdb::SaveKeyspace(self, fd, options, &err);
  if (close(fd) != 0 && ok) {
    err = std::strerror(errno);
    ok = false;
  }
  if (!ok) {
    const std::string line = "Replication snapshot child failed: " + err;
    sdk::Api().log_write(self, PLINTH_LOG_WARNING, line.data(), line.size());
    reason->Set(err);
  }
  _exit(ok ? 0 : 1);
}

}  // namespace

SyncJob::~SyncJob() {
  if (fd >= 0) close(fd);
  if (pipe_fd >= 0) close(pipe_fd);
  if (!path.empty()) unlink(path.c_str());
}

void Primary::Impl::MaybeStartSync(int64_t now_ms) {
  start_sync = false;
  int32_t waiting = 0;
  bool all_eof = true;
  int64_t longest_ms = 0;
  for (auto& [id, l] : links) {
    if (l->closed || l->state != LinkState::kWaitBgsave || l->job) continue;
    waiting++;
    all_eof = all_eof && l->capa_eof;
    longest_ms = std::max(longest_ms, now_ms - l->since_ms);
  }
  if (waiting == 0) return;
  if (child || sdk::Api().fork_active(self)) return;  // the cron asks again
  if (now_ms < sync_retry_at_ms) return;              // backing off after a failed snapshot
  const bool diskless_opt = Opt(r.opts.repl_diskless_sync, 1) != 0;
  if (diskless_opt) {  // wait a little for more replicas to share the child
    const int64_t delay_ms = Opt(r.opts.repl_diskless_sync_delay, 5) * 1000;
    const int64_t max = Opt(r.opts.repl_diskless_sync_max_replicas, 0);
    if (longest_ms < delay_ms && !(max > 0 && waiting >= max)) return;
  }
  StartSync(diskless_opt && all_eof);
}

bool Primary::Impl::StartSync(bool diskless) {
  // The snapshot must hold exactly the effects up to the +FULLRESYNC offset: fork only when
  // every byte the host appended has been fed (BeforeSleep runs after its batch went out).
  if (HostPending() > 0) {
    start_sync = true;
    return false;
  }
  auto job = std::make_shared<SyncJob>();
  job->diskless = diskless;
  job->offset = r.offset;
  rdb::SaveOptions options;
  options.compress = OptionNamed(self, "rdbcompression", 1) != 0;
  options.checksum = OptionNamed(self, "rdbchecksum", 1) != 0;
  int fd = -1;
  int pipe_fds[2] = {-1, -1};
  if (diskless) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
      NoteSyncFailure(std::string("can't create the full sync pipe: ") + std::strerror(errno));
      return false;
    }
    job->mark = NewReplId();
  } else {
    static uint64_t seq = 0;
    if (!r.opts.dir) r.opts.dir = sdk::Api().option_find(self, "dir");
    size_t n = 0;
    const char* d = r.opts.dir ? sdk::Api().option_string(r.opts.dir, &n) : nullptr;
    const std::string dir = d && n ? std::string(d, n) : ".";
    job->path =
        dir + "/temp-repl-" + std::to_string(getpid()) + "-" + std::to_string(++seq) + ".rdb";
    fd = open(job->path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      NoteSyncFailure("can't open " + job->path + " for a full sync: " + std::strerror(errno));
      job->path.clear();
      return false;
    }
  }
  job->reason.Prepare();  // without it the reason is lost, the sync still runs
  const int32_t pid = sdk::Api().fork_child(self);
  if (pid == 0) RunChild(self, diskless ? pipe_fds[1] : fd, pipe_fds[0], options, &job->reason);
  const int fork_errno = errno;
  if (diskless)
    close(pipe_fds[1]);
  else
    close(fd);
  if (pid < 0) {
    if (diskless) close(pipe_fds[0]);
    if (fork_errno != EBUSY)
      NoteSyncFailure(std::string("can't fork for a full sync: ") + std::strerror(fork_errno));
    return false;  // the job's destructor removes the file; the cron retries
  }
  if (diskless) {
    job->pipe_fd = pipe_fds[0];
    fcntl(job->pipe_fd, F_SETFL, fcntl(job->pipe_fd, F_GETFL) | O_NONBLOCK);
  }
  job->pid = pid;
  child = job;
  // Replicas start in database 0 after the snapshot: the next effect selects its own.
  sdk::Api().stream_reselect(self);
  const std::string fullresync =
      "+FULLRESYNC " + r.replid + " " + std::to_string(job->offset) + "\r\n";
  int32_t n = 0;
  for (auto& [id, l] : links) {
    if (l->closed || l->state != LinkState::kWaitBgsave || l->job) continue;
    l->job = job;
    n++;
    if (l->psync) Write(*l, fullresync);
    if (diskless) Write(*l, "$EOF:" + job->mark + "\r\n");
  }
  Log(PLINTH_LOG_NOTICE,
      "Starting a full sync of %d replica(s) with target %s (child %d, offset %llu)", n,
      diskless ? "replicas sockets" : "disk", pid, static_cast<unsigned long long>(job->offset));
  return true;
}

void Primary::Impl::NoteSyncFailure(const std::string& why) {
  ++sync_failures;
  sync_error = why;
  const int64_t delay =
      std::min<int64_t>(60000, int64_t{1000} << std::min<uint32_t>(sync_failures - 1, 6));
  sync_retry_at_ms = NowMs() + delay;
  Log(PLINTH_LOG_WARNING, "Full sync snapshot failed (%u in a row): %s; next try in %lld s",
      sync_failures, why.c_str(), static_cast<long long>(delay / 1000));
}

void Primary::Impl::NoteSyncSuccess() {
  sync_failures = 0;
  sync_error.clear();
  sync_retry_at_ms = 0;
}

void Primary::Impl::FailJob(const std::shared_ptr<SyncJob>& job, bool counts) {
  const std::string child = job->reason.Get();
  const std::string why = child.empty() ? std::string("can't produce the snapshot")
                                        : "can't produce the snapshot: " + child;
  if (counts) NoteSyncFailure(why);
  for (auto& [id, l] : links) {
    if (l->job != job) continue;
    Log(PLINTH_LOG_WARNING, "Full sync of replica %s:%d failed (%s): closing it", l->ip.c_str(),
        l->port, why.c_str());
    l->job.reset();
    if (!job->diskless && !l->header_sent && !l->closed) {
      // Nothing of the payload went out: the replica reads why instead (Redis's replicas log
      // "MASTER aborted replication with an error"), then the link closes.
      Write(*l, "-ERR " + why + "\r\n");
      l->closed = true;
      sdk::Api().client_close(self, l->id, 0);
      continue;
    }
    Close(*l);
  }
}

void Primary::Impl::ReapChild() {
  if (!child || child->pid <= 0) return;
  int status = 0;
  const pid_t w = waitpid(child->pid, &status, WNOHANG);
  if (w == 0 || (w < 0 && errno != ECHILD)) return;
  const bool ok = w == child->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  sdk::Api().fork_done(self, child->pid);
  child->pid = 0;
  child->child_ok = ok;
  start_sync = true;                       // replicas that came meanwhile may take the next child
  if (child->diskless) return PumpPipe();  // the rest of the pipe, then the end mark
  std::shared_ptr<SyncJob> job = std::move(child);
  struct stat st {};
  if (ok) {
    job->fd = open(job->path.c_str(), O_RDONLY | O_CLOEXEC);
    if (job->fd < 0 || fstat(job->fd, &st) != 0) {
      Log(PLINTH_LOG_WARNING, "Can't read the full sync file %s: %s", job->path.c_str(),
          std::strerror(errno));
      return FailJob(job);
    }
    job->size = static_cast<uint64_t>(st.st_size);
  }
  Log(ok ? PLINTH_LOG_NOTICE : PLINTH_LOG_WARNING, "Full sync snapshot %s (%llu bytes)",
      ok ? "written to disk" : "failed", static_cast<unsigned long long>(job->size));
  if (!ok) return FailJob(job);
  NoteSyncSuccess();
  for (auto& [id, l] : links)
    if (l->job == job && !l->closed) l->state = LinkState::kSendBulk;
  PumpFiles();
}

void Primary::Impl::PumpPipe() {
  if (!child || !child->diskless) return;
  SyncJob& j = *child;
  std::vector<ReplicaLink*> to;
  for (auto& [id, l] : links)
    if (l->job == child && !l->closed) to.push_back(l.get());
  char buf[kChunk];
  for (int i = 0; i < kPipeReadsPerTurn && !j.pipe_eof && !to.empty(); ++i) {
    for (ReplicaLink* l : to)  // the slowest replica sets the pace
      if (sdk::Api().client_output_pending(self, l->id) > kMaxQueuedPayload) return;
    const ssize_t n = read(j.pipe_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n <= 0) {
      j.pipe_eof = true;
      break;
    }
    for (ReplicaLink* l : to) Write(*l, buf, static_cast<size_t>(n));
  }
  if (to.empty() && j.pid > 0) kill(j.pid, SIGUSR1);  // nobody to send it to
  if (j.pid > 0 || (!j.pipe_eof && !to.empty())) return;
  // The child is done and the pipe drained (or nobody listens any more).
  std::shared_ptr<SyncJob> job = std::move(child);
  if (!job->child_ok || !job->pipe_eof) return FailJob(job, !to.empty());
  NoteSyncSuccess();
  for (ReplicaLink* l : to) {
    if (l->closed) continue;
    if (!Write(*l, job->mark)) continue;
    l->job.reset();
    l->state = LinkState::kSendBulk;  // until its first ACK
    l->start_on_ack = true;
  }
}

void Primary::Impl::PumpFiles() {
  static char buf[kChunk];
  for (auto& [id, l] : links) {
    if (l->closed || l->state != LinkState::kSendBulk || !l->job || l->job->fd < 0) continue;
    SyncJob& j = *l->job;
    if (!l->header_sent) {
      l->header_sent = true;
      if (!Write(*l, "$" + std::to_string(j.size) + "\r\n")) continue;
    }
    while (l->sent < j.size && !l->closed) {
      const int64_t queued = sdk::Api().client_output_pending(self, l->id);
      if (queued < 0 || queued > kMaxQueuedPayload) break;
      const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, j.size - l->sent));
      const ssize_t n = pread(j.fd, buf, want, static_cast<off_t>(l->sent));
      if (n <= 0) {
        Log(PLINTH_LOG_WARNING, "Reading the full sync file failed: %s",
            n < 0 ? std::strerror(errno) : "short file");
        Close(*l);
        break;
      }
      if (!Write(*l, buf, static_cast<size_t>(n))) break;
      l->sent += static_cast<uint64_t>(n);
    }
    if (!l->closed && l->sent == j.size) GoOnline(*l);
  }
}

void Primary::Impl::UpdateFastTimer() {
  bool busy = child != nullptr;
  for (auto& [id, l] : links)
    busy = busy || (!l->closed && l->state == LinkState::kSendBulk && !l->start_on_ack);
  if (busy && !fast) {
    fast = sdk::Api().timer_start(
        self, 1, 1,
        [](void* a) {
          Impl& m = *static_cast<Impl*>(a);
          LinkGuard g(m);
          m.ReapChild();
          m.PumpPipe();
          m.PumpFiles();
        },
        this);
  } else if (!busy && fast) {
    sdk::Api().timer_stop(fast);
    fast = nullptr;
  }
}

}  // namespace plinth::replication
