// The rdb plugin's state and its work: the options (dir, dbfilename, save, ...), SAVE in the
// main thread, BGSAVE in a forked child watched by a timer, the save points, the shutdown save,
// loading dump.rdb (at startup in slices, or at once for DEBUG RELOAD), and the INFO fields.
// Main thread only, except the child's part of a BGSAVE.
#pragma once

#include <plinth/plugin.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdb/save_points.h"

namespace plinth::rdb {

class KeyspaceLoader;

class Snapshots {
 public:
  // Registers the options, starts the cron timer and schedules the startup load. Init only.
  bool Setup();
  // Stops the timer, ends a running child, and saves when the shutdown asks for it (SHUTDOWN
  // SAVE, or a signal while save points are set; never with NOSAVE).
  void Teardown();

  // Saves now, in this thread (SAVE, DEBUG RELOAD, shutdown). false with *err on failure.
  bool SaveNow(std::string* err);
  // Forks a child that saves (BGSAVE). false with *err when a child runs or fork failed.
  bool StartBackgroundSave(std::string* err);
  // Loads the file at once, replacing nothing (DEBUG RELOAD flushes first). false with *err.
  bool LoadNow(std::string* err);

  bool ChildRunning() const { return child_pid_ > 0; }
  // A BGSAVE waits for another plugin's child (BGSAVE SCHEDULE).
  void Schedule() { scheduled_ = true; }
  int64_t LastSaveSeconds() const { return lastsave_s_; }
  // The INFO persistence fields.
  void Info(plinth_info_t* info) const;

  // Callbacks (timer, posted task, option apply).
  void Cron();
  void LoadSlice();
  int32_t ApplySave(const char* value, size_t len, char* err, size_t errlen);

 private:
  std::string Path() const;          // dir/dbfilename
  bool WriteFile(std::string* err);  // temp file, fsync, rename, fsync dir
  void ChildDone(int status);
  int64_t NowMs() const;

  std::vector<SavePoint> points_;
  plinth_timer_t* cron_ = nullptr;
  int64_t lastsave_s_ = 0;
  uint64_t dirty_at_save_ = 0;
  uint64_t dirty_at_fork_ = 0;
  uint64_t saves_ = 0;
  int32_t child_pid_ = 0;
  int64_t child_start_ms_ = 0;
  int64_t last_try_s_ = 0;
  bool last_bgsave_ok_ = true;
  int64_t last_bgsave_time_s_ = -1;
  bool scheduled_ = false;
  std::atomic<uint64_t>* progress_ = nullptr;  // shared with the child (mmap)
  uint64_t progress_total_ = 0;
  // The startup load, while it runs.
  std::unique_ptr<KeyspaceLoader> loader_;
  int load_fd_ = -1;
  int64_t load_start_ms_ = 0;
  uint64_t last_load_loaded_ = 0;
  uint64_t last_load_expired_ = 0;
};

// The one instance of the plugin.
Snapshots& Instance();

}  // namespace plinth::rdb
