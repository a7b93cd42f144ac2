// One connection of the load generator, over TCP or RDMA: a descriptor epoll watches for
// input, and non-blocking writes and reads. Blocking only while connecting.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

namespace plinth::loadgen {

class Link {
 public:
  virtual ~Link() = default;
  // Polled for EPOLLIN (and EPOLLOUT when polls_output()).
  virtual int fd() const = 0;
  // Whether EPOLLOUT says the link can take bytes again. false (RDMA): retry writes soon and
  // read after every write.
  virtual bool polls_output() const = 0;
  // Bytes taken, 0 when it would block, -1 when the connection broke.
  virtual ssize_t Write(const char* data, size_t len) = 0;
  // Bytes read, 0 when none are there now, -1 when the connection closed or broke.
  virtual ssize_t Read(char* buf, size_t len) = 0;
  // Consumes up to len bytes without keeping them (TCP: dropped in the kernel, not copied);
  // returns as Read does.
  virtual ssize_t Discard(size_t len);
};

// A TCP connection with TCP_NODELAY, non-blocking. nullptr with *err.
std::unique_ptr<Link> ConnectTcp(const std::string& host, int port, std::string* err);
// An RDMA connection (Valkey over RDMA wire protocol) to host:port. nullptr with *err, also
// when the generator was built without rdma-core.
std::unique_ptr<Link> ConnectRdma(const std::string& host, int port, std::string* err);

}  // namespace plinth::loadgen
