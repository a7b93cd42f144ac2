// Rewriting the AOF (see aof.h), as Redis 7 does: open a new incr file first and list it in the
// manifest, fork, let the child write the new base into a temp file, and once the parent has
// reaped a successful child, install the base, make the old base and older incr files history
// in the manifest, delete them and write the manifest again. A failed child changes nothing.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <plinth/plugin.hpp>

#include "aof/aof.h"
#include "aof/base_file.h"
#include "aof/fs_util.h"

namespace plinth::aof {
namespace {

constexpr int64_t kRetryBaseMs = 1000;  // the first retry after a failed rewrite
constexpr int64_t kRetryMaxMs = 60000;  // the longest wait between two tries

}  // namespace

std::string Aof::ChildTempPath(int32_t pid) {
  return JoinPath(AofDir(), "temp-rewriteaof-bg-" + std::to_string(pid) + ".aof");
}

bool Aof::PersistManifest(const Manifest& m, std::string* err) {
  return ReplaceFileAtomically(AofDir(), ManifestFileName(config_.filename),
                               TempManifestFileName(config_.filename), FormatManifest(m), err);
}

bool Aof::OpenNewIncr(std::string* err) {
  const std::string dir = AofDir();
  const int64_t seq = manifest_.LastIncrSeq() + 1;
  const std::string name = IncrFileName(config_.filename, seq);
  const std::string path = JoinPath(dir, name);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = ErrnoText("can't create", path);
    return false;
  }
  FsyncDir(dir);
  if (file_.fd() >= 0) {
    std::string ferr;
    if (!file_.Flush(&ferr)) Log(PLINTH_LOG_WARNING, ferr);
    closed_incr_size_ += file_.size();
    worker_.Retire(file_.Detach());
  }
  manifest_.incrs.push_back({name, seq, FileType::kIncr});
  StartAppending(fd, 0);
  sdk::Api().stream_reselect(self_);
  return true;
}

void Aof::StartRewrite() {
  if ((state_ != State::kOn && state_ != State::kWaitRewrite) || child_pid_ > 0) return;
  if (sdk::Api().fork_active(self_) != 0 || file_.buffered() > 0) {
    scheduled_ = true;  // another child, or the buffer could not be written: try later
    return;
  }
  std::string err;
  if (!OpenNewIncr(&err) || (state_ == State::kOn && !PersistManifest(manifest_, &err))) {
    NoteRewriteFailure("can't rewrite append only file in background: " + err);
    return;
  }
  first_kept_incr_ = manifest_.incrs.back().seq;
  child_rdb_ = config_.use_rdb_preamble;
  const std::string dir = AofDir();
  child_error_.Prepare();
  const int32_t pid = sdk::Api().fork_child(self_);
  if (pid == 0) {
    // The child: write the base from the snapshot the fork gave us, sync it, and leave.
    const std::string tmp =
        JoinPath(dir, "temp-rewriteaof-bg-" + std::to_string(getpid()) + ".aof");
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    std::string cerr;
    const bool ok = fd >= 0 &&
                    WriteBase(self_, fd, child_rdb_, config_.rewrite_incremental_fsync, &cerr) &&
                    fsync(fd) == 0 && close(fd) == 0;
    if (!ok) {
      if (cerr.empty()) cerr = ErrnoText("can't write", tmp);
      child_error_.Set(cerr);
    }
    _exit(ok ? 0 : 1);
  }
  if (pid < 0) {
    FinishRewrite(false, std::string("can't rewrite append only file in background: fork: ") +
                             std::strerror(errno));
    return;
  }
  child_pid_ = pid;
  rewrite_start_ms_ = FsyncWorker::SteadyMs();
  worker_.SetPaused(config_.no_fsync_on_rewrite);
  Log(PLINTH_LOG_NOTICE,
      "Background append only file rewriting started by pid " + std::to_string(pid));
}

void Aof::ReapChild() {
  int status = 0;
  const pid_t r = waitpid(child_pid_, &status, WNOHANG);
  if (r == 0 || (r < 0 && errno == EINTR)) return;
  sdk::Api().fork_done(self_, child_pid_);
  const bool ok = r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::string why;
  if (!ok) {
    why = r > 0 && WIFSIGNALED(status)
              ? "Background AOF rewrite terminated by signal " + std::to_string(WTERMSIG(status))
              : "Background AOF rewrite terminated with error";
    const std::string child = child_error_.Get();
    if (!child.empty()) why += ": " + child;
  }
  FinishRewrite(ok, why);
}

void Aof::KillChild() {
  Log(PLINTH_LOG_NOTICE, "Killing running AOF rewrite child: " + std::to_string(child_pid_));
  kill(child_pid_, SIGUSR1);
  int status = 0;
  while (waitpid(child_pid_, &status, 0) < 0 && errno == EINTR) {
  }
  sdk::Api().fork_done(self_, child_pid_);
  killing_ = true;
  FinishRewrite(false, "the rewrite child was stopped");
  killing_ = false;
}

bool Aof::InstallNewBase(std::string* err) {
  const std::string dir = AofDir();
  const int64_t seq = manifest_.LastBaseSeq() + 1;
  const std::string name = BaseFileName(config_.filename, seq, child_rdb_);
  const std::string tmp = ChildTempPath(child_pid_), path = JoinPath(dir, name);
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    *err = ErrnoText("can't rename the rewritten base to " + name + ":", tmp);
    return false;
  }
  FsyncDir(dir);
  Manifest next;
  next.base = ManifestFile{name, seq, FileType::kBase};
  next.history = manifest_.history;
  if (manifest_.base)
    next.history.push_back({manifest_.base->name, manifest_.base->seq, FileType::kHistory});
  for (const ManifestFile& f : manifest_.incrs) {
    if (f.seq >= first_kept_incr_)
      next.incrs.push_back(f);
    else
      next.history.push_back({f.name, f.seq, FileType::kHistory});
  }
  if (!PersistManifest(next, err)) {
    unlink(path.c_str());
    return false;
  }
  manifest_ = next;
  base_size_ = std::max<int64_t>(0, FileSize(path));
  closed_incr_size_ = 0;
  for (size_t i = 0; i + 1 < manifest_.incrs.size(); ++i)
    closed_incr_size_ += std::max<int64_t>(0, FileSize(JoinPath(dir, manifest_.incrs[i].name)));
  return true;
}

void Aof::DeleteHistory() {
  const std::string dir = AofDir();
  for (const ManifestFile& f : manifest_.history) {
    // Never delete a file the manifest still uses (a history entry naming the live base).
    if ((manifest_.base && manifest_.base->name == f.name)) continue;
    unlink(JoinPath(dir, f.name).c_str());
  }
  manifest_.history.clear();
  std::string err;
  if (!PersistManifest(manifest_, &err)) Log(PLINTH_LOG_WARNING, err);
}

void Aof::NoteRewriteFailure(const std::string& why) {
  last_rewrite_ok_ = false;
  last_rewrite_error_ = why;  // one INFO line: a key name's control bytes become '?'
  for (char& ch : last_rewrite_error_)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  ++rewrite_failures_;
  if (killing_) {  // stopped on purpose (appendonly no, shutdown): not a failure to back off
    Log(PLINTH_LOG_NOTICE, why);
    return;
  }
  // 1 s, 2 s, 4 s ... 60 s: a rewrite that cannot succeed (a key with no AOF form, a full disk)
  // must not fork again every cron tick.
  const uint64_t shift = rewrite_failures_ > 7 ? 6 : rewrite_failures_ - 1;
  const int64_t delay = std::min<int64_t>(kRetryMaxMs, kRetryBaseMs << shift);
  retry_at_ms_ = FsyncWorker::SteadyMs() + delay;
  Log(PLINTH_LOG_WARNING, why + "; the next automatic rewrite waits " +
                              std::to_string(delay / 1000) + " s (" +
                              std::to_string(rewrite_failures_) + " failed in a row)");
}

void Aof::FinishRewrite(bool ok, const std::string& failure) {
  const int32_t pid = child_pid_;
  std::string err, why = failure;
  if (ok && pid > 0 && !InstallNewBase(&err)) {
    why = "Background AOF rewrite failed: " + err;
    ok = false;
  }
  child_pid_ = 0;
  worker_.SetPaused(false);
  if (!ok) {
    if (pid > 0) unlink(ChildTempPath(pid).c_str());
    NoteRewriteFailure(why.empty() ? "Background AOF rewrite failed" : why);
    if (state_ == State::kWaitRewrite) {
      // Nothing names the incr files opened for this attempt: drop them; the next attempt's
      // snapshot will hold what they received.
      StopAppending(false);
      while (!manifest_.incrs.empty() && manifest_.incrs.back().seq >= first_kept_incr_) {
        unlink(JoinPath(AofDir(), manifest_.incrs.back().name).c_str());
        manifest_.incrs.pop_back();
      }
      if (!killing_) scheduled_ = true;
    }
    return;
  }
  DeleteHistory();
  if (state_ == State::kWaitRewrite) SetState(State::kOn);
  last_rewrite_ok_ = true;
  last_rewrite_error_.clear();
  rewrite_failures_ = 0;
  retry_at_ms_ = 0;
  ++rewrites_;
  last_rewrite_ms_ = FsyncWorker::SteadyMs() - rewrite_start_ms_;
  rewrite_base_size_ = CurrentSize();
  Log(PLINTH_LOG_NOTICE, "Background AOF rewrite finished successfully");
}

}  // namespace plinth::aof
