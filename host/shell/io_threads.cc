// The IO threads, their hand-off rings and the load policy (docs/io-threads.md).
#include "host/shell/io_threads.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

#include "host/core/info.h"
#include "host/shell/io/cpu.h"
#include "host/shell/io/parker.h"
#include "host/shell/io/spsc_ring.h"

namespace plinth::host {
namespace {

// Jobs one thread may have in flight; a client past it is served inline.
constexpr size_t kRingSlots = 1024;
// A thread wakes a parked main thread once per kWakeEvery finished jobs and when it has run
// the jobs it found, not after each: a main thread faster than its IO threads would otherwise
// sleep and wake once per job, and a wake-up costs it more than running a job's commands.
constexpr size_t kWakeEvery = 8;

ParkerOptions WaitOptions(bool park) {
  ParkerOptions o;
  if (!park) o.min_spin = o.max_spin = std::chrono::hours(1);
  return o;
}

// CPUs the calling thread may run on.
int UsableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

struct IoJob {
  Client* client = nullptr;  // nullptr: stop
  ClientIo kind = ClientIo::kIdle;
};

}  // namespace

// One IO thread: jobs in, finished jobs out, and its counters (written by the thread, read
// with relaxed loads by the main thread).
class IoThread {
 public:
  IoThread(int number, Parker& main, bool park)
      : number_(number),
        parker_(WaitOptions(park)),
        main_(main),
        jobs_(kRingSlots),
        done_(kRingSlots) {
    started_ns_ = MonotonicNs();
    thread_ = std::thread([this] { Run(); });
    handle_ = thread_.native_handle();
  }
  ~IoThread() {
    jobs_.TryPush(IoJob{});  // the stop job; the ring is empty when a thread stops
    parker_.Wake();
    thread_.join();
  }

  int number() const { return number_; }
  size_t inflight = 0;  // main thread's count of this thread's jobs not yet completed

  // Main thread.
  bool Push(Client* c, ClientIo kind) {
    if (inflight >= kRingSlots || !jobs_.TryPush(IoJob{c, kind})) return false;
    ++inflight;
    parker_.Wake();
    return true;
  }
  template <typename Fn>
  size_t PopDone(Fn&& fn) {
    return done_.PopAll([&](IoJob&& j) {
      --inflight;
      fn(j);
    });
  }
  bool HasDone() { return !done_.Empty(); }

  void Info(std::string* out) const {
    const ParkerStats p = parker_.Stats();
    const int64_t wall = MonotonicNs() - started_ns_;
    const uint64_t busy = busy_ns_.load(std::memory_order_relaxed);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "reads=%llu,writes=%llu,bytes_read=%llu,bytes_written=%llu,"
                  "spin_hits=%llu,parks=%llu,wakes_issued=%llu,wakes_skipped=%llu,"
                  "spin_budget_us=%.1f,busy_pct=%.2f,cpu_sec=%.6f",
                  Load(reads_), Load(writes_), Load(bytes_read_), Load(bytes_written_),
                  static_cast<unsigned long long>(p.spin_hits),
                  static_cast<unsigned long long>(p.parks),
                  static_cast<unsigned long long>(p.wakes_issued),
                  static_cast<unsigned long long>(p.wakes_skipped), p.spin_budget_ns / 1000.0,
                  wall > 0 ? 100.0 * static_cast<double>(busy) / static_cast<double>(wall) : 0.0,
                  CpuSeconds());
    InfoLine(out, "io_thread_" + std::to_string(number_), buf);
  }
  ParkerStats WakeStats() const { return parker_.Stats(); }

 private:
  static unsigned long long Load(const std::atomic<uint64_t>& v) {
    return static_cast<unsigned long long>(v.load(std::memory_order_relaxed));
  }
  double CpuSeconds() const {
    clockid_t id;
    struct timespec ts;
    if (pthread_getcpuclockid(handle_, &id) != 0 || clock_gettime(id, &ts) != 0) return 0;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
  }

  void Run() {
    for (bool stop = false; !stop;) {
      parker_.Wait([this] { return !jobs_.Empty(); });
      const int64_t t0 = MonotonicNs();
      size_t unsignaled = 0;  // finished jobs the main thread has not been woken for
      jobs_.PopAll([&](IoJob&& j) {
        if (!j.client) {
          stop = true;
          return;
        }
        Client* c = j.client;
        if (j.kind == ClientIo::kRead) {
          ClientReadInput(c);
          BumpRelaxed(reads_, 1);
          BumpRelaxed(bytes_read_, c->io.rd.bytes);
        } else {
          ClientWriteOutput(c);
          BumpRelaxed(writes_, 1);
          BumpRelaxed(bytes_written_, c->io.wr.bytes);
        }
        done_.TryPush(j);  // never full: no more than kRingSlots jobs are in flight
        if (++unsignaled == kWakeEvery) {
          main_.Wake();
          unsignaled = 0;
        }
      });
      if (unsignaled) main_.Wake();
      BumpRelaxed(busy_ns_, static_cast<uint64_t>(MonotonicNs() - t0));
    }
  }

  const int number_;
  Parker parker_;  // this thread waits for jobs here
  Parker& main_;
  SpscRing<IoJob> jobs_;  // main -> thread
  SpscRing<IoJob> done_;  // thread -> main
  int64_t started_ns_ = 0;
  std::atomic<uint64_t> reads_{0}, writes_{0}, bytes_read_{0}, bytes_written_{0}, busy_ns_{0};
  std::thread thread_;
  pthread_t handle_;
};

IoThreads::IoThreads() = default;

IoThreads::~IoThreads() { Shutdown(); }

void IoThreads::Configure(const IoSettings& settings) {
  settings_ = settings;
  if (started_) StartThreads(static_cast<size_t>(settings_.threads - 1));
  ClampActive();
}

void IoThreads::Start() {
  main_parker_ = std::make_unique<Parker>(WaitOptions(settings_.park));
  started_ = true;
  usable_cpus_ = UsableCpus();
  StartThreads(static_cast<size_t>(settings_.threads - 1));
  ClampActive();
}

void IoThreads::ClampActive() {
  size_t configured = started_ ? static_cast<size_t>(settings_.threads - 1) : 0;
  if (configured > threads_.size()) configured = threads_.size();
  active_ = settings_.adaptive ? std::min(active_, configured) : configured;
}

void IoThreads::Drain() {
  started_ = false;  // no thread is activated again
  active_ = 0;
}

void IoThreads::StartThreads(size_t count) {
  while (threads_.size() < count)
    threads_.push_back(std::make_unique<IoThread>(static_cast<int>(threads_.size()) + 1,
                                                  *main_parker_, settings_.park));
}

void IoThreads::StopThreads(size_t keep) {
  while (threads_.size() > keep && threads_.back()->inflight == 0) threads_.pop_back();
}

bool IoThreads::Hand(Client* c, ClientIo kind) {
  IoThread& t = *threads_[c->session.id % active_];
  c->io.job = kind;
  if (!t.Push(c, kind)) {
    c->io.job = ClientIo::kIdle;
    return false;
  }
  c->io.thread = t.number();
  ++inflight_;
  return true;
}

size_t IoThreads::Complete() {
  size_t n = 0;
  for (size_t i = 0; i < threads_.size(); ++i) {  // Complete may run commands: no iterators
    n += threads_[i]->PopDone([this](const IoJob& j) {
      --inflight_;
      Client* c = j.client;
      c->io.job = ClientIo::kIdle;
      if (c->state.closed) {
        ClientFinishClose(c);
        return;
      }
      if (j.kind == ClientIo::kRead) {
        ClientApplyRead(c);
      } else if (ClientApplyWrite(c) && c->io.wr.status == 0 && !c->io.wr.yielded && c->out.bytes) {
        ClientQueueWrite(c);  // more than one writev's worth, or new output since
      }
      if (!c->state.closed && c->io.deferred_events) {
        const uint32_t ev = c->io.deferred_events;
        c->io.deferred_events = 0;
        ClientHandleEvents(c, ev);
      }
    });
  }
  return n;
}

void IoThreads::WaitForCompletion() {
  const int64_t t0 = MonotonicNs();
  main_parker_->Wait([this] {
    for (auto& t : threads_)
      if (t->inflight && t->HasDone()) return true;
    return false;
  });
  wait_ns_ += MonotonicNs() - t0;
}

void IoThreads::Adapt(int64_t now_ns, int64_t loop_idle_ns, uint64_t work) {
  if (!started_) return;
  StopThreads(static_cast<size_t>(settings_.threads - 1));
  const int64_t idle = loop_idle_ns + wait_ns_;
  const int64_t wall = now_ns - last_ns_;
  if (last_ns_ && wall > 0) {
    const double busy = 1.0 - static_cast<double>(idle - last_idle_ns_) / static_cast<double>(wall);
    Decide(busy, static_cast<double>(work - last_work_) * 1e9 / static_cast<double>(wall));
  }
  last_ns_ = now_ns;
  last_idle_ns_ = idle;
  last_work_ = work;
}

void IoThreads::Decide(double busy, double rate) {
  const size_t configured = static_cast<size_t>(settings_.threads - 1);
  usable_cpus_ = UsableCpus();
  if (!settings_.adaptive) {
    active_ = std::min(configured, threads_.size());
    return;
  }
  // A thread beside the main one helps only when it can run at the same time.
  const size_t cpus = static_cast<size_t>(usable_cpus_ > 1 ? usable_cpus_ - 1 : 0);
  const size_t most = std::min(std::min(configured, cpus), threads_.size());
  active_ = policy_.Decide(busy, rate, active_, most, most > active_ ? idle_.Sample() : -1);
}

void IoThreads::Shutdown() {
  Drain();
  while (inflight_) {
    WaitForCompletion();
    Complete();
  }
  active_ = 0;
  threads_.clear();
}

void IoThreads::Info(std::string* out) const {
  InfoLine(out, "io_threads", settings_.threads);
  InfoLine(out, "io_threads_active", static_cast<int64_t>(active_));
  InfoLine(out, "io_threads_adaptive", settings_.adaptive ? 1 : 0);
  InfoLine(out, "io_threads_usable_cpus", usable_cpus_);
  uint64_t wakes = 0;
  for (const auto& t : threads_) {
    t->Info(out);
    wakes += t->WakeStats().wakes_issued;
  }
  ParkerStats m = main_parker_ ? main_parker_->Stats() : ParkerStats{};
  InfoLine(out, "io_poll_spinning", static_cast<int64_t>(m.spin_hits));
  InfoLine(out, "io_poll_blocked", static_cast<int64_t>(m.parks));
  InfoLine(out, "io_wake_syscalls", static_cast<int64_t>(wakes + m.wakes_issued));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(wait_ns_) / 1e9);
  InfoLine(out, "io_main_wait_sec", buf);
}

}  // namespace plinth::host
