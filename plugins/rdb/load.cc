// Loading the RDB file: at startup in slices between loop turns (clients get -LOADING
// meanwhile), or at once for DEBUG RELOAD. A file that cannot be read whole stops the server
// at startup with the reason and its byte offset: half a keyspace is never served silently.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <plinth/plugin.hpp>

#include "common/rdb/snapshot.h"
#include "rdb/misconf.h"
#include "rdb/options.h"
#include "rdb/snapshots.h"

namespace plinth::rdb {
namespace {

constexpr uint64_t kKeysPerSlice = 20000;

const plinth_host_api_t& A() { return sdk::Api(); }
plinth_plugin_t* Self() { return sdk::Host::self; }

void LoadSliceTask(void*) { Instance().LoadSlice(); }
void CronTask(void*) { Instance().Cron(); }

// With the append-only file on, it is the dataset: the RDB file is not read (as Redis).
bool AofEnabled() {
  const plinth_option_t* o = sdk::FindOption("appendonly");
  return o && sdk::OptionInt(o) != 0;
}

}  // namespace

bool Snapshots::Setup() {
  Options o;
  if (!RegisterOptions(&o) || !RegisterMisconfOption()) return false;
  lastsave_s_ = NowMs() / 1000;
  cron_ = A().timer_start(Self(), 100, 100, &CronTask, nullptr);
  if (!cron_) return false;
  return A().loop_post(Self(), &LoadSliceTask, nullptr) == PLINTH_OK;
}

void Snapshots::LoadSlice() {
  if (!loader_) {  // the first slice: open the file
    if (AofEnabled()) return;
    const std::string path = Path();
    load_fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (load_fd_ < 0) {
      if (errno != ENOENT)
        sdk::Log(PLINTH_LOG_WARNING, "Can't open %s: %s", path.c_str(), std::strerror(errno));
      return;
    }
    loader_ = std::make_unique<KeyspaceLoader>(Self(), load_fd_);
    load_start_ms_ = NowMs();
    A().server_set_loading(Self(), 1);
  }
  switch (loader_->Step(kKeysPerSlice)) {
    case KeyspaceLoader::Status::kMore:
      if (A().loop_post(Self(), &LoadSliceTask, nullptr) == PLINTH_OK) return;
      break;  // shutting down
    case KeyspaceLoader::Status::kDone:
      last_load_loaded_ = loader_->keys_loaded();
      last_load_expired_ = loader_->keys_expired();
      sdk::Log(PLINTH_LOG_NOTICE, "DB loaded from disk: %.3f seconds (%llu keys, %llu expired)",
               static_cast<double>(NowMs() - load_start_ms_) / 1000,
               static_cast<unsigned long long>(last_load_loaded_),
               static_cast<unsigned long long>(last_load_expired_));
      break;
    case KeyspaceLoader::Status::kError:
      sdk::Log(PLINTH_LOG_WARNING, "Can't load %s: %s. Refusing to start with part of it.",
               Path().c_str(), loader_->error().c_str());
      _exit(1);
  }
  loader_.reset();
  close(load_fd_);
  load_fd_ = -1;
  dirty_at_save_ = A().server_dirty(Self());
  A().server_set_loading(Self(), 0);
}

bool Snapshots::LoadNow(std::string* err) {
  const std::string path = Path();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = "Can't open " + path + ": " + std::strerror(errno);
    return false;
  }
  KeyspaceLoader loader(Self(), fd);
  KeyspaceLoader::Status s;
  do {
    s = loader.Step(kKeysPerSlice);
  } while (s == KeyspaceLoader::Status::kMore);
  close(fd);
  last_load_loaded_ = loader.keys_loaded();
  last_load_expired_ = loader.keys_expired();
  if (s == KeyspaceLoader::Status::kError) *err = loader.error();
  return s == KeyspaceLoader::Status::kDone;
}

}  // namespace plinth::rdb
