// Creating and closing listening sockets. Bind failures follow Redis: the default ::1 may be
// missing on hosts without IPv6, everything else the user asked for must be bound.
#include "tcp/listener.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace plinth::tcp {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

// Opens one listening TCP socket on host:port. Returns the fd, or -1 with *err (an errno) and
// *reason set.
int OpenTcp(const std::string& host, int port, int backlog, int* err, std::string* reason) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  const int gai = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
  if (gai != 0) {
    *err = gai == EAI_SYSTEM ? errno : EADDRNOTAVAIL;
    *reason = gai_strerror(gai);
    return -1;
  }
  int fd = -1;
  for (addrinfo* ai = res; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      *err = errno;
      continue;
    }
    const int one = 1;
    bool ok = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0;
    if (ok && ai->ai_family == AF_INET6) {
      ok = setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) == 0;
    }
    ok = ok && bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0;
    if (!ok) {
      *err = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) *reason = ErrnoText(*err);
  return fd;
}

// The description of a bound TCP socket, from the address the kernel actually bound.
std::string BoundAddress(int fd, const std::string& host, int port) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) == 0) {
    std::string text = common::FormatSockaddr(reinterpret_cast<sockaddr*>(&ss));
    if (!text.empty()) return text;
  }
  return common::FormatHostPort(host, port);
}

int OpenUnix(const std::string& path, int backlog, unsigned perm, std::string* reason) {
  sockaddr_un sa{};
  if (path.size() >= sizeof sa.sun_path) {
    *reason = "unixsocket path is longer than " + std::to_string(sizeof sa.sun_path - 1) + " bytes";
    return -1;
  }
  sa.sun_family = AF_UNIX;
  std::memcpy(sa.sun_path, path.c_str(), path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *reason = ErrnoText(errno);
    return -1;
  }
  unlink(path.c_str());  // a stale socket file from an earlier run, as Redis does
  if (bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(fd, backlog) != 0 ||
      (perm != 0 && chmod(path.c_str(), perm) != 0)) {
    *reason = ErrnoText(errno);
    close(fd);
    return -1;
  }
  return fd;
}

void WarnIfBacklogTooBig(int backlog, const LogFn& log) {
  FILE* f = std::fopen("/proc/sys/net/core/somaxconn", "r");
  if (f == nullptr) return;
  int somaxconn = 0;
  if (std::fscanf(f, "%d", &somaxconn) == 1 && somaxconn < backlog) {
    log(LogLevel::kWarning, "WARNING: The TCP backlog setting of " + std::to_string(backlog) +
                                " cannot be enforced because /proc/sys/net/core/somaxconn is set "
                                "to the lower value of " +
                                std::to_string(somaxconn) + ".");
  }
  std::fclose(f);
}

}  // namespace

bool OpenListeners(const ListenConfig& config, const LogFn& log, std::vector<Listener>* out,
                   std::string* error) {
  std::vector<Listener> opened;
  auto fail = [&](const std::string& reason) {
    CloseListeners(&opened);
    *error = reason;
    return false;
  };
  if (config.port != 0) {
    WarnIfBacklogTooBig(config.backlog, log);
    for (const common::BindAddress& a : config.bind) {
      int err = 0;
      std::string reason;
      const int fd = OpenTcp(a.host, config.port, config.backlog, &err, &reason);
      const std::string where = common::FormatHostPort(a.host, config.port);
      if (fd >= 0) {
        opened.push_back(Listener{fd, false, BoundAddress(fd, a.host, config.port)});
        continue;
      }
      const bool skip = (a.optional && err == EADDRNOTAVAIL) ||
                        (a.host == "::1" && common::IsIpv6UnavailableError(err));
      if (!skip)
        return fail("Could not create server TCP listening socket " + where + ": " + reason);
      log(LogLevel::kWarning,
          "Warning: Could not create server TCP listening socket " + where + ": " + reason);
    }
  }
  if (!config.unix_path.empty()) {
    std::string reason;
    const int fd = OpenUnix(config.unix_path, config.backlog, config.unix_perm, &reason);
    if (fd < 0) return fail("Failed opening Unix socket " + config.unix_path + ": " + reason);
    opened.push_back(Listener{fd, true, config.unix_path});
  }
  out->insert(out->end(), opened.begin(), opened.end());
  return true;
}

void CloseListeners(std::vector<Listener>* listeners) {
  for (const Listener& l : *listeners) {
    close(l.fd);
    if (l.is_unix) unlink(l.description.c_str());
  }
  listeners->clear();
}

}  // namespace plinth::tcp
