// The shell's pass over its clients around each poll: resume the unblocked clients, close those
// whose close was deferred, bring the IO threads' jobs back, and write pending output until
// nothing is in flight, so the loop never sleeps with a job out. Main thread only.
#pragma once

#include <uv.h>

namespace plinth::host {

class Shell;

class WritePass {
 public:
  explicit WritePass(Shell& shell) : shell_(shell) {}
  WritePass(const WritePass&) = delete;
  WritePass& operator=(const WritePass&) = delete;

  // Sets up the handle that keeps the poll from sleeping while writers yielded.
  void Start(uv_loop_t* loop);
  // Stops and closes that handle (shutdown; only after Start).
  void Stop();
  // Writes every client with pending output, inline or on IO threads.
  void WritePending();
  // Closes the clients on to_close, unless a command is running (then it does nothing): after
  // each top-level command and in every Flush.
  void CloseDeferred();
  // Brings the IO threads' jobs back and writes pending output until nothing is in flight;
  // after polling and before the next poll. Runs the core's before-sleep work first.
  void Flush();
  // After a poll, before Flush: queues the clients that yielded their write turn for another.
  void RequeueYielded();
  // Before a poll, after Flush: keeps the poll from sleeping while writers yielded.
  void KeepAwakeWhileYielded();

 private:
  // Resumes the unblocked clients (ClientResume).
  void RunUnblocked();

  Shell& shell_;
  uv_idle_t yielded_idle_;  // active while yielded_writes is not empty: the poll does not sleep
};

}  // namespace plinth::host
