// TCP links, and RDMA links over the rdma plugin's client when rdma-core is there.
#include "link.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "net.h"
#ifdef PLINTH_LOADGEN_RDMA
#include "rdma/client.h"
#endif

namespace plinth::loadgen {
namespace {

char scratch[1 << 16];  // what discarded bytes are read into where the kernel cannot drop them

class TcpLink final : public Link {
 public:
  explicit TcpLink(int fd) : fd_(fd) {}
  ~TcpLink() override { close(fd_); }
  int fd() const override { return fd_; }
  bool polls_output() const override { return true; }
  ssize_t Write(const char* data, size_t len) override {
    for (;;) {
      const ssize_t n = write(fd_, data, len);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      return errno == EAGAIN ? 0 : -1;
    }
  }
  ssize_t Read(char* buf, size_t len) override {
    for (;;) {
      const ssize_t n = read(fd_, buf, len);
      if (n > 0) return n;
      if (n == 0) return -1;
      if (errno == EINTR) continue;
      return errno == EAGAIN ? 0 : -1;
    }
  }
  ssize_t Discard(size_t len) override {
    for (;;) {
      const ssize_t n = recv(fd_, scratch, len, MSG_TRUNC | MSG_DONTWAIT);
      if (n > 0) return n;
      if (n == 0) return -1;
      if (errno == EINTR) continue;
      return errno == EAGAIN ? 0 : -1;
    }
  }

 private:
  int fd_;
};

#ifdef PLINTH_LOADGEN_RDMA
class RdmaLink final : public Link {
 public:
  int fd() const override { return client.channel_fd(); }
  bool polls_output() const override { return false; }
  ssize_t Write(const char* data, size_t len) override { return client.TryWrite(data, len); }
  ssize_t Read(char* buf, size_t len) override { return client.TryRead(buf, len); }
  rdma::RdmaClient client;
};
#endif

}  // namespace

ssize_t Link::Discard(size_t len) { return Read(scratch, std::min(len, sizeof scratch)); }

std::unique_ptr<Link> ConnectTcp(const std::string& host, int port, std::string* err) {
  const int fd = Connect(host, port, err);
  if (fd < 0) return nullptr;
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return std::make_unique<TcpLink>(fd);
}

std::unique_ptr<Link> ConnectRdma(const std::string& host, int port, std::string* err) {
#ifdef PLINTH_LOADGEN_RDMA
  auto link = std::make_unique<RdmaLink>();
  if (!link->client.Connect(host, port, {}, err)) return nullptr;
  return link;
#else
  (void)host;
  (void)port;
  *err = "built without rdma-core: no RDMA mode";
  return nullptr;
#endif
}

}  // namespace plinth::loadgen
