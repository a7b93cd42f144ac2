// Blocking IO with timeouts for the link's thread, on a non-blocking TCP socket: each wait is a
// poll() on the socket and on a wake fd, so Stop (which makes the wake fd readable) ends any
// wait at once. Every function returns "" on success or a reason for the log.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::replication {

class WireIo {
 public:
  // wake_fd: readable when the link is stopping. timeout_ms: the longest silence any one wait
  // tolerates. OWNERSHIP: neither fd is owned.
  WireIo(int wake_fd, int timeout_ms) : wake_fd_(wake_fd), timeout_ms_(timeout_ms) {}

  // Resolves host (IPv4) and connects within the timeout. On success *fd is a connected,
  // non-blocking socket the caller owns (close it).
  std::string Connect(const std::string& host, int port, int* fd);
  // Writes all of data to fd, waiting for room within the timeout each time.
  std::string WriteAll(int fd, std::string_view data);
  // Reads what is available (at least one byte) into buf[0..cap); *n is the count. EOF, an
  // error, the timeout or a stop are failures.
  std::string ReadSome(int fd, char* buf, size_t cap, size_t* n);
  // Reads one reply line into *line (without CRLF), skipping the bare "\n" keepalives a
  // primary sends while it prepares. *in holds bytes read but not consumed, before and after:
  // what followed the line stays there. A line over kMaxLine bytes is a protocol error.
  std::string ReadLine(int fd, std::string* in, std::string* line);

  static constexpr size_t kMaxLine = 64 * 1024;

 private:
  // Waits for events on fd. "" when ready.
  std::string Wait(int fd, short events, const char* what);

  int wake_fd_;
  int timeout_ms_;
};

// Encodes argv as a RESP multibulk command.
std::string EncodeCommand(const std::vector<std::string>& argv);

}  // namespace plinth::replication
