// The replication link's test helpers: fake loop, event recorder, redis-server child process,
// scripted fake primary.
#include "link_test_support.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <plinth/plugin.hpp>
#include <sstream>

#include "replication/link/stream_parser.h"

namespace plinth::replication::test {

namespace {

int ConnectLoopback(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// A listening socket on 127.0.0.1 at a kernel-chosen port.
int ListenLoopback(int* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 4) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    close(fd);
    return -1;
  }
  *port = ntohs(addr.sin_port);
  return fd;
}

// Reads one byte-exact chunk with a 5 s limit; false on EOF, error or timeout.
bool ReadChunk(int fd, std::string* in) {
  pollfd p{fd, POLLIN, 0};
  if (poll(&p, 1, 5000) <= 0) return false;
  char buf[4096];
  const ssize_t n = read(fd, buf, sizeof(buf));
  if (n <= 0) return false;
  in->append(buf, static_cast<size_t>(n));
  return true;
}

void WriteAll(int fd, const std::string& bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

}  // namespace

FakeLoop::FakeLoop() {
  static const plinth_host_api_t api = [] {
    plinth_host_api_t a{};
    a.struct_size = sizeof(a);
    a.loop_post = &FakeLoop::Post;
    return a;
  }();
  sdk::Host::api = &api;
}

int32_t FakeLoop::Post(plinth_plugin_t* self, plinth_task_fn fn, void* arg) {
  auto* loop = reinterpret_cast<FakeLoop*>(self);
  std::lock_guard<std::mutex> lock(loop->mu_);
  if (loop->refuse_) return PLINTH_ERR;
  loop->tasks_.emplace_back(fn, arg);
  return PLINTH_OK;
}

void FakeLoop::set_refuse(bool refuse) {
  std::lock_guard<std::mutex> lock(mu_);
  refuse_ = refuse;
}

size_t FakeLoop::Queued() {
  std::lock_guard<std::mutex> lock(mu_);
  return tasks_.size();
}

size_t FakeLoop::RunPending() {
  std::vector<std::pair<plinth_task_fn, void*>> tasks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks.swap(tasks_);
  }
  for (auto& [fn, arg] : tasks) fn(arg);
  return tasks.size();
}

bool FakeLoop::RunUntil(const std::function<bool()>& done, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    RunPending();
    if (done()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

LinkEvents Recorder::Events() {
  LinkEvents e;
  e.syncing = [this] { log.push_back("syncing"); };
  e.full_sync = [this](const std::string& id, uint64_t off) {
    log.push_back("full_sync");
    replid = id;
    offset = off;
  };
  e.partial_sync = [this](const std::string& id) {
    log.push_back("partial_sync");
    replid = id;
  };
  e.commands = [this](std::vector<StreamCommand> batch) {
    if (log.empty() || log.back() != "commands") log.push_back("commands");
    ++batches;
    for (auto& c : batch) commands.push_back(std::move(c));
  };
  e.progress = [this](uint64_t read, int64_t total) { progress.emplace_back(read, total); };
  e.down = [this](const std::string& reason) {
    log.push_back("down");
    downs.push_back(reason);
  };
  return e;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string MakeTempDir() {
  char tmpl[] = "/tmp/plinth_link_test_XXXXXX";
  const char* dir = mkdtemp(tmpl);
  return dir ? dir : "";
}

uint64_t EncodedSize(const std::vector<std::string>& argv) {
  uint64_t n = 1 + std::to_string(argv.size()).size() + 2;
  for (const auto& a : argv) n += 1 + std::to_string(a.size()).size() + 2 + a.size() + 2;
  return n;
}

int FreePort() {
  int port = 0;
  const int fd = ListenLoopback(&port);
  if (fd >= 0) close(fd);
  return port;
}

bool RedisServer::Available() { return access(kBinary, X_OK) == 0; }

RedisServer::RedisServer(const std::vector<std::string>& extra_args) {
  dir_ = MakeTempDir();
  const int probe = ListenLoopback(&port_);
  if (probe < 0) return;
  close(probe);  // a small race with other tests for the port: acceptable on loopback
  std::vector<std::string> args = {
      kBinary,  "--port",    std::to_string(port_), "--bind", "127.0.0.1",
      "--save", "",          "--appendonly",        "no",     "--dir",
      dir_,     "--logfile", dir_ + "/redis.log"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    execv(kBinary, argv.data());
    _exit(127);
  }
  for (int i = 0; i < 500; ++i) {
    const int fd = ConnectLoopback(port_);
    if (fd >= 0) {
      close(fd);
      const std::string pong = Call({"PING"});
      if (pong == "+PONG" || pong.compare(0, 7, "-NOAUTH") == 0) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

RedisServer::~RedisServer() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
}

std::string RedisServer::Call(const std::vector<std::string>& argv) {
  const int fd = ConnectLoopback(port_);
  if (fd < 0) return "";
  std::string out = "*" + std::to_string(argv.size()) + "\r\n";
  for (const auto& a : argv) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  WriteAll(fd, out);
  std::string in;
  size_t nl;
  while ((nl = in.find("\r\n")) == std::string::npos && ReadChunk(fd, &in)) {
  }
  std::string reply;
  if (nl != std::string::npos && in[0] == '$') {
    const size_t len = std::strtoul(in.c_str() + 1, nullptr, 10);
    while (in.size() < nl + 2 + len && ReadChunk(fd, &in)) {
    }
    reply = in.substr(nl + 2, len);
  } else if (nl != std::string::npos) {
    reply = in.substr(0, nl);
  }
  close(fd);
  return reply;
}

std::string RedisServer::Info(const std::string& field) {
  const std::string info = Call({"INFO", "replication"});
  const size_t at = info.find(field + ":");
  if (at == std::string::npos) return "";
  const size_t start = at + field.size() + 1;
  return info.substr(start, info.find("\r\n", start) - start);
}

FakePrimary::FakePrimary(Script on_psync, bool answer, bool want_auth) {
  listen_fd_ = ListenLoopback(&port_);
  thread_ =
      std::thread([this, on_psync, answer, want_auth] { Serve(on_psync, answer, want_auth); });
}

FakePrimary::~FakePrimary() {
  thread_.join();
  Close();
  if (listen_fd_ >= 0) close(listen_fd_);
}

void FakePrimary::Serve(Script on_psync, bool answer, bool want_auth) {
  pollfd p{listen_fd_, POLLIN, 0};
  if (poll(&p, 1, 5000) <= 0) return;
  fd_ = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd_ < 0) return;
  bool authed = !want_auth;
  for (;;) {
    const std::vector<std::string> argv = ReadCommand();
    if (argv.empty()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      received_.push_back(argv);
    }
    if (!answer) continue;  // silent: read on until the replica gives up
    if (argv[0] == "PSYNC") {
      on_psync(*this, argv);
      while (!ReadCommand().empty()) {  // drain (acks) until the replica closes
      }
      return;
    }
    if (argv[0] == "AUTH") authed = true;
    Send(argv[0] == "PING" ? (authed ? "+PONG\r\n" : "-NOAUTH Authentication required.\r\n")
                           : "+OK\r\n");
  }
}

void FakePrimary::Send(const std::string& bytes) {
  if (fd_ >= 0) WriteAll(fd_, bytes);
}

std::vector<std::string> FakePrimary::ReadCommand() {
  if (fd_ < 0) return {};
  for (;;) {
    // Parse whatever is buffered; the cutter keeps nothing between calls here.
    StreamParser parser(0);
    std::vector<StreamCommand> out;
    std::string error;
    if (!parser.Feed(in_, &out, &error)) return {};
    if (!out.empty()) {
      in_.erase(0, out[0].end_offset);
      return out[0].argv;
    }
    if (!ReadChunk(fd_, &in_)) return {};
  }
}

void FakePrimary::Close() {
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
}

std::vector<std::vector<std::string>> FakePrimary::Received() {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

}  // namespace plinth::replication::test
