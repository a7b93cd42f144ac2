// Listening sockets and connections on loopback: bind rules, unix sockets, accept, read/write,
// and descriptor exhaustion, without the host.
#include "tcp/listener.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "tcp/conn.h"

namespace plinth::tcp {
namespace {

// A port that was free a moment ago on 127.0.0.1.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
  socklen_t len = sizeof sa;
  getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  close(fd);
  return ntohs(sa.sin_port);
}

int ConnectTcp(const char* ip, int port) {
  const bool v6 = std::string(ip).find(':') != std::string::npos;
  const int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
  sockaddr_storage ss{};
  if (v6) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&ss);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET6, ip, &in6->sin6_addr);
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&ss);
    in->sin_family = AF_INET;
    in->sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, ip, &in->sin_addr);
  }
  REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&ss), sizeof ss) == 0);
  return fd;
}

std::string LocalPort(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  const int port = ss.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port)
                                           : ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  return std::to_string(port);
}

// Accepts, retrying briefly while the connection is still in flight.
AcceptStatus AcceptSoon(int lfd, const std::string& unix_path, Accepted* a, int* err) {
  for (int i = 0; i < 200; i++) {
    const AcceptStatus s = AcceptOne(lfd, unix_path, 300, a, err);
    if (s != AcceptStatus::kAgain || *err != 0) return s;
    usleep(1000);
  }
  return AcceptStatus::kAgain;
}

std::vector<std::string> g_logs;
void Record(LogLevel, const std::string& text) { g_logs.push_back(text); }

ListenConfig Tcp(std::vector<common::BindAddress> bind, int port) {
  ListenConfig c;
  c.bind = std::move(bind);
  c.port = port;
  return c;
}

TEST_CASE("tcp listener: accepts on 127.0.0.1 and moves bytes both ways") {
  const int port = FreePort();
  std::vector<Listener> ls;
  std::string error;
  REQUIRE(OpenListeners(Tcp({{"127.0.0.1", false}}, port), &Record, &ls, &error));
  REQUIRE(ls.size() == 1);
  CHECK(ls[0].description == "127.0.0.1:" + std::to_string(port));

  Accepted a;
  int err = 0;
  CHECK(AcceptOne(ls[0].fd, "", 300, &a, &err) == AcceptStatus::kAgain);
  CHECK(err == 0);
  const int client = ConnectTcp("127.0.0.1", port);
  REQUIRE(AcceptSoon(ls[0].fd, "", &a, &err) == AcceptStatus::kOk);
  CHECK(a.peer == "127.0.0.1:" + LocalPort(client));
  CHECK(a.local == "127.0.0.1:" + std::to_string(port));
  CHECK(a.loopback);
  CHECK_FALSE(a.is_unix);

  char buf[16];
  CHECK(ReadSome(a.fd, buf, sizeof buf) == kIoAgain);
  const iovec iov[2] = {{const_cast<char*>("+PO"), 3}, {const_cast<char*>("NG\r\n"), 4}};
  CHECK(WriteSome(a.fd, iov, 2) == 7);
  CHECK(read(client, buf, sizeof buf) == 7);
  CHECK(std::string(buf, 7) == "+PONG\r\n");
  CHECK(write(client, "PING\r\n", 6) == 6);
  int64_t n = kIoAgain;
  for (int i = 0; i < 200 && n == kIoAgain; i++, usleep(1000)) n = ReadSome(a.fd, buf, sizeof buf);
  CHECK(n == 6);
  close(client);
  n = kIoAgain;
  for (int i = 0; i < 200 && n == kIoAgain; i++, usleep(1000)) n = ReadSome(a.fd, buf, sizeof buf);
  CHECK(n == 0);
  // Writing to a closed peer is an error, never a SIGPIPE.
  int64_t w = 0;
  for (int i = 0; i < 100 && w >= 0; i++, usleep(1000)) w = WriteSome(a.fd, iov, 2);
  CHECK(w == kIoError);
  close(a.fd);
  CloseListeners(&ls);
  CHECK(ls.empty());
}

TEST_CASE("tcp listener: ::1 is listened on as [::1]:port when IPv6 is there") {
  const int port = FreePort();
  std::vector<Listener> ls;
  std::string error;
  g_logs.clear();
  REQUIRE(OpenListeners(Tcp({{"127.0.0.1", false}, {"::1", false}}, port), &Record, &ls, &error));
  if (ls.size() == 1) {
    // No IPv6 here: skipped with a warning, not an error.
    REQUIRE_FALSE(g_logs.empty());
    CHECK(g_logs.back().find("::1") != std::string::npos);
  } else {
    REQUIRE(ls.size() == 2);
    CHECK(ls[1].description == "[::1]:" + std::to_string(port));
    const int client = ConnectTcp("::1", port);
    Accepted a;
    int err = 0;
    REQUIRE(AcceptSoon(ls[1].fd, "", &a, &err) == AcceptStatus::kOk);
    CHECK(a.peer == "[::1]:" + LocalPort(client));
    CHECK(a.loopback);
    close(client);
    close(a.fd);
  }
  CloseListeners(&ls);
}

TEST_CASE("tcp listener: an address that cannot be bound is an error unless marked with '-'") {
  const int port = FreePort();
  std::vector<Listener> ls;
  std::string error;
  CHECK_FALSE(
      OpenListeners(Tcp({{"127.0.0.1", false}, {"192.0.2.1", false}}, port), &Record, &ls, &error));
  CHECK(ls.empty());
  CHECK(error.find("192.0.2.1:" + std::to_string(port)) != std::string::npos);
  g_logs.clear();
  REQUIRE(
      OpenListeners(Tcp({{"127.0.0.1", false}, {"192.0.2.1", true}}, port), &Record, &ls, &error));
  CHECK(ls.size() == 1);
  CHECK_FALSE(g_logs.empty());
  // The port is now taken: a second server must fail and leave nothing open.
  std::vector<Listener> second;
  CHECK_FALSE(OpenListeners(Tcp({{"127.0.0.1", false}}, port), &Record, &second, &error));
  CHECK(second.empty());
  CHECK(error.find("in use") != std::string::npos);
  CloseListeners(&ls);
}

TEST_CASE("tcp listener: port 0 opens no TCP listener") {
  std::vector<Listener> ls;
  std::string error;
  REQUIRE(OpenListeners(Tcp({{"127.0.0.1", false}}, 0), &Record, &ls, &error));
  CHECK(ls.empty());
}

TEST_CASE("tcp listener: a unix socket gets its permissions and path:0 addresses") {
  const std::string path = "/tmp/plinth-tcp-test-" + std::to_string(getpid()) + ".sock";
  ListenConfig c = Tcp({{"127.0.0.1", false}}, 0);
  c.unix_path = path;
  c.unix_perm = 0700;
  std::vector<Listener> ls;
  std::string error;
  REQUIRE(OpenListeners(c, &Record, &ls, &error));
  REQUIRE(ls.size() == 1);
  CHECK(ls[0].is_unix);
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);

  const int client = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path.c_str());
  REQUIRE(connect(client, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
  Accepted a;
  int err = 0;
  REQUIRE(AcceptSoon(ls[0].fd, path, &a, &err) == AcceptStatus::kOk);
  CHECK(a.is_unix);
  CHECK(a.loopback);
  CHECK(a.peer == path + ":0");
  CHECK(a.local == path + ":0");
  close(client);
  close(a.fd);
  CloseListeners(&ls);
  CHECK(access(path.c_str(), F_OK) != 0);

  c.unix_path = "/tmp/" + std::string(200, 'x');
  CHECK_FALSE(OpenListeners(c, &Record, &ls, &error));
  CHECK(error.find("longer than") != std::string::npos);
}

TEST_CASE("tcp conn: running out of descriptors leaves the accept loop alive") {
  const int port = FreePort();
  std::vector<Listener> ls;
  std::string error;
  REQUIRE(OpenListeners(Tcp({{"127.0.0.1", false}}, port), &Record, &ls, &error));
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int client = ConnectTcp("127.0.0.1", port);
    usleep(20000);
    // Use up every descriptor, then accept: must say "again" with EMFILE, not fail.
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = static_cast<rlim_t>(client + 8);
    setrlimit(RLIMIT_NOFILE, &rl);
    std::vector<int> held;
    for (int fd; (fd = dup(client)) >= 0;) held.push_back(fd);
    Accepted a;
    int err = 0;
    const AcceptStatus s = AcceptOne(ls[0].fd, "", 0, &a, &err);
    const bool exhausted_ok = s == AcceptStatus::kAgain && err == EMFILE;
    for (int fd : held) close(fd);
    const AcceptStatus again = AcceptOne(ls[0].fd, "", 0, &a, &err);
    _exit(exhausted_ok && again == AcceptStatus::kOk ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CloseListeners(&ls);
}

}  // namespace
}  // namespace plinth::tcp
