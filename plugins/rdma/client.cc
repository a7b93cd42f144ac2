// The blocking RDMA client.
#include "rdma/client.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

namespace plinth::rdma {

RdmaClient::~RdmaClient() {
  conn_.reset();  // disconnects and destroys the id
  if (id_ != nullptr) rdma_destroy_id(id_);
  if (cm_ != nullptr) rdma_destroy_event_channel(cm_);
}

std::string RdmaClient::error() const {
  if (conn_ != nullptr && !conn_->error().empty()) return conn_->error();
  return disconnected_ ? "disconnected" : "";
}

bool RdmaClient::WaitCmEvent(rdma_cm_event_type want, int timeout_ms, std::string* error) {
  pollfd p{cm_->fd, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return *error = "timed out waiting for rdma_cm", false;
  rdma_cm_event* ev = nullptr;
  if (rdma_get_cm_event(cm_, &ev) != 0) return *error = "rdma_get_cm_event failed", false;
  const rdma_cm_event_type got = ev->event;
  rdma_ack_cm_event(ev);
  if (got == want) return true;
  *error = std::string("expected ") + rdma_event_str(want) + ", got " + rdma_event_str(got);
  return false;
}

bool RdmaClient::Connect(const std::string& host, int port, const ClientOptions& options,
                         std::string* error) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* ai = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &ai) != 0) {
    return *error = host + " is not a numeric address", false;
  }
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> hold(ai, freeaddrinfo);
  if ((cm_ = rdma_create_event_channel()) == nullptr) {
    return *error = std::string("rdma_create_event_channel: ") + std::strerror(errno), false;
  }
  if (rdma_create_id(cm_, &id_, nullptr, RDMA_PS_TCP) != 0) {
    return *error = std::string("rdma_create_id: ") + std::strerror(errno), false;
  }
  if (rdma_resolve_addr(id_, nullptr, ai->ai_addr, options.timeout_ms) != 0 ||
      !WaitCmEvent(RDMA_CM_EVENT_ADDR_RESOLVED, options.timeout_ms, error)) {
    if (error->empty()) *error = std::string("rdma_resolve_addr: ") + std::strerror(errno);
    return false;
  }
  if (rdma_resolve_route(id_, options.timeout_ms) != 0 ||
      !WaitCmEvent(RDMA_CM_EVENT_ROUTE_RESOLVED, options.timeout_ms, error)) {
    if (error->empty()) *error = std::string("rdma_resolve_route: ") + std::strerror(errno);
    return false;
  }
  ConnConfig config;
  config.rx_size = options.rx_size;
  config.fault = options.fault;
  config.repost_receives = options.repost_receives;
  conn_ = VerbsConn::Create(id_, config, &counters_, error);
  if (conn_ == nullptr) return false;
  id_ = nullptr;  // the connection owns it now
  if (!conn_->Connect(options.rnr_retry)) {
    return *error = std::string("rdma_connect: ") + std::strerror(errno), false;
  }
  if (!WaitCmEvent(RDMA_CM_EVENT_ESTABLISHED, options.timeout_ms, error)) return false;
  conn_->OnEstablished();
  const int flags = fcntl(cm_->fd, F_GETFL);
  fcntl(cm_->fd, F_SETFL, flags | O_NONBLOCK);
  return true;
}

bool RdmaClient::Wait(int timeout_ms) {
  pollfd p[2] = {{conn_->channel_fd(), POLLIN, 0}, {cm_->fd, POLLIN, 0}};
  if (poll(p, 2, timeout_ms) <= 0) return false;
  if (p[0].revents != 0 && !conn_->TakeChannelEvents()) disconnected_ = true;
  if (p[1].revents != 0) {
    rdma_cm_event* ev = nullptr;
    while (rdma_get_cm_event(cm_, &ev) == 0) {
      if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
        disconnected_ = true;
        conn_->OnDisconnected();
      }
      rdma_ack_cm_event(ev);
    }
  }
  return true;
}

bool RdmaClient::SendAll(std::string_view data, int timeout_ms) {
  if (conn_ == nullptr) return false;
  while (!data.empty()) {
    const plinth_iovec_t iov{const_cast<char*>(data.data()), data.size()};
    bool kick = false;
    const int64_t n = conn_->Writev(&iov, 1, &kick);
    if (n == PLINTH_IO_ERROR) return false;
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (disconnected_ || !Wait(timeout_ms)) return false;
  }
  return true;
}

int64_t RdmaClient::Recv(std::string* out, int timeout_ms) {
  if (conn_ == nullptr) return -1;
  char buf[64 << 10];
  int64_t total = 0;
  for (;;) {
    const int64_t n = conn_->Read(buf, sizeof buf);
    if (n > 0) {
      out->append(buf, static_cast<size_t>(n));
      total += n;
      continue;
    }
    if (n == 0 || n == PLINTH_IO_ERROR) return total > 0 ? total : -1;
    if (total > 0) return total;  // PLINTH_IO_AGAIN after some bytes
    if (disconnected_) return -1;
    if (!Wait(timeout_ms)) return 0;
  }
}

bool RdmaClient::SendRaw(std::string_view bytes) {
  return conn_ != nullptr && conn_->SendRaw(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

int64_t RdmaClient::TryWrite(const char* data, size_t len) {
  if (conn_ == nullptr) return -1;
  const plinth_iovec_t iov{const_cast<char*>(data), len};
  bool kick = false;
  const int64_t n = conn_->Writev(&iov, 1, &kick);
  if (n == PLINTH_IO_AGAIN) return 0;
  return n < 0 ? -1 : n;
}

int64_t RdmaClient::TryRead(char* buf, size_t len) {
  if (conn_ == nullptr) return -1;
  const int64_t n = conn_->Read(buf, len);
  if (n == PLINTH_IO_AGAIN) return 0;
  return n <= 0 ? -1 : n;
}

}  // namespace plinth::rdma
