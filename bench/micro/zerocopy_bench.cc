// MSG_ZEROCOPY against a plain send for one large reply over loopback TCP: the sending thread's
// CPU per message (what the server's writing thread pays), with the completion notifications
// read from the error queue as a zero-copy transport must before it releases a buffer. The
// "copied" counter is the share of completions where the kernel copied anyway
// (SO_EE_CODE_ZEROCOPY_COPIED). BM_LoopbackSendfile sends the same sizes with sendfile from a
// memfd, whose pages the kernel references instead of copying, beside a plain send from the
// same 128 MiB of values (both cold in the cache, as a keyspace of large values is).
// docs/performance.md, "Zero-copy replies".
#include <benchmark/benchmark.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// A connected loopback pair whose far end a thread drains until it closes: copying what it
// reads, or with discard dropping it in the kernel (MSG_TRUNC).
struct Pair {
  int tx = -1;
  std::thread drain;

  explicit Pair(bool discard = false) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(l, 1);
    getsockname(l, reinterpret_cast<sockaddr*>(&a), &len);
    tx = socket(AF_INET, SOCK_STREAM, 0);
    connect(tx, reinterpret_cast<sockaddr*>(&a), sizeof a);
    int rx = accept(l, nullptr, nullptr);
    close(l);
    drain = std::thread([rx, discard] {
      std::vector<char> buf(1 << 20);
      while (recv(rx, buf.data(), buf.size(), discard ? MSG_TRUNC : 0) > 0) {
      }
      close(rx);
    });
  }
  ~Pair() {
    shutdown(tx, SHUT_WR);
    drain.join();
    close(tx);
  }
};

// Reads the completions queued so far; returns how many sends they cover, counting in
// *copied those the kernel copied.
int64_t ReadCompletions(int fd, int64_t* copied) {
  int64_t covered = 0;
  for (;;) {
    char control[128];
    msghdr m{};
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) return covered;
    for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
      const auto* e = reinterpret_cast<const sock_extended_err*>(CMSG_DATA(c));
      if (e->ee_origin != SO_EE_ORIGIN_ZEROCOPY) continue;
      const int64_t n = static_cast<int64_t>(e->ee_data) - e->ee_info + 1;  // a range of sends
      covered += n;
      if (e->ee_code & SO_EE_CODE_ZEROCOPY_COPIED) *copied += n;
    }
  }
}

void SendAll(int fd, const char* p, size_t n, int flags) {
  while (n > 0) {
    const ssize_t w = send(fd, p, n, flags);
    if (w < 0 && (errno == EINTR || errno == ENOBUFS)) continue;  // ENOBUFS: notes pending
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void BM_LoopbackSend(benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  const bool zerocopy = state.range(1) != 0;
  Pair pair;
  const int one = 1;
  if (zerocopy && setsockopt(pair.tx, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof one) != 0) {
    state.SkipWithError("SO_ZEROCOPY not supported");
    return;
  }
  std::vector<char> reply(size, 'r');
  int64_t sent = 0, completed = 0, copied = 0;
  for (auto _ : state) {
    SendAll(pair.tx, reply.data(), reply.size(), zerocopy ? MSG_ZEROCOPY : 0);
    ++sent;
    if (zerocopy) completed += ReadCompletions(pair.tx, &copied);
  }
  if (zerocopy) {  // the last completions: a transport waits for them before releasing
    for (int i = 0; i < 1000 && completed < sent; ++i) {
      completed += ReadCompletions(pair.tx, &copied);
      if (completed < sent) usleep(100);
    }
    state.counters["copied"] = completed ? static_cast<double>(copied) / completed : 0;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size));
}
BENCHMARK(BM_LoopbackSend)
    ->ArgNames({"bytes", "zerocopy"})
    ->ArgsProduct({{64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20}, {0, 1}})
    ->UseRealTime();

constexpr size_t kColdBytes = 128u << 20;

// sendfile from a memfd (1) or send from the same mapped bytes (0), cycling through
// kColdBytes of values of the given size, to a reader that copies (0) or discards (1).
void BM_LoopbackSendfile(benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  const bool by_file = state.range(1) != 0;
  const int fd = memfd_create("values", 0);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(kColdBytes)) != 0) {
    state.SkipWithError("memfd_create failed");
    return;
  }
  auto* values =
      static_cast<char*>(mmap(nullptr, kColdBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  if (values == MAP_FAILED) {
    state.SkipWithError("mmap failed");
    close(fd);
    return;
  }
  std::memset(values, 'v', kColdBytes);
  Pair pair(state.range(2) != 0);
  const size_t count = kColdBytes / size;
  size_t next = 0;
  for (auto _ : state) {
    const size_t at = (next++ % count) * size;
    if (!by_file) {
      SendAll(pair.tx, values + at, size, 0);
      continue;
    }
    off_t off = static_cast<off_t>(at);
    for (size_t left = size; left > 0;) {
      const ssize_t w = sendfile(pair.tx, fd, &off, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      left -= static_cast<size_t>(w);
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size));
  munmap(values, kColdBytes);
  close(fd);
}
BENCHMARK(BM_LoopbackSendfile)
    ->ArgNames({"bytes", "sendfile", "discard"})
    ->ArgsProduct({{64 << 10, 256 << 10, 1 << 20, 4 << 20}, {0, 1}, {0, 1}})
    ->UseRealTime();

}  // namespace
