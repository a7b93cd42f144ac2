// Connection syscalls. Errors that only mean "try later" become kIoAgain; the rest kIoError.
#include "tcp/conn.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "common/address.h"

namespace plinth::tcp {
namespace {

bool IsOutOfDescriptors(int e) { return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM; }

// accept(2) on Linux reports network errors of the pending connection; the listener is fine.
bool IsPendingClientError(int e) {
  return e == ECONNABORTED || e == EPROTO || e == ENETDOWN || e == ENOPROTOOPT || e == EHOSTDOWN ||
         e == ENONET || e == EHOSTUNREACH || e == EOPNOTSUPP || e == ENETUNREACH || e == EPERM;
}

// One descriptor held in reserve. When the process runs out, it is released to accept and close
// the oldest pending connection: the backlog drains (that client sees a close) instead of the
// listener staying readable and the loop spinning on it. Main thread only.
int g_spare_fd = -2;

void ShedOnePending(int lfd) {
  if (g_spare_fd == -2) return;  // never armed: nothing to give back
  if (g_spare_fd >= 0) close(g_spare_fd);
  int fd = accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd >= 0) close(fd);
  g_spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

}  // namespace

void SetKeepAlive(int fd, int interval) {
  int yes = 1;
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &yes, sizeof yes);
  // First probe after interval seconds, then every interval/3, giving up after 3 unanswered.
  int idle = interval;
  int intvl = interval / 3 > 0 ? interval / 3 : 1;
  int count = 3;
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

AcceptStatus AcceptOne(int lfd, const std::string& unix_path, int keepalive_seconds, Accepted* out,
                       int* err) {
  *err = 0;
  if (g_spare_fd == -2) g_spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  sockaddr_storage peer{};
  int fd = -1;
  // Bounded, so a flood of aborted handshakes cannot keep the main thread here.
  for (int attempt = 0; attempt < 64 && fd < 0; attempt++) {
    socklen_t len = sizeof peer;
    fd = accept4(lfd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) break;
    const int e = errno;
    if (e == EINTR || IsPendingClientError(e)) continue;
    if (e == EAGAIN || e == EWOULDBLOCK) return AcceptStatus::kAgain;
    *err = e;
    if (!IsOutOfDescriptors(e)) return AcceptStatus::kError;
    ShedOnePending(lfd);
    return AcceptStatus::kAgain;
  }
  if (fd < 0) return AcceptStatus::kAgain;
  out->fd = fd;
  if (!unix_path.empty()) {
    out->is_unix = true;
    out->loopback = true;
    out->peer = out->local = common::FormatUnixAddress(unix_path);
    return AcceptStatus::kOk;
  }
  out->is_unix = false;
  out->loopback = common::IsLoopback(reinterpret_cast<sockaddr*>(&peer));
  out->peer = common::FormatSockaddr(reinterpret_cast<sockaddr*>(&peer));
  sockaddr_storage self{};
  socklen_t self_len = sizeof self;
  out->local = getsockname(fd, reinterpret_cast<sockaddr*>(&self), &self_len) == 0
                   ? common::FormatSockaddr(reinterpret_cast<sockaddr*>(&self))
                   : std::string();
  const int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  if (keepalive_seconds > 0) SetKeepAlive(fd, keepalive_seconds);
  return AcceptStatus::kOk;
}

int64_t ReadSome(int fd, char* buf, size_t len) {
  if (len == 0) return kIoAgain;  // 0 would read as EOF
  for (;;) {
    const ssize_t n = read(fd, buf, len);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? kIoAgain : kIoError;
  }
}

int64_t WriteSome(int fd, const iovec* iov, int iovcnt) {
  if (iovcnt <= 0) return 0;
  msghdr msg{};
  msg.msg_iov = const_cast<iovec*>(iov);
  msg.msg_iovlen = static_cast<size_t>(iovcnt < IOV_MAX ? iovcnt : IOV_MAX);
  for (;;) {
    const ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? kIoAgain : kIoError;
  }
}

bool WarningThrottle::Allow(std::chrono::steady_clock::time_point now, uint64_t* suppressed) {
  if (any_ && now - last_ < interval_) {
    held_++;
    return false;
  }
  any_ = true;
  last_ = now;
  *suppressed = held_;
  held_ = 0;
  return true;
}

}  // namespace plinth::tcp
