// The append-only file: consumes the host's propagation stream (on_batch) into the current
// incr file of the Redis 7 multi-part layout, applies the appendfsync policy before the loop
// sleeps, loads the files at startup in slices, and rewrites the base in a forked child
// (BGREWRITEAOF, automatic growth, CONFIG SET appendonly yes). One instance per plugin.
// THREAD: main, except the FsyncWorker it owns.
#ifndef PLINTH_AOF_AOF_H
#define PLINTH_AOF_AOF_H

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aof/append_file.h"
#include "aof/config.h"
#include "aof/fsync_worker.h"
#include "aof/manifest.h"
#include "common/child_error.h"

namespace plinth::aof {

class Loader;

class Aof {
 public:
  enum class State { kOff, kLoading, kOn, kWaitRewrite };
  // What a rewrite request did (BGREWRITEAOF's reply).
  enum class Request { kStarted, kScheduled, kInProgress, kOff };

  explicit Aof(plinth_plugin_t* self);
  ~Aof();
  Aof(const Aof&) = delete;
  Aof& operator=(const Aof&) = delete;

  Config& config() { return config_; }
  State state() const { return state_; }
  // Called when a fatal load or write error must stop the server (default: log, _exit(1)).
  // Tests replace it. OWNERSHIP: fn is static.
  void SetFatalHandler(void (*fn)(const std::string& why)) { fatal_ = fn; }

  // Init: starts the cron timer and, with appendonly yes, posts the startup load.
  bool Start();
  // Shutdown hook: kills a rewrite child, writes and fsyncs everything buffered whatever the
  // policy, stops the fsync thread and closes the file.
  void Stop();

  // Stream consumer: queues the batch's bytes when appending.
  void OnBatch(const plinth_stream_batch_t* batch);
  // Before-sleep hook: writes the buffer, syncs for appendfsync always, starts a requested
  // rewrite (the stream is fully delivered here, so the child's snapshot matches the files).
  void BeforeSleep();
  // Every 100 ms: reaps the rewrite child, starts scheduled and automatic rewrites (after a
  // failed one, not before its backoff has passed: 1 s doubling to 60 s, reset by a success).
  void Cron();

  // CONFIG SET appendonly yes / no at run time. Enable returns false with *err when the
  // directory or manifest cannot be used.
  bool Enable(std::string* err);
  void Disable();
  // BGREWRITEAOF.
  Request RequestRewrite();
  // The persistence fields of INFO.
  void FillInfo(plinth_info_t* info);

  // The folder of the multi-part files: <dir>/<appenddirname>.
  std::string AofDir();
  std::string DataDir();

  // -- used by the loader (aof_load.cc) --
  plinth_plugin_t* self() const { return self_; }
  void Log(uint32_t level, const std::string& text) const;
  void Fatal(const std::string& why);
  void LoadStep();

 private:
  // aof_load.cc
  void BeginLoad();
  bool CreateFresh(std::string* err);
  bool UpgradeLegacy(const std::string& legacy, std::string* err);
  void FinishLoad();
  // aof_rewrite.cc
  void StartRewrite();
  bool OpenNewIncr(std::string* err);
  bool PersistManifest(const Manifest& m, std::string* err);
  void ReapChild();
  // Ends a rewrite attempt; failure says why when ok is false.
  void FinishRewrite(bool ok, const std::string& failure = "");
  // Records a failed attempt: INFO's status and reason, the log, and the backoff.
  void NoteRewriteFailure(const std::string& why);
  void KillChild();
  std::string ChildTempPath(int32_t pid);
  bool InstallNewBase(std::string* err);
  void DeleteHistory();
  int64_t CurrentSize() const;
  // aof.cc
  // Sets state_ and turns the stream consumer on while appending.
  void SetState(State s);
  void FlushBuffer(bool force);
  void StartAppending(int fd, int64_t size);
  void StopAppending(bool sync);
  bool ReadManifest(Manifest* m, bool* missing, std::string* err);
  plinth_plugin_t* self_;
  Config config_;
  State state_ = State::kOff;
  void (*fatal_)(const std::string&);
  const plinth_option_t* dir_option_ = nullptr;
  plinth_timer_t* cron_ = nullptr;

  Manifest manifest_;              // the manifest on disk
  AppendFile file_;                // the incr file appended to
  FsyncWorker worker_;             // everysec syncs
  int64_t base_size_ = 0;          // bytes of the base file
  int64_t closed_incr_size_ = 0;   // bytes of the incr files before the current one
  int64_t rewrite_base_size_ = 0;  // aof_current_size after the last rewrite or load
  int64_t last_ts_ = 0;            // the last #TS annotation's second

  std::unique_ptr<Loader> loader_;

  // rewrite
  bool start_pending_ = false;  // start in the next BeforeSleep
  bool scheduled_ = false;      // start once no other child runs
  int32_t child_pid_ = 0;
  int64_t first_kept_incr_ = 0;  // incr files from this seq on were opened after the fork
  bool child_rdb_ = false;       // the child writes an RDB base
  int64_t rewrite_start_ms_ = 0;
  int64_t last_rewrite_ms_ = -1;
  bool last_rewrite_ok_ = true;
  uint64_t rewrites_ = 0;
  uint64_t rewrite_failures_ = 0;   // consecutive
  bool killing_ = false;            // the child is being stopped: no retry
  int64_t retry_at_ms_ = 0;         // no scheduled or automatic rewrite before (steady ms)
  std::string last_rewrite_error_;  // why the last rewrite failed ("" after a success)
  common::ChildError child_error_;

  // writes
  bool last_write_ok_ = true;
  int64_t last_write_error_log_ms_ = 0;
  int64_t postponed_since_ms_ = 0;
  uint64_t delayed_fsync_ = 0;
};

}  // namespace plinth::aof

#endif  // PLINTH_AOF_AOF_H
