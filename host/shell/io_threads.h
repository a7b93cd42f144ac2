// The IO threads: with io-threads N, up to N-1 threads read and parse, and write, for the main
// thread, which executes the commands. Each thread takes jobs from the main thread on one
// single-producer/single-consumer ring and gives them back on another; both sides wait for
// each other with a Parker (spin, then futex). How many threads are active follows the load:
// an idle or lightly loaded server does its IO inline, as with io-threads 1.
// docs/io-threads.md explains the policy. Main thread only unless noted.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/shell/client.h"
#include "host/shell/io/cpu_idle.h"
#include "host/shell/io_policy.h"

namespace plinth::host {

class IoThread;
class Parker;

// The settings behind io-threads, io-threads-adaptive and io-threads-park.
struct IoSettings {
  int threads = 1;       // io-threads: the main thread plus threads-1 IO threads
  bool adaptive = true;  // activate IO threads as the load needs them (else all, always)
  bool park = true;      // waiters park after spinning (false: spin only, a benchmark knob)
};

class IoThreads {
 public:
  IoThreads();
  ~IoThreads();
  IoThreads(const IoThreads&) = delete;
  IoThreads& operator=(const IoThreads&) = delete;

  // Applies new settings: threads start at once (once Start ran); surplus threads stop when
  // no job of theirs is in flight (Adapt). The park setting is read by Start only.
  void Configure(const IoSettings& settings);
  // Starts the configured threads (the server is starting).
  void Start();
  // Hands c's prepared job (c->io.rd for a read, c->io.wr for a write) to an IO thread and marks c
  // busy. Returns false when no IO thread is active or its queue is full: the caller then runs
  // the job inline. OWNERSHIP: c stays the main thread's; the job owns c's IO state until
  // Complete gives it back. Inline for the common inactive case.
  bool Submit(Client* c, ClientIo kind) { return active_ != 0 && Hand(c, kind); }
  // Applies every finished job: closes the clients closed meanwhile, applies the others' reads
  // and writes. Returns how many.
  size_t Complete();
  // Waits until a job finishes: spins, then parks. Only with jobs in flight.
  void WaitForCompletion();
  size_t InFlight() const { return inflight_; }
  // Whether Submit hands jobs to IO threads now.
  bool Active() const { return active_ != 0; }
  // How many threads Submit hands jobs to now.
  size_t ActiveCount() const { return active_; }
  // The load policy, once per cron period, from the monotonic clock, the loop's time spent
  // waiting for events so far and the commands executed so far (all cumulative): the main
  // thread's busy share of the period (neither polling nor waiting for IO threads) and the
  // work rate decide how many threads are active. Also stops surplus threads whose jobs are
  // back.
  void Adapt(int64_t now_ns, int64_t loop_idle_ns, uint64_t work);
  // From now on every job runs inline (shutdown began); jobs in flight still come back.
  void Drain();
  // Waits for every job in flight, applies it, and stops every thread (shutdown).
  void Shutdown();
  // The io_threads INFO section's fields.
  void Info(std::string* out) const;

 private:
  // Submit with at least one thread active.
  bool Hand(Client* c, ClientIo kind);
  void StartThreads(size_t count);
  // The policy's decision: busy share and work rate (commands per second) of the last period.
  void Decide(double busy, double rate);
  // Keeps active_ within the configured and started threads (all of them when not adaptive).
  void ClampActive();
  void StopThreads(size_t keep);

  IoSettings settings_;
  bool started_ = false;
  std::vector<std::unique_ptr<IoThread>> threads_;
  std::unique_ptr<Parker> main_parker_;  // the main thread waits for finished jobs here
  size_t active_ = 0;                    // threads Submit uses: the first active_
  size_t inflight_ = 0;
  int64_t wait_ns_ = 0;
  int usable_cpus_ = 1;
  IoPolicy policy_;
  CpuIdle idle_;                            // sampled while the policy may try another thread
  int64_t last_ns_ = 0, last_idle_ns_ = 0;  // the previous Adapt's inputs
  uint64_t last_work_ = 0;
};

}  // namespace plinth::host
