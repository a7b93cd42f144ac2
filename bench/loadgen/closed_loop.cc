// The closed loop: epoll for the sockets, a reply reader that parses bulk headers itself and
// consumes their payloads without buffering them (other replies go through ScanReply).
#include "closed_loop.h"

#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "link.h"
#include "net.h"
#include "proc_cpu.h"
#include "reply_scanner.h"

namespace plinth::loadgen {
namespace {

constexpr size_t kReadChunk = 1 << 16;
constexpr size_t kMaxHeader = 64;  // "$<length>\r\n" with room to spare

struct Conn {
  std::unique_ptr<Link> link;
  std::string out;
  std::string in;  // reply bytes not consumed yet (headers and small replies)
  size_t in_pos = 0;
  uint64_t skip = 0;  // payload bytes (and CRLF) of the current bulk still to consume
  std::deque<int64_t> sent_ns;
};

struct Loop {
  const FixedRateConfig& cfg;
  const bool discard;
  ClosedLoopResult& res;
  std::vector<Conn> conns;
  std::vector<std::string> requests;
  uint64_t next_key = 0;
  int epfd = -1;
  int64_t w0 = 0, w1 = 0;
  std::vector<int64_t> latency_ns;
  std::vector<char> scratch = std::vector<char>(1 << 18);
  std::string err;

  Loop(const FixedRateConfig& c, bool d, ClosedLoopResult& r) : cfg(c), discard(d), res(r) {}

  void Send(Conn& c) {
    c.out += requests[next_key++ % requests.size()];
    c.sent_ns.push_back(MonotonicNs());
  }

  bool Flush(Conn& c) {
    size_t pos = 0;
    while (pos < c.out.size()) {
      const ssize_t n = c.link->Write(c.out.data() + pos, c.out.size() - pos);
      if (n < 0) return Fail("a connection broke while sending");
      if (n == 0) break;  // the requests are small: the rest goes with the next flush
      pos += static_cast<size_t>(n);
    }
    c.out.erase(0, pos);
    return true;
  }

  bool Fail(const char* why) {
    if (err.empty()) err = why;
    return false;
  }

  // One reply of c completed: its latency, and the next request.
  bool Completed(Conn& c) {
    if (c.sent_ns.empty()) return Fail("a reply nobody asked for");
    const int64_t now = MonotonicNs();
    if (now >= w0 && now < w1) {
      res.replies++;
      latency_ns.push_back(now - c.sent_ns.front());
    }
    c.sent_ns.pop_front();
    Send(c);
    return true;
  }

  // Consumes the buffered replies of c. False on a malformed reply.
  bool Consume(Conn& c) {
    for (;;) {
      const size_t avail = c.in.size() - c.in_pos;
      if (c.skip > 0) {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(c.skip, avail));
        c.in_pos += take;
        c.skip -= take;
        if (c.skip > 0) break;
        if (!Completed(c)) return false;
        continue;
      }
      if (avail == 0) break;
      const char* p = c.in.data() + c.in_pos;
      if (*p == '$') {
        const void* cr = std::memchr(p, '\r', std::min(avail, kMaxHeader));
        if (cr == nullptr && avail >= kMaxHeader) return Fail("a bulk header too long");
        if (cr == nullptr || static_cast<const char*>(cr) + 1 >= p + avail) break;
        const long long len = std::strtoll(p + 1, nullptr, 10);
        c.in_pos += static_cast<size_t>(static_cast<const char*>(cr) - p) + 2;
        if (len < 0) {
          if (!Completed(c)) return false;  // a nil reply
        } else {
          c.skip = static_cast<uint64_t>(len) + 2;
        }
        continue;
      }
      size_t used = 0;
      bool is_error = false;
      const Scan s = ScanReply(p, avail, &used, &is_error);
      if (s == Scan::kNeedMore) break;
      if (s == Scan::kMalformed) return Fail("the server sent a malformed reply");
      c.in_pos += used;
      res.errors += is_error ? 1 : 0;
      if (!Completed(c)) return false;
    }
    if (c.in_pos == c.in.size()) {
      c.in.clear();
      c.in_pos = 0;
    }
    return true;
  }

  bool Receive(Conn& c) {
    char buf[kReadChunk];
    for (;;) {
      ssize_t n;
      if (c.skip > 0 && c.in_pos == c.in.size()) {  // inside a payload: consume it directly
        const size_t want = static_cast<size_t>(std::min<uint64_t>(c.skip, scratch.size()));
        n = discard ? c.link->Discard(want) : c.link->Read(scratch.data(), want);
        if (n > 0) {
          c.skip -= static_cast<uint64_t>(n);
          if (c.skip == 0 && !Completed(c)) return false;
          continue;
        }
      } else {
        n = c.link->Read(buf, sizeof buf);
        if (n > 0) {
          c.in.append(buf, static_cast<size_t>(n));
          if (!Consume(c)) return false;
          continue;
        }
      }
      if (n == 0) break;
      return Fail("a connection closed during the run");
    }
    return Flush(c);
  }

  bool Run(int depth) {
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) return Fail("epoll_create1 failed");
    for (int k = 0; k < std::max(1, cfg.keys); ++k) {
      requests.emplace_back();
      AppendCommand(&requests.back(), {"GET", KeyName(k)});
    }
    conns.resize(static_cast<size_t>(std::max(1, cfg.conns)));
    for (size_t i = 0; i < conns.size(); ++i) {
      conns[i].link =
          cfg.rdma ? ConnectRdma(cfg.host, cfg.port, &err) : ConnectTcp(cfg.host, cfg.port, &err);
      if (conns[i].link == nullptr) return false;
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = i;
      epoll_ctl(epfd, EPOLL_CTL_ADD, conns[i].link->fd(), &ev);
    }
    const int64_t t0 = MonotonicNs();
    w0 = t0 + static_cast<int64_t>(cfg.warmup_s * 1e9);
    w1 = w0 + static_cast<int64_t>(cfg.duration_s * 1e9);
    for (Conn& c : conns) {
      for (int d = 0; d < std::max(1, depth); ++d) Send(c);
      if (!Flush(c)) return false;
    }
    double cpu0 = -1, cpu1 = -1;
    int64_t at0 = 0, at1 = 0;
    epoll_event events[64];
    for (;;) {
      const int64_t now = MonotonicNs();
      if (at0 == 0 && now >= w0) {
        at0 = now;
        if (cfg.server_pid > 0) cpu0 = ProcessCpuSeconds(cfg.server_pid);
      }
      if (now >= w1) {
        at1 = now;
        if (cfg.server_pid > 0) cpu1 = ProcessCpuSeconds(cfg.server_pid);
        break;
      }
      // RDMA links are not polled for output: a short timeout retries their writes.
      const int n = epoll_wait(epfd, events, 64, cfg.rdma ? 1 : 10);
      for (int i = 0; i < n; ++i)
        if (!Receive(conns[events[i].data.u64])) return false;
      if (cfg.rdma)
        for (Conn& c : conns)
          if (!Receive(c)) return false;
    }
    res.window_s = static_cast<double>(at1 - at0) / 1e9;
    if (cpu0 >= 0 && cpu1 >= 0 && res.window_s > 0)
      res.server_cpu_pct = 100.0 * (cpu1 - cpu0) / res.window_s;
    return true;
  }
};

}  // namespace

bool RunClosedLoop(const FixedRateConfig& cfg, int depth, bool discard, ClosedLoopResult* out,
                   std::string* err) {
  *out = ClosedLoopResult{};
  Loop loop(cfg, discard, *out);
  const bool ok = loop.Run(depth);
  if (loop.epfd >= 0) close(loop.epfd);
  if (!ok) {
    *err = loop.err.empty() ? "connecting failed" : loop.err;
    return false;
  }
  ClosedLoopResult& r = *out;
  if (r.window_s > 0) r.reply_rate = static_cast<double>(r.replies) / r.window_s;
  std::sort(loop.latency_ns.begin(), loop.latency_ns.end());
  r.p50_us = Quantile(loop.latency_ns, 0.50) / 1e3;
  r.p99_us = Quantile(loop.latency_ns, 0.99) / 1e3;
  r.p999_us = Quantile(loop.latency_ns, 0.999) / 1e3;
  r.max_us = loop.latency_ns.empty() ? 0 : static_cast<double>(loop.latency_ns.back()) / 1e3;
  return true;
}

}  // namespace plinth::loadgen
