// Listening sockets of the tcp transport: TCP on each bind address and an optional unix
// socket, all non-blocking. Main thread (transport start/stop).
#ifndef PLINTH_PLUGINS_TCP_LISTENER_H
#define PLINTH_PLUGINS_TCP_LISTENER_H

#include <functional>
#include <string>
#include <vector>

#include "common/address.h"

namespace plinth::tcp {

enum class LogLevel { kNotice, kWarning };
using LogFn = std::function<void(LogLevel, const std::string&)>;

struct ListenConfig {
  std::vector<common::BindAddress> bind;  // TCP addresses; unused when port is 0
  int port = 6379;                        // 0: no TCP listener
  int backlog = 511;
  std::string unix_path;   // empty: no unix socket
  unsigned unix_perm = 0;  // chmod of the socket file; 0 leaves the umask's mode
};

struct Listener {
  int fd = -1;
  bool is_unix = false;
  std::string description;  // "127.0.0.1:6379", "[::1]:6379" or the socket path
};

// Opens every listener of config (SO_REUSEADDR, IPV6_V6ONLY for IPv6, non-blocking,
// close-on-exec) and appends them to *out. A bind address that cannot be used is an error,
// except "::1" when the system has no IPv6 and a '-' address that is not available: those are
// logged as warnings and skipped. On error closes what it opened, leaves *out as it was and
// returns false with a reason in *error. Logs warnings through log.
bool OpenListeners(const ListenConfig& config, const LogFn& log, std::vector<Listener>* out,
                   std::string* error);

// Closes every listener, removes the unix socket file, and clears *listeners.
void CloseListeners(std::vector<Listener>* listeners);

}  // namespace plinth::tcp

#endif  // PLINTH_PLUGINS_TCP_LISTENER_H
