// SAVE, BGSAVE and the save points. A save writes temp-<pid>.rdb, fsyncs it, renames it over
// the RDB file and fsyncs the folder, so a crash leaves the old file or the new one, never half
// of one. A BGSAVE's child does all of that; the parent's cron reaps it.
#include "rdb/snapshots.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <plinth/plugin.hpp>

#include "common/rdb/snapshot.h"
#include "rdb/misconf.h"
#include "rdb/options.h"

namespace plinth::rdb {
namespace {

constexpr int64_t kRetryDelayS = 5;  // after a failed BGSAVE, save points wait this long

const plinth_host_api_t& A() { return sdk::Api(); }
plinth_plugin_t* Self() { return sdk::Host::self; }

// fsyncs the folder holding path, so a rename into it survives a power cut.
bool SyncFolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = fsync(fd) == 0;
  close(fd);
  return ok;
}

std::string Errno(const char* what, const std::string& path) {
  return std::string(what) + " " + path + ": " + std::strerror(errno);
}

}  // namespace

Snapshots& Instance() {
  static Snapshots s;
  return s;
}

int64_t Snapshots::NowMs() const { return A().time_us(Self()) / 1000; }

std::string Snapshots::Path() const { return InDir(sdk::OptionString(Opts().dbfilename)); }

int32_t Snapshots::ApplySave(const char* value, size_t len, char* err, size_t errlen) {
  std::string why;
  if (!ParseSavePoints(std::string_view(value, len), &points_, &why)) {
    std::strncpy(err, why.c_str(), errlen - 1);
    err[errlen - 1] = '\0';
    return PLINTH_ERR;
  }
  UpdateMisconf(last_bgsave_ok_, !points_.empty());
  return PLINTH_OK;
}

bool Snapshots::WriteFile(std::string* err) {
  const std::string final_path = Path();
  const std::string tmp = InDir("temp-" + std::to_string(getpid()) + ".rdb");
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = Errno("Failed opening the temp RDB file", tmp);
    return false;
  }
  SaveOptions o;
  o.compress = sdk::OptionInt(Opts().compression) != 0;
  o.checksum = sdk::OptionInt(Opts().checksum) != 0;
  o.progress = progress_;
  bool ok = SaveKeyspace(Self(), fd, o, err);
  if (ok && fsync(fd) != 0) {
    *err = Errno("fsync of", tmp);
    ok = false;
  }
  if (close(fd) != 0 && ok) {
    *err = Errno("close of", tmp);
    ok = false;
  }
  if (ok && rename(tmp.c_str(), final_path.c_str()) != 0) {
    *err = Errno("rename to", final_path);
    ok = false;
  }
  if (!ok) {
    unlink(tmp.c_str());
    return false;
  }
  if (!SyncFolderOf(final_path)) sdk::Log(PLINTH_LOG_WARNING, "fsync of the RDB folder failed");
  return true;
}

bool Snapshots::SaveNow(std::string* err) {
  if (child_pid_ > 0) {
    *err = "Background save already in progress";
    return false;
  }
  const uint64_t dirty = A().server_dirty(Self());
  if (!WriteFile(err)) {
    sdk::Log(PLINTH_LOG_WARNING, "Error saving DB on disk: %s", err->c_str());
    return false;
  }
  sdk::Log(PLINTH_LOG_NOTICE, "DB saved on disk");
  lastsave_s_ = NowMs() / 1000;
  dirty_at_save_ = dirty;
  saves_++;
  last_bgsave_ok_ = true;  // as in Redis, a good SAVE clears a failed BGSAVE (and MISCONF)
  UpdateMisconf(last_bgsave_ok_, !points_.empty());
  return true;
}

bool Snapshots::StartBackgroundSave(std::string* err) {
  if (child_pid_ > 0) {
    *err = "Background save already in progress";
    return false;
  }
  if (!progress_) {
    void* p = mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) progress_ = new (p) std::atomic<uint64_t>(0);
  }
  if (progress_) progress_->store(0);
  progress_total_ = 0;
  for (int32_t db = 0; db < A().db_total(Self()); ++db)
    progress_total_ += A().db_keys(Self(), db, nullptr);
  dirty_at_fork_ = A().server_dirty(Self());
  last_try_s_ = NowMs() / 1000;
  const int32_t pid = A().fork_child(Self());
  if (pid < 0) {
    const int fork_errno = errno;
    *err = fork_errno == EBUSY
               ? "Another child process is active (AOF?): can't BGSAVE right now"
               : std::string("Can't save in background: fork: ") + std::strerror(fork_errno);
    if (fork_errno != EBUSY) {  // a failed fork counts (Redis); another plugin's child does not
      last_bgsave_ok_ = false;
      UpdateMisconf(last_bgsave_ok_, !points_.empty());
    }
    return false;
  }
  if (pid == 0) {  // the child: save, then leave without running the parent's exit handlers
    std::string why;
    const bool ok = WriteFile(&why);
    if (!ok) sdk::Log(PLINTH_LOG_WARNING, "BGSAVE child failed: %s", why.c_str());
    _exit(ok ? 0 : 1);
  }
  child_pid_ = pid;
  child_start_ms_ = NowMs();
  sdk::Log(PLINTH_LOG_NOTICE, "Background saving started by pid %d", pid);
  return true;
}

void Snapshots::ChildDone(int status) {
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  A().fork_done(Self(), child_pid_);
  if (!ok) unlink(InDir("temp-" + std::to_string(child_pid_) + ".rdb").c_str());
  child_pid_ = 0;
  last_bgsave_time_s_ = (NowMs() - child_start_ms_) / 1000;
  last_bgsave_ok_ = ok;
  UpdateMisconf(last_bgsave_ok_, !points_.empty());
  if (ok) {
    sdk::Log(PLINTH_LOG_NOTICE, "Background saving terminated with success");
    lastsave_s_ = NowMs() / 1000;
    dirty_at_save_ = dirty_at_fork_;
    saves_++;
  } else {
    sdk::Log(PLINTH_LOG_WARNING, "Background saving error");
  }
}

void Snapshots::Cron() {
  if (child_pid_ > 0) {
    int status = 0;
    const pid_t r = waitpid(child_pid_, &status, WNOHANG);
    if (r == child_pid_ || (r < 0 && errno == ECHILD)) ChildDone(r < 0 ? 1 << 8 : status);
  }
  if (child_pid_ > 0 || A().fork_active(Self()) || loader_) return;
  std::string err;
  if (scheduled_) {
    scheduled_ = false;
    if (!StartBackgroundSave(&err)) sdk::Log(PLINTH_LOG_WARNING, "%s", err.c_str());
    return;
  }
  const int64_t now_s = NowMs() / 1000;
  const uint64_t changes = A().server_dirty(Self()) - dirty_at_save_;
  if (!last_bgsave_ok_ && now_s - last_try_s_ < kRetryDelayS) return;
  if (SaveDue(points_, changes, now_s - lastsave_s_)) {
    sdk::Log(PLINTH_LOG_NOTICE, "%llu changes in %lld seconds. Saving...",
             static_cast<unsigned long long>(changes), static_cast<long long>(now_s - lastsave_s_));
    if (!StartBackgroundSave(&err)) sdk::Log(PLINTH_LOG_WARNING, "%s", err.c_str());
  }
}

void Snapshots::Teardown() {
  if (cron_) A().timer_stop(cron_);
  cron_ = nullptr;
  if (child_pid_ > 0) {  // a shutdown does not wait for a BGSAVE: its own save follows
    kill(child_pid_, SIGUSR1);
    int status = 0;
    waitpid(child_pid_, &status, 0);
    ChildDone(status);
  }
  const uint32_t flags = A().server_shutdown_flags(Self());
  if (flags & PLINTH_SHUTDOWN_NOSAVE) return;
  if (!(flags & PLINTH_SHUTDOWN_SAVE) && points_.empty()) return;
  if (loader_) return;  // never overwrite a file that is only half loaded
  sdk::Log(PLINTH_LOG_NOTICE, "Saving the final RDB snapshot before exiting.");
  std::string err;
  if (!SaveNow(&err))  // SHUTDOWN saved first when it could; here nothing can stop the exit
    sdk::Log(PLINTH_LOG_WARNING, "Error trying to save the DB. Exit anyway.");
}

void Snapshots::Info(plinth_info_t* info) const {
  const plinth_host_api_t& a = A();
  const int64_t now_ms = NowMs();
  const bool bg = child_pid_ > 0;
  const uint64_t done = bg && progress_ ? progress_->load(std::memory_order_relaxed) : 0;
  a.info_field_int(info, "loading", a.server_loading(Self()));
  a.info_field_int(info, "async_loading", 0);
  a.info_field_int(info, "current_cow_peak", 0);
  a.info_field_int(info, "current_cow_size", 0);
  a.info_field_int(info, "current_save_keys_processed", static_cast<int64_t>(done));
  a.info_field_int(info, "current_save_keys_total", bg ? static_cast<int64_t>(progress_total_) : 0);
  a.info_field_int(info, "rdb_changes_since_last_save",
                   static_cast<int64_t>(a.server_dirty(Self()) - dirty_at_save_));
  a.info_field_int(info, "rdb_bgsave_in_progress", bg);
  a.info_field_int(info, "rdb_last_save_time", lastsave_s_);
  const char* status = last_bgsave_ok_ ? "ok" : "err";
  a.info_field(info, "rdb_last_bgsave_status", status, std::strlen(status));
  a.info_field_int(info, "rdb_last_bgsave_time_sec", last_bgsave_time_s_);
  a.info_field_int(info, "rdb_current_bgsave_time_sec",
                   bg ? (now_ms - child_start_ms_) / 1000 : -1);
  a.info_field_int(info, "rdb_saves", static_cast<int64_t>(saves_));
  a.info_field_int(info, "rdb_last_cow_size", 0);
  a.info_field_int(info, "rdb_last_load_keys_expired", static_cast<int64_t>(last_load_expired_));
  a.info_field_int(info, "rdb_last_load_keys_loaded", static_cast<int64_t>(last_load_loaded_));
}

}  // namespace plinth::rdb
