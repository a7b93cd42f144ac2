// Accepted connections of the tcp transport: accept4 with the socket options Redis sets, and
// the non-blocking read/write calls. Accept runs on the main thread; ReadSome and WriteSome on
// any thread, one thread per connection at a time.
#ifndef PLINTH_PLUGINS_TCP_CONN_H
#define PLINTH_PLUGINS_TCP_CONN_H

#include <sys/uio.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth::tcp {

// Results below zero of ReadSome and WriteSome (the ABI's PLINTH_IO_AGAIN / PLINTH_IO_ERROR).
inline constexpr int64_t kIoAgain = -1;
inline constexpr int64_t kIoError = -2;

enum class AcceptStatus {
  kOk,
  kAgain,  // nothing to accept now; *err is non-zero when the process is out of descriptors
  kError,  // the listener is broken; *err says why
};

struct Accepted {
  int fd = -1;
  std::string peer;       // "ip:port", or "<path>:0" for a unix socket
  std::string local;      // same form
  bool loopback = false;  // loopback TCP peer or unix socket
  bool is_unix = false;
};

// Accepts one connection from listener lfd (non-blocking, close-on-exec). For TCP it sets
// TCP_NODELAY and, when keepalive_seconds > 0, keepalive probes; unix_path names the socket of
// a unix listener (empty for TCP). Connection failures that concern only the pending client are
// retried; descriptor exhaustion (EMFILE, ENFILE, ENOBUFS, ENOMEM) returns kAgain with *err set
// so the caller can warn and keep its accept loop alive.
AcceptStatus AcceptOne(int lfd, const std::string& unix_path, int keepalive_seconds, Accepted* out,
                       int* err);

// Turns on keepalive probes every interval seconds, as Redis's tcp-keepalive does.
void SetKeepAlive(int fd, int interval);

// Reads up to len bytes. Returns the count, 0 at EOF, kIoAgain or kIoError.
int64_t ReadSome(int fd, char* buf, size_t len);

// Writes the buffers in order (sendmsg with MSG_NOSIGNAL; at most IOV_MAX of them per call).
// Returns the bytes written, kIoAgain or kIoError.
int64_t WriteSome(int fd, const iovec* iov, int iovcnt);

// Lets one warning through per interval and counts the ones it held back.
class WarningThrottle {
 public:
  explicit WarningThrottle(std::chrono::milliseconds interval) : interval_(interval) {}
  // True when a warning may be logged at now; *suppressed is how many were held back since the
  // last one let through.
  bool Allow(std::chrono::steady_clock::time_point now, uint64_t* suppressed);

 private:
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point last_{};
  bool any_ = false;
  uint64_t held_ = 0;
};

}  // namespace plinth::tcp

#endif  // PLINTH_PLUGINS_TCP_CONN_H
