// Connect and preload. Preload sends SETs in batches of 1000 and waits for each batch's
// replies, so the server never buffers more than one batch.
#include "net.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "reply_scanner.h"

namespace plinth::loadgen {

int Connect(const std::string& host, int port, std::string* err) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
  if (rc != 0) {
    *err = "cannot resolve " + host + ": " + gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  for (addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      *err = "cannot connect to " + host + ":" + service + ": " + std::strerror(errno);
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd >= 0) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

std::string KeyName(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "key:%012d", i);
  return buf;
}

void AppendCommand(std::string* out, std::initializer_list<std::string_view> args) {
  out->append("*").append(std::to_string(args.size())).append("\r\n");
  for (std::string_view a : args) {
    out->append("$").append(std::to_string(a.size())).append("\r\n");
    out->append(a).append("\r\n");
  }
}

namespace {

bool WriteAll(int fd, const std::string& s, std::string* err) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *err = std::string("write failed: ") + std::strerror(errno);
      return false;
    }
    off += static_cast<size_t>(n);
  }
  return true;
}

// Reads until count replies arrived; fails on an error reply or a closed connection.
bool ReadReplies(int fd, int count, std::string* err) {
  std::string in;
  size_t pos = 0;
  char buf[65536];
  while (count > 0) {
    size_t used = 0;
    bool is_error = false;
    Scan s = ScanReply(in.data() + pos, in.size() - pos, &used, &is_error);
    if (s == Scan::kComplete) {
      if (is_error) {
        *err = "the server refused a SET: " + in.substr(pos, used - 2);
        return false;
      }
      pos += used;
      --count;
      continue;
    }
    if (s == Scan::kMalformed) {
      *err = "malformed reply from the server";
      return false;
    }
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *err = "connection closed while preloading";
      return false;
    }
    in.erase(0, pos);
    pos = 0;
    in.append(buf, static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

bool Preload(int fd, int keys, int value_size, std::string* err) {
  const std::string value(static_cast<size_t>(value_size), 'x');
  constexpr int kBatch = 1000;
  for (int first = 0; first < keys; first += kBatch) {
    std::string out;
    int n = 0;
    for (int i = first; i < keys && i < first + kBatch; ++i, ++n)
      AppendCommand(&out, {"SET", KeyName(i), value});
    if (!WriteAll(fd, out, err) || !ReadReplies(fd, n, err)) return false;
  }
  return true;
}

}  // namespace plinth::loadgen
