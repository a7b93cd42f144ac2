// Child-process server control and a blocking RESP client for the integration tests.
#include "test_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace plinth::testing {
namespace {

int ConnectLoopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

pid_t Spawn(const std::vector<std::string>& args, const std::string& out_path, int nofile = 0) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  if (nofile > 0) {
    rlimit rl{static_cast<rlim_t>(nofile), static_cast<rlim_t>(nofile)};
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  int fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // Each server in a folder of its own: what it persists (dump.rdb on shutdown) never reaches
  // another test's server.
  const std::string dir = out_path + ".d";
  if (mkdir(dir.c_str(), 0755) != 0 || chdir(dir.c_str()) != 0) _exit(126);
  dup2(fd, 1);
  dup2(fd, 2);
  std::vector<char*> argv;
  std::string server = PLINTH_TEST_SERVER;
  argv.push_back(server.data());
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(server.c_str(), argv.data());
  _exit(127);
}

std::string TempPath(const char* tag) {
  char tmpl[] = "/tmp/plinth-test-XXXXXX";
  int fd = mkstemp(tmpl);
  close(fd);
  return std::string(tmpl) + "." + tag;
}

int WaitExit(pid_t pid, int timeout_ms) {
  for (int waited = 0;; waited += 10) {
    int st = 0;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    if (waited >= timeout_ms) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -SIGKILL;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Parses one RESP element starting at pos; returns its end, or npos if incomplete.
size_t ElementEnd(std::string_view d, size_t pos) {
  if (pos >= d.size()) return std::string_view::npos;
  size_t eol = d.find("\r\n", pos);
  if (eol == std::string_view::npos) return eol;
  char t = d[pos];
  std::string_view head = d.substr(pos + 1, eol - pos - 1);
  size_t next = eol + 2;
  switch (t) {
    case '$':
    case '=':
    case '!': {
      long long n = std::atoll(std::string(head).c_str());
      if (n < 0) return next;
      size_t end = next + static_cast<size_t>(n) + 2;
      return end <= d.size() ? end : std::string_view::npos;
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      long long n = std::atoll(std::string(head).c_str());
      if (n < 0) return next;
      if (t == '%' || t == '|') n *= 2;
      for (long long i = 0; i < n; ++i) {
        next = ElementEnd(d, next);
        if (next == std::string_view::npos) return next;
      }
      // An attribute precedes the real reply.
      return t == '|' ? ElementEnd(d, next) : next;
    }
    default:
      return next;
  }
}

}  // namespace

long long InfoField(RespConn& c, const std::string& section, const std::string& name) {
  std::string info = c.Cmd({"INFO", section});
  auto at = info.find("\n" + name + ":");
  if (at == std::string::npos) return -1;
  return std::atoll(info.c_str() + at + name.size() + 2);
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

TestServer::TestServer(std::vector<std::string> extra, int nofile) {
  port_ = FreePort();
  log_path_ = TempPath("log");
  std::vector<std::string> args = {"--port", std::to_string(port_), "--bind", "127.0.0.1"};
  if (const char* io = std::getenv("PLINTH_TEST_IO_THREADS"))  // before extra: a test may override
    args.insert(args.end(), {"--io-threads", io, "--io-threads-adaptive", "no"});
  const char* limit = std::getenv("PLINTH_TEST_MAXMEMORY");
  if (limit) args.insert(args.end(), {"--maxmemory", limit, "--maxmemory-policy", "allkeys-lru"});
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = Spawn(args, log_path_, nofile);
  for (int i = 0; i < 1000; ++i) {
    int st;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("plinth-server exited at start:\n" + Log());
    }
    int fd = ConnectLoopback(port_);
    if (fd >= 0) {
      close(fd);
      if (limit) FillToLimit(std::strtoll(limit, nullptr, 10));
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  Stop();
  throw std::runtime_error("plinth-server did not accept connections:\n" + Log());
}

// Under PLINTH_TEST_MAXMEMORY: 4 KiB keys in the last database until memory reaches the limit
// (pipelined, in commands under any client-query-buffer-limit), then a second's wait so that
// they are idle longest. From then on what the test allocates evicts some of them (allkeys-lru)
// instead of its own keys, so eviction runs throughout.
void TestServer::FillToLimit(int64_t limit) {
  {
    RespConn c(port_);
    const long long before = InfoField(c, "memory", "used_memory");
    if (c.Cmd({"SELECT", "15"}) != "+OK\r\n") return;  // fewer databases: no ballast
    constexpr int64_t kValue = 4 * 1024, kBatch = 512;
    const std::string value(kValue, 'b');
    for (int64_t i = 0; i <= limit / kValue; i += kBatch) {
      std::string batch;
      for (int64_t j = i; j < i + kBatch; ++j)
        batch += "*3\r\n$3\r\nSET\r\n$" + std::to_string(20 + std::to_string(j).size()) +
                 "\r\nplinth-test-ballast:" + std::to_string(j) + "\r\n$" + std::to_string(kValue) +
                 "\r\n" + value + "\r\n";
      c.Send(batch);
      for (int64_t j = 0; j < kBatch; ++j) c.Read();
    }
    ballast_ = true;
    evicted_by_fill_ = InfoField(c, "stats", "evicted_keys");
    const auto [used, keys] = FieldAndBallast("used_memory");
    ballast_key_bytes_ = keys > 0 ? (used - before) / keys : 0;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
}

std::pair<long long, long long> TestServer::FieldAndBallast(const std::string& name) {
  RespConn c(port_);
  if (!ballast_) return {InfoField(c, "memory", name), 0};
  c.Cmd({"SELECT", "15"});
  // Read again when an eviction fell between the two reads.
  for (;;) {
    const std::string keys = c.Cmd({"DBSIZE"});
    const long long field = InfoField(c, "memory", name);
    if (c.Cmd({"DBSIZE"}) == keys) return {field, std::atoll(keys.c_str() + 1)};
  }
}

long long TestServer::UsedMemory() {
  const auto [used, keys] = FieldAndBallast("used_memory");
  return used - keys * ballast_key_bytes_;
}

long long TestServer::ValuesAlive() {
  const auto [alive, keys] = FieldAndBallast("values_alive");
  return alive - keys;
}

long long TestServer::ValuesAliveBecomes(long long want) {
  long long v = ValuesAlive();
  for (int i = 0; i < 300 && v != want; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    v = ValuesAlive();
  }
  return v;
}

TestServer::~TestServer() {
  Stop();
  unlink(log_path_.c_str());
}

int TestServer::Stop() {
  if (pid_ < 0) return status_;
  if (ballast_) {  // shows that eviction ran during the test
    try {
      RespConn c(port_);
      std::fprintf(stderr, "plinth-test: %lld keys evicted during the test\n",
                   InfoField(c, "stats", "evicted_keys") - evicted_by_fill_);
    } catch (const std::exception&) {
    }
  }
  kill(pid_, SIGTERM);
  status_ = WaitExit(pid_, 10000);
  pid_ = -1;
  return status_;
}

int TestServer::WaitForExit(int timeout_ms) {
  if (pid_ < 0) return status_;
  status_ = WaitExit(pid_, timeout_ms);
  pid_ = -1;
  return status_;
}

std::string TestServer::Log() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int RunServerToExit(const std::vector<std::string>& args, std::string* output, int timeout_s) {
  std::string path = TempPath("out");
  pid_t pid = Spawn(args, path);
  int st = WaitExit(pid, timeout_s * 1000);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  *output = ss.str();
  unlink(path.c_str());
  return st;
}

RespConn::RespConn(int port) {
  fd_ = ConnectLoopback(port);
  if (fd_ < 0) throw std::runtime_error("cannot connect to port " + std::to_string(port));
}

RespConn::~RespConn() {
  if (fd_ >= 0) close(fd_);
}

void RespConn::Send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return;  // the server closed: reads will tell
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

bool RespConn::Fill(int timeout_ms) {
  if (eof_) return false;
  pollfd p{fd_, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return false;
  char tmp[65536];
  ssize_t n = recv(fd_, tmp, sizeof tmp, 0);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  buf_.append(tmp, static_cast<size_t>(n));
  return true;
}

std::string RespConn::Read(int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    size_t n = CompleteReplyLength(buf_);
    if (n) {
      std::string r = buf_.substr(0, n);
      buf_.erase(0, n);
      return r;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0 || !Fill(static_cast<int>(left))) return "";
  }
}

std::string RespConn::Cmd(const std::vector<std::string>& args) {
  Send(Multibulk(args));
  return Read();
}

std::string RespConn::Cmd(std::initializer_list<std::string_view> args) {
  return Cmd(std::vector<std::string>(args.begin(), args.end()));
}

void RespConn::ResetOnClose() {
  struct linger lg {
    1, 0
  };
  setsockopt(fd_, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
}

bool RespConn::WaitClosed(int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!eof_) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) return false;
    Fill(static_cast<int>(left));
  }
  return true;
}

std::string Multibulk(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  return out;
}

size_t CompleteReplyLength(std::string_view data) {
  size_t end = ElementEnd(data, 0);
  return end == std::string_view::npos ? 0 : end;
}

}  // namespace plinth::testing
