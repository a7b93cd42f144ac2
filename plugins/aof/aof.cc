// The AOF's appending, fsync policy, switching and INFO (see aof.h). Loading is in
// aof_load.cc, rewriting in aof_rewrite.cc.
#include "aof/aof.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <plinth/plugin.hpp>

#include "aof/aof_load.h"
#include "aof/fs_util.h"

namespace plinth::aof {
namespace {

constexpr int64_t kMaxPostponeMs = 2000;  // everysec: a write waits this long for a slow sync

void DefaultFatal(const std::string&) {
  std::fflush(nullptr);
  _exit(1);
}

}  // namespace

Aof::Aof(plinth_plugin_t* self) : self_(self), fatal_(&DefaultFatal) {}

Aof::~Aof() = default;

void Aof::Log(uint32_t level, const std::string& text) const {
  sdk::Api().log_write(self_, level, text.data(), text.size());
}

void Aof::Fatal(const std::string& why) {
  Log(PLINTH_LOG_WARNING, why);
  fatal_(why);
}

std::string Aof::DataDir() {
  if (!dir_option_) dir_option_ = sdk::Api().option_find(self_, "dir");
  if (!dir_option_) return ".";
  size_t n = 0;
  const char* d = sdk::Api().option_string(dir_option_, &n);
  return d && n ? std::string(d, n) : ".";
}

std::string Aof::AofDir() { return JoinPath(DataDir(), config_.dirname); }

void Aof::SetState(State s) {
  state_ = s;
  // The host encodes the stream only while some consumer listens: appending is off, loading
  // runs through an internal client that propagates nothing.
  sdk::Api().stream_consumer_active(self_, s == State::kOn || s == State::kWaitRewrite);
}

bool Aof::Start() {
  SetState(State::kOff);
  cron_ = sdk::Api().timer_start(
      self_, 100, 100, [](void* a) { static_cast<Aof*>(a)->Cron(); }, this);
  if (!cron_) return false;
  if (config_.appendonly) {
    SetState(State::kLoading);
    sdk::Api().server_set_loading(self_, 1);
    auto task = [](void* a) { static_cast<Aof*>(a)->LoadStep(); };
    if (sdk::Api().loop_post(self_, task, this) != PLINTH_OK) return false;
  }
  return true;
}

void Aof::Stop() {
  if (child_pid_ > 0) KillChild();
  if (loader_) {
    loader_.reset();
    sdk::Api().server_set_loading(self_, 0);
  }
  if (state_ == State::kOn || state_ == State::kWaitRewrite) StopAppending(true);
  worker_.Stop();
  if (cron_) sdk::Api().timer_stop(cron_);
  cron_ = nullptr;
  SetState(State::kOff);
}

void Aof::OnBatch(const plinth_stream_batch_t* batch) {
  // Before the first rewrite's fork the effects are in the snapshot the child will take.
  if (state_ != State::kOn && !(state_ == State::kWaitRewrite && child_pid_ > 0)) return;
  if (config_.timestamp_enabled) {
    const int64_t now = sdk::Api().time_us(self_) / 1000000;
    if (now != last_ts_) {
      last_ts_ = now;
      file_.Add("#TS:" + std::to_string(now) + "\r\n");
    }
  }
  file_.Add(std::string_view(batch->data, batch->len));
}

void Aof::FlushBuffer(bool force) {
  if (file_.buffered() == 0 || file_.fd() < 0) return;
  const bool everysec = config_.fsync == FsyncPolicy::kEverysec;
  if (everysec && !force && worker_.SyncStartedMs() != 0) {
    // The disk is slow: writing now would block on the sync in progress. Wait up to 2 s.
    const int64_t now = FsyncWorker::SteadyMs();
    if (postponed_since_ms_ == 0) postponed_since_ms_ = now;
    if (now - postponed_since_ms_ < kMaxPostponeMs) return;
    ++delayed_fsync_;
    Log(PLINTH_LOG_NOTICE,
        "Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer "
        "without waiting for fsync to complete, this may slow down Plinth.");
  }
  postponed_since_ms_ = 0;
  std::string err;
  if (!file_.Flush(&err)) {
    if (config_.fsync == FsyncPolicy::kAlways)
      return Fatal(err +
                   "; can't recover from AOF write error when the AOF fsync policy is "
                   "'always'. Exiting...");
    const int64_t now = FsyncWorker::SteadyMs();
    if (last_write_ok_ || now - last_write_error_log_ms_ > 30000) {
      Log(PLINTH_LOG_WARNING, err + " (will retry)");
      last_write_error_log_ms_ = now;
    }
    last_write_ok_ = false;
    return;
  }
  if (!last_write_ok_) Log(PLINTH_LOG_WARNING, "AOF write error looks solved, can write again.");
  last_write_ok_ = true;
  if (config_.fsync == FsyncPolicy::kAlways) {
    if (!file_.Sync(&err))
      return Fatal(err +
                   "; can't persist AOF for fsync error when the AOF fsync policy is "
                   "'always'. Exiting...");
  } else if (everysec) {
    worker_.NoteWrite();
  }
}

void Aof::BeforeSleep() {
  FlushBuffer(false);
  if (start_pending_) {
    start_pending_ = false;
    StartRewrite();
  }
}

void Aof::Cron() {
  if (child_pid_ > 0) ReapChild();
  if (state_ != State::kOn && state_ != State::kWaitRewrite) return;
  const bool backing_off = FsyncWorker::SteadyMs() < retry_at_ms_;
  if (child_pid_ == 0 && scheduled_ && !backing_off && sdk::Api().fork_active(self_) == 0) {
    scheduled_ = false;
    start_pending_ = true;
  }
  if (state_ == State::kOn && child_pid_ == 0 && !scheduled_ && !start_pending_ && !backing_off &&
      config_.rewrite_percentage > 0) {
    const int64_t size = CurrentSize();
    const int64_t base = rewrite_base_size_ > 0 ? rewrite_base_size_ : 1;
    const int64_t growth = size * 100 / base - 100;
    if (size > config_.rewrite_min_size && growth >= config_.rewrite_percentage) {
      Log(PLINTH_LOG_NOTICE,
          "Starting automatic rewriting of AOF on " + std::to_string(growth) + "% growth");
      if (sdk::Api().fork_active(self_) != 0)
        scheduled_ = true;
      else
        start_pending_ = true;
    }
  }
  worker_.SetPaused(config_.no_fsync_on_rewrite && sdk::Api().fork_active(self_) != 0);
}

void Aof::StartAppending(int fd, int64_t size) {
  file_.Attach(fd, size);
  worker_.SetFile(fd);
  if (config_.fsync == FsyncPolicy::kEverysec) worker_.Start();
}

void Aof::StopAppending(bool sync) {
  std::string err;
  if (!file_.Flush(&err)) Log(PLINTH_LOG_WARNING, err + "; data still buffered is lost");
  if (sync && !file_.Sync(&err)) Log(PLINTH_LOG_WARNING, err);
  file_.DiscardBuffer();
  worker_.SetFile(-1);
  const int fd = file_.Detach();
  if (fd >= 0) close(fd);
}

bool Aof::ReadManifest(Manifest* m, bool* missing, std::string* err) {
  std::string text;
  const std::string path = JoinPath(AofDir(), ManifestFileName(config_.filename));
  if (!ReadSmallFile(path, &text, missing, err)) return false;
  if (!ParseManifest(text, m, err)) {
    *err = "bad AOF manifest " + path + ": " + *err;
    return false;
  }
  return true;
}

bool Aof::Enable(std::string* err) {
  if (state_ != State::kOff) return true;
  const std::string dir = AofDir();
  if (!MakeAofDir(DataDir(), dir, err)) return false;
  bool missing = false;
  Manifest m;
  if (ReadManifest(&m, &missing, err)) {
    manifest_ = m;
  } else if (missing) {
    manifest_ = Manifest{};
  } else {
    return false;
  }
  SetState(State::kWaitRewrite);
  if (sdk::Api().fork_active(self_) != 0)
    scheduled_ = true;
  else
    start_pending_ = true;
  return true;
}

void Aof::Disable() {
  if (state_ == State::kOff || state_ == State::kLoading) return;
  if (child_pid_ > 0) KillChild();
  StopAppending(true);
  worker_.Stop();
  SetState(State::kOff);
  scheduled_ = start_pending_ = false;
}

Aof::Request Aof::RequestRewrite() {
  if (child_pid_ > 0) return Request::kInProgress;
  if (state_ == State::kLoading) return Request::kOff;
  if (sdk::Api().fork_active(self_) != 0) {
    scheduled_ = true;
    return Request::kScheduled;
  }
  start_pending_ = true;
  return Request::kStarted;
}

void Aof::FillInfo(plinth_info_t* info) {
  auto i = [&](const char* name, int64_t v) { sdk::Api().info_field_int(info, name, v); };
  auto s = [&](const char* name, const char* v) {
    sdk::Api().info_field(info, name, v, std::char_traits<char>::length(v));
  };
  const bool on = state_ != State::kOff;
  i("aof_enabled", on);
  i("aof_rewrite_in_progress", child_pid_ > 0);
  i("aof_rewrite_scheduled", scheduled_ || start_pending_);
  i("aof_last_rewrite_time_sec", last_rewrite_ms_ < 0 ? -1 : last_rewrite_ms_ / 1000);
  i("aof_current_rewrite_time_sec",
    child_pid_ > 0 ? (FsyncWorker::SteadyMs() - rewrite_start_ms_) / 1000 : -1);
  s("aof_last_bgrewrite_status", last_rewrite_ok_ ? "ok" : "err");
  s("aof_last_bgrewrite_error", last_rewrite_error_.c_str());
  i("aof_rewrites", static_cast<int64_t>(rewrites_));
  i("aof_rewrites_consecutive_failures", static_cast<int64_t>(rewrite_failures_));
  s("aof_last_write_status", last_write_ok_ && worker_.LastErrno() == 0 ? "ok" : "err");
  i("aof_last_cow_size", 0);
  if (!on) return;
  i("aof_current_size", CurrentSize());
  i("aof_base_size", base_size_);
  i("aof_pending_rewrite", scheduled_ || start_pending_);
  i("aof_buffer_length", static_cast<int64_t>(file_.buffered()));
  i("aof_pending_bio_fsync", static_cast<int64_t>(worker_.Pending()));
  i("aof_delayed_fsync", static_cast<int64_t>(delayed_fsync_));
}

int64_t Aof::CurrentSize() const { return base_size_ + closed_incr_size_ + file_.size(); }

}  // namespace plinth::aof
