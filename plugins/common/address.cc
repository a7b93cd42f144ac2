// Address text and option parsing for the socket transports (tcp, rdma).
#include "common/address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cerrno>
#include <cstring>

namespace plinth::common {

std::optional<std::vector<BindAddress>> ParseBindList(std::string_view text, std::string* error) {
  std::vector<BindAddress> out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      i++;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') end++;
    std::string_view word = text.substr(i, end - i);
    i = end;
    BindAddress a;
    if (word.front() == '-') {
      a.optional = true;
      word.remove_prefix(1);
      if (word.empty()) {
        *error = "bind: '-' must be followed by an address";
        return std::nullopt;
      }
    }
    if (word == "*") {
      a.host = "0.0.0.0";
    } else if (word == "::*") {
      a.host = "::";
    } else {
      a.host = std::string(word);
    }
    out.push_back(std::move(a));
  }
  if (out.empty()) {
    *error = "bind: at least one address is needed";
    return std::nullopt;
  }
  return out;
}

std::optional<unsigned> ParseUnixSocketPerm(std::string_view text) {
  if (text.empty() || text.size() > 4) return std::nullopt;
  unsigned v = 0;
  for (char c : text) {
    if (c < '0' || c > '7') return std::nullopt;
    v = v * 8 + static_cast<unsigned>(c - '0');
  }
  if (v > 0777) return std::nullopt;
  return v;
}

std::string FormatHostPort(std::string_view ip, int port) {
  std::string s;
  const bool v6 = ip.find(':') != std::string_view::npos;
  if (v6) s.push_back('[');
  s.append(ip);
  if (v6) s.push_back(']');
  s.push_back(':');
  s.append(std::to_string(port));
  return s;
}

std::string FormatSockaddr(const sockaddr* sa) {
  char ip[INET6_ADDRSTRLEN] = "";
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    if (inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip) == nullptr) return "";
    return FormatHostPort(ip, ntohs(in->sin_port));
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip) == nullptr) return "";
    return FormatHostPort(ip, ntohs(in6->sin6_port));
  }
  return "";
}

std::string FormatUnixAddress(std::string_view path) { return std::string(path) + ":0"; }

bool IsLoopback(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return true;
    return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
  }
  return false;
}

bool IsIpv6UnavailableError(int err) {
  return err == EAFNOSUPPORT || err == EPROTONOSUPPORT || err == ESOCKTNOSUPPORT ||
         err == EPFNOSUPPORT || err == ENOPROTOOPT || err == EADDRNOTAVAIL;
}

}  // namespace plinth::common
