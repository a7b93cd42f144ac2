// The timed loop: a timerfd armed at the next scheduled send (timer slack set to 1 ns so it
// fires on time), epoll for the sockets, FIFO matching of replies to requests per connection.
#include "fixed_rate.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <memory>

#include "link.h"
#include "net.h"
#include "proc_cpu.h"
#include "reply_scanner.h"

namespace plinth::loadgen {
namespace {

struct Pending {
  int64_t intended_ns;
  int64_t sent_ns;
  bool measured;
};

struct Conn {
  std::unique_ptr<Link> link;
  std::string out;
  size_t out_pos = 0;
  std::string in;
  size_t in_pos = 0;
  std::deque<Pending> pending;
  bool polling_out = false;
};

struct Run {
  const FixedRateConfig& cfg;
  FixedRateResult& res;
  std::vector<Conn> conns;
  std::vector<std::string> requests;  // encoded GET of each key
  int epfd = -1;
  int tfd = -1;
  int64_t w0 = 0, w1 = 0;
  std::vector<int64_t> latency_ns, lag_ns;
  bool broken = false;

  Run(const FixedRateConfig& c, FixedRateResult& r) : cfg(c), res(r) {}
  ~Run() {
    if (epfd >= 0) close(epfd);
    if (tfd >= 0) close(tfd);
  }

  void Poll(Conn& c, size_t index, bool want_out) {
    if (!c.link->polls_output()) return;  // retried on the loop's short timeout instead
    epoll_event ev{};
    ev.events = EPOLLIN | (want_out ? EPOLLOUT : 0u);
    ev.data.u64 = index;
    epoll_ctl(epfd, EPOLL_CTL_MOD, c.link->fd(), &ev);
    c.polling_out = want_out;
  }

  // Whether some link that epoll cannot watch for output still has bytes to send.
  bool UnpolledOutput() const {
    for (const Conn& c : conns)
      if (!c.out.empty() && !c.link->polls_output()) return true;
    return false;
  }

  void Flush(size_t index) {
    Conn& c = conns[index];
    while (c.out_pos < c.out.size()) {
      const ssize_t n = c.link->Write(c.out.data() + c.out_pos, c.out.size() - c.out_pos);
      if (n > 0) {
        c.out_pos += static_cast<size_t>(n);
        continue;
      }
      if (n == 0) break;
      broken = true;
      return;
    }
    if (c.out_pos == c.out.size()) {
      c.out.clear();
      c.out_pos = 0;
    }
    bool want_out = !c.out.empty();
    if (want_out != c.polling_out) Poll(c, index, want_out);
    if (!c.link->polls_output()) Receive(index);  // the write may have taken completions
  }

  void Receive(size_t index) {
    Conn& c = conns[index];
    char buf[65536];
    for (;;) {
      const ssize_t n = c.link->Read(buf, sizeof buf);
      if (n == 0) break;
      if (n < 0) {
        broken = true;
        return;
      }
      const int64_t now = MonotonicNs();
      c.in.append(buf, static_cast<size_t>(n));
      size_t used = 0;
      bool is_error = false;
      Scan s;
      while ((s = ScanReply(c.in.data() + c.in_pos, c.in.size() - c.in_pos, &used, &is_error)) ==
             Scan::kComplete) {
        c.in_pos += used;
        if (is_error) res.errors++;
        if (c.pending.empty()) {
          broken = true;  // a reply nobody asked for: the stream is out of step
          return;
        }
        const Pending p = c.pending.front();
        c.pending.pop_front();
        if (now >= w0 && now < w1) res.replies++;
        if (p.measured) {
          latency_ns.push_back(now - p.sent_ns);
          lag_ns.push_back(p.sent_ns - p.intended_ns);
        }
      }
      if (s == Scan::kMalformed) {
        broken = true;
        return;
      }
      if (c.in_pos == c.in.size()) {
        c.in.clear();
        c.in_pos = 0;
      } else if (c.in_pos > (1u << 16)) {
        c.in.erase(0, c.in_pos);
        c.in_pos = 0;
      }
    }
  }

  bool Setup(std::string* err) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (epfd < 0 || tfd < 0) {
      *err = std::string("epoll/timerfd: ") + std::strerror(errno);
      return false;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = UINT64_MAX;
    epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev);
    conns.resize(static_cast<size_t>(std::max(1, cfg.conns)));
    for (size_t i = 0; i < conns.size(); ++i) {
      conns[i].link =
          cfg.rdma ? ConnectRdma(cfg.host, cfg.port, err) : ConnectTcp(cfg.host, cfg.port, err);
      if (conns[i].link == nullptr) return false;
      ev.events = EPOLLIN;
      ev.data.u64 = i;
      epoll_ctl(epfd, EPOLL_CTL_ADD, conns[i].link->fd(), &ev);
    }
    for (int k = 0; k < std::max(1, cfg.keys); ++k) {
      requests.emplace_back();
      AppendCommand(&requests.back(), {"GET", KeyName(k)});
    }
    return true;
  }

  void ArmTimer(int64_t at_ns) {
    itimerspec its{};
    its.it_value.tv_sec = at_ns / 1000000000;
    its.it_value.tv_nsec = at_ns % 1000000000;
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, nullptr);
  }

  size_t Outstanding() const {
    size_t n = 0;
    for (const Conn& c : conns) n += c.pending.size();
    return n;
  }

  void Loop();
};

void Run::Loop() {
  const double interval_ns = cfg.rate > 0 ? 1e9 / cfg.rate : 0;
  const int64_t t0 = MonotonicNs() + 20000000;  // 20 ms to settle after connecting
  w0 = t0 + static_cast<int64_t>(cfg.warmup_s * 1e9);
  w1 = w0 + static_cast<int64_t>(cfg.duration_s * 1e9);
  const int64_t drain_end = w1 + static_cast<int64_t>(cfg.drain_s * 1e9);
  const uint64_t total =
      cfg.rate > 0 ? static_cast<uint64_t>(std::ceil((w1 - t0) / interval_ns)) : 0;
  double cpu0 = -1, cpu1 = -1;
  int64_t cpu0_at = 0, cpu1_at = 0;
  bool have0 = false, have1 = false;
  uint64_t next = 0;
  std::vector<size_t> dirty;
  epoll_event events[64];
  while (!broken) {
    int64_t now = MonotonicNs();
    if (!have0 && now >= w0) {
      have0 = true;
      cpu0_at = now;
      if (cfg.server_pid > 0) cpu0 = ProcessCpuSeconds(cfg.server_pid);
    }
    if (!have1 && now >= w1) {
      have1 = true;
      cpu1_at = now;
      if (cfg.server_pid > 0) cpu1 = ProcessCpuSeconds(cfg.server_pid);
    }
    dirty.clear();
    for (; next < total; ++next) {
      const int64_t intended = t0 + static_cast<int64_t>(static_cast<double>(next) * interval_ns);
      if (intended > now) break;
      const size_t ci = next % conns.size();
      Conn& c = conns[ci];
      c.out += requests[next % requests.size()];
      const bool measured = intended >= w0 && intended < w1;
      c.pending.push_back({intended, now, measured});
      if (now >= w0 && now < w1) res.sent++;
      if (dirty.empty() || dirty.back() != ci) dirty.push_back(ci);
    }
    for (size_t ci : dirty) Flush(ci);
    if (have1 && (Outstanding() == 0 || now >= drain_end)) break;
    int64_t deadline = drain_end;
    if (next < total)
      deadline =
          std::min(deadline, t0 + static_cast<int64_t>(static_cast<double>(next) * interval_ns));
    if (!have0) deadline = std::min(deadline, w0);
    if (!have1) deadline = std::min(deadline, w1);
    ArmTimer(deadline);
    // Output an RDMA link could not take yet is retried after at most a millisecond.
    if (UnpolledOutput()) {
      for (size_t ci = 0; ci < conns.size(); ++ci)
        if (!conns[ci].out.empty()) Flush(ci);
    }
    int n = epoll_wait(epfd, events, 64, UnpolledOutput() ? 1 : -1);
    for (int i = 0; i < n; ++i) {
      const uint64_t id = events[i].data.u64;
      if (id == UINT64_MAX) {
        uint64_t expirations;
        (void)!read(tfd, &expirations, sizeof expirations);
        continue;
      }
      if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) Receive(id);
      if (events[i].events & EPOLLOUT) Flush(id);
    }
  }
  res.window_s = static_cast<double>(cpu1_at - cpu0_at) / 1e9;
  if (cpu0 >= 0 && cpu1 >= 0 && res.window_s > 0)
    res.server_cpu_pct = 100.0 * (cpu1 - cpu0) / res.window_s;
  for (const Conn& c : conns)
    for (const Pending& p : c.pending) res.unanswered += p.measured ? 1 : 0;
}

}  // namespace

double Quantile(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return static_cast<double>(sorted[std::min(i, sorted.size() - 1)]);
}

bool RunFixedRate(const FixedRateConfig& cfg, FixedRateResult* out, std::string* err) {
  *out = FixedRateResult{};
  out->target_rate = cfg.rate;
  Run run(cfg, *out);
  if (!run.Setup(err)) return false;
  run.Loop();
  if (run.broken) {
    *err = "a connection broke or the server sent an unexpected reply during the run";
    return false;
  }
  FixedRateResult& r = *out;
  if (r.window_s > 0) {
    r.sent_rate = static_cast<double>(r.sent) / r.window_s;
    r.reply_rate = static_cast<double>(r.replies) / r.window_s;
  }
  std::sort(run.latency_ns.begin(), run.latency_ns.end());
  std::sort(run.lag_ns.begin(), run.lag_ns.end());
  r.p50_us = Quantile(run.latency_ns, 0.50) / 1e3;
  r.p99_us = Quantile(run.latency_ns, 0.99) / 1e3;
  r.p999_us = Quantile(run.latency_ns, 0.999) / 1e3;
  r.max_us = run.latency_ns.empty() ? 0 : static_cast<double>(run.latency_ns.back()) / 1e3;
  double sum = 0;
  for (int64_t v : run.latency_ns) sum += static_cast<double>(v);
  r.mean_us = run.latency_ns.empty() ? 0 : sum / static_cast<double>(run.latency_ns.size()) / 1e3;
  r.send_lag_p99_us = Quantile(run.lag_ns, 0.99) / 1e3;
  if (cfg.rate <= 0) {
    r.held = true;
    return true;
  }
  const double tol = 0.02 * cfg.rate;
  const bool sent_ok = std::fabs(r.sent_rate - cfg.rate) <= tol;
  const bool reply_ok = std::fabs(r.reply_rate - cfg.rate) <= tol && r.unanswered == 0;
  r.held = sent_ok && reply_ok;
  // A generator that was itself held off the CPU sends late, and the replies to what it sent
  // late land after the window: that is the machine, not the server.
  const bool stalled = r.send_lag_p99_us > 0.02 * cfg.duration_s * 1e6;
  if (!sent_ok) {
    r.note = "the generator could not send at the target rate";
  } else if (!reply_ok && stalled) {
    r.note = "the generator was held off the CPU (p99 send lag " +
             std::to_string(static_cast<int64_t>(r.send_lag_p99_us / 1000)) +
             " ms), so replies fell outside the window";
  } else if (!reply_ok) {
    r.note = "the server did not answer at the target rate";
  }
  return true;
}

}  // namespace plinth::loadgen
