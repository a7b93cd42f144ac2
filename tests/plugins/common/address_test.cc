// Address text shared by the socket transports: bind lists, unixsocketperm, address text,
// loopback.
#include "common/address.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>

#include <cerrno>

namespace plinth::common {
namespace {

sockaddr_storage V4(const char* ip, int port) {
  sockaddr_storage ss{};
  auto* in = reinterpret_cast<sockaddr_in*>(&ss);
  in->sin_family = AF_INET;
  in->sin_port = htons(static_cast<uint16_t>(port));
  REQUIRE(inet_pton(AF_INET, ip, &in->sin_addr) == 1);
  return ss;
}

sockaddr_storage V6(const char* ip, int port) {
  sockaddr_storage ss{};
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&ss);
  in6->sin6_family = AF_INET6;
  in6->sin6_port = htons(static_cast<uint16_t>(port));
  REQUIRE(inet_pton(AF_INET6, ip, &in6->sin6_addr) == 1);
  return ss;
}

const sockaddr* Sa(const sockaddr_storage& ss) { return reinterpret_cast<const sockaddr*>(&ss); }

using B = std::vector<BindAddress>;

TEST_CASE("transport address: parses bind lists the Redis way") {
  std::string error;
  CHECK(ParseBindList("127.0.0.1 ::1", &error) == B{{"127.0.0.1", false}, {"::1", false}});
  CHECK(ParseBindList("  10.0.0.1\t\t-::1  ", &error) == B{{"10.0.0.1", false}, {"::1", true}});
  CHECK(ParseBindList("* -::*", &error) == B{{"0.0.0.0", false}, {"::", true}});
  CHECK(ParseBindList("localhost", &error) == B{{"localhost", false}});
  CHECK_FALSE(ParseBindList("", &error));
  CHECK(error.find("at least one") != std::string::npos);
  CHECK_FALSE(ParseBindList("   ", &error));
  CHECK_FALSE(ParseBindList("127.0.0.1 -", &error));
}

TEST_CASE("transport address: unixsocketperm is octal text") {
  CHECK(ParseUnixSocketPerm("700") == 0700u);
  CHECK(ParseUnixSocketPerm("0770") == 0770u);
  CHECK(ParseUnixSocketPerm("777") == 0777u);
  CHECK(ParseUnixSocketPerm("0") == 0u);
  CHECK_FALSE(ParseUnixSocketPerm(""));
  CHECK_FALSE(ParseUnixSocketPerm("800"));
  CHECK_FALSE(ParseUnixSocketPerm("7a0"));
  CHECK_FALSE(ParseUnixSocketPerm("-700"));
  CHECK_FALSE(ParseUnixSocketPerm("17777"));
  CHECK_FALSE(ParseUnixSocketPerm("1777"));
}

TEST_CASE("transport address: formats addresses like Redis's CLIENT LIST") {
  CHECK(FormatHostPort("127.0.0.1", 6379) == "127.0.0.1:6379");
  CHECK(FormatHostPort("::1", 6379) == "[::1]:6379");
  CHECK(FormatSockaddr(Sa(V4("10.1.2.3", 52000))) == "10.1.2.3:52000");
  CHECK(FormatSockaddr(Sa(V6("::1", 7))) == "[::1]:7");
  CHECK(FormatSockaddr(Sa(V6("fd00::2", 65535))) == "[fd00::2]:65535");
  CHECK(FormatUnixAddress("/tmp/redis.sock") == "/tmp/redis.sock:0");
  sockaddr_storage other{};
  other.ss_family = AF_UNIX;
  CHECK(FormatSockaddr(Sa(other)) == "");
}

TEST_CASE("transport address: detects loopback peers") {
  CHECK(IsLoopback(Sa(V4("127.0.0.1", 1))));
  CHECK(IsLoopback(Sa(V4("127.255.3.4", 1))));
  CHECK_FALSE(IsLoopback(Sa(V4("128.0.0.1", 1))));
  CHECK_FALSE(IsLoopback(Sa(V4("10.0.0.1", 1))));
  CHECK(IsLoopback(Sa(V6("::1", 1))));
  CHECK(IsLoopback(Sa(V6("::ffff:127.0.0.1", 1))));
  CHECK_FALSE(IsLoopback(Sa(V6("::ffff:10.0.0.1", 1))));
  CHECK_FALSE(IsLoopback(Sa(V6("::2", 1))));
  CHECK_FALSE(IsLoopback(Sa(V6("fd00::1", 1))));
}

TEST_CASE("transport address: knows the errors that mean IPv6 is unavailable") {
  CHECK(IsIpv6UnavailableError(EAFNOSUPPORT));
  CHECK(IsIpv6UnavailableError(EADDRNOTAVAIL));
  CHECK_FALSE(IsIpv6UnavailableError(EADDRINUSE));
  CHECK_FALSE(IsIpv6UnavailableError(EACCES));
}

}  // namespace
}  // namespace plinth::common
