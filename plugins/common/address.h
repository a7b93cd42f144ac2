// Address text and option values of the socket transports (the tcp and rdma plugins): bind
// lists, unixsocketperm, "ip:port" formatting the way Redis's CLIENT LIST writes it, loopback
// detection. Pure functions with no socket calls; any thread.
#ifndef PLINTH_PLUGINS_COMMON_ADDRESS_H
#define PLINTH_PLUGINS_COMMON_ADDRESS_H

#include <sys/socket.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::common {

// One entry of the bind option.
struct BindAddress {
  std::string host;       // numeric address or host name; "*" and "::*" already mapped
  bool optional = false;  // written with a leading '-': skipped if it is not available
  bool operator==(const BindAddress& o) const { return host == o.host && optional == o.optional; }
};

// Parses the bind option: addresses separated by spaces or tabs. "-addr" marks an address that
// may be unavailable (Redis 7 syntax); "*" means every IPv4 address (0.0.0.0) and "::*" every
// IPv6 address (::). Returns nullopt with a reason in *error for an empty list or a bare "-".
std::optional<std::vector<BindAddress>> ParseBindList(std::string_view text, std::string* error);

// Parses unixsocketperm: octal digits ("700", "0770"), at most 0777. nullopt otherwise.
std::optional<unsigned> ParseUnixSocketPerm(std::string_view text);

// "ip:port", with IPv6 addresses in brackets ("[::1]:6379") as Redis's CLIENT LIST does.
std::string FormatHostPort(std::string_view ip, int port);

// The "ip:port" text of an AF_INET or AF_INET6 address; "" for other families.
std::string FormatSockaddr(const sockaddr* sa);

// The text Redis shows for a unix socket connection: "<path>:0".
std::string FormatUnixAddress(std::string_view path);

// True for 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses (::ffff:127.0.0.1).
bool IsLoopback(const sockaddr* sa);

// True when a socket/bind error means the system has no IPv6 (or no such address), the case
// in which a default "::1" is skipped with a warning.
bool IsIpv6UnavailableError(int err);

}  // namespace plinth::common

#endif  // PLINTH_PLUGINS_COMMON_ADDRESS_H
