// The link thread's socket IO: getaddrinfo + non-blocking connect, and poll()-bounded reads and
// writes that a stop interrupts through the wake fd.
#include "replication/link/wire_io.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <plinth/command_form.hpp>

namespace plinth::replication {

namespace {

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

std::string WireIo::Wait(int fd, short events, const char* what) {
  pollfd fds[2] = {{fd, events, 0}, {wake_fd_, POLLIN, 0}};
  for (;;) {
    const int r = poll(fds, 2, timeout_ms_);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Errno("poll");
    if (fds[1].revents != 0) return "link stopped";
    if (r == 0) {
      return std::string("timeout: ") + what + " for " + std::to_string(timeout_ms_) + " ms";
    }
    return "";
  }
}

std::string WireIo::Connect(const std::string& host, int port, int* fd) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(port);
  const int gai = getaddrinfo(host.c_str(), port_text.c_str(), &hints, &res);
  if (gai != 0) return "resolve " + host + ": " + gai_strerror(gai);
  const std::string where = host + ":" + port_text;
  std::string reason = "connect " + where + ": no address";
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    const int s = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0) {
      reason = Errno("socket");
      continue;
    }
    std::string why;
    if (connect(s, ai->ai_addr, ai->ai_addrlen) < 0) {
      if (errno != EINPROGRESS) {
        why = std::strerror(errno);
      } else if (why = Wait(s, POLLOUT, "connecting"); why.empty()) {
        int err = 0;
        socklen_t len = sizeof(err);
        if (getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        if (err != 0) why = std::strerror(err);
      }
    }
    if (why.empty()) {
      const int one = 1;
      setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      freeaddrinfo(res);
      *fd = s;
      return "";
    }
    reason = "connect " + where + ": " + why;
    close(s);
  }
  freeaddrinfo(res);
  return reason;
}

std::string WireIo::WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      std::string reason = Wait(fd, POLLOUT, "primary not reading");
      if (!reason.empty()) return reason;
      continue;
    }
    return Errno("write to primary");
  }
  return "";
}

std::string WireIo::ReadSome(int fd, char* buf, size_t cap, size_t* n) {
  for (;;) {
    // Poll first even when data may be waiting, so a stop ends a busy stream too.
    std::string reason = Wait(fd, POLLIN, "no data from primary");
    if (!reason.empty()) return reason;
    const ssize_t r = recv(fd, buf, cap, 0);
    if (r > 0) {
      *n = static_cast<size_t>(r);
      return "";
    }
    if (r == 0) return "connection closed by primary";
    if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
      return Errno("read from primary");
    }
  }
}

std::string WireIo::ReadLine(int fd, std::string* in, std::string* line) {
  for (;;) {
    const size_t nl = in->find('\n');
    if (nl != std::string::npos) {
      const size_t end = nl > 0 && (*in)[nl - 1] == '\r' ? nl - 1 : nl;
      line->assign(*in, 0, end);
      in->erase(0, nl + 1);
      if (line->empty()) continue;  // the primary's keepalive
      return "";
    }
    if (in->size() > kMaxLine) return "protocol error: reply line too long";
    char buf[4096];
    size_t n = 0;
    std::string reason = ReadSome(fd, buf, sizeof(buf), &n);
    if (!reason.empty()) return reason;
    in->append(buf, n);
  }
}

std::string EncodeCommand(const std::vector<std::string>& argv) {
  std::string out;
  form::AppendCommand(&out, argv);
  return out;
}

}  // namespace plinth::replication
