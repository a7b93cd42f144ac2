// rdma_cm listeners and the device probe.
#include "rdma/listener.h"

#include <fcntl.h>
#include <infiniband/verbs.h>
#include <netdb.h>

#include <cerrno>
#include <cstring>

#include "common/address.h"

namespace plinth::rdma {

std::string MissingDeviceReason() {
  errno = 0;
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (list == nullptr) {
    return std::string("ibv_get_device_list failed (") +
           (errno != 0 ? std::strerror(errno) : "no error code") + ")";
  }
  ibv_free_device_list(list);
  return n > 0 ? "" : "ibv_get_device_list found none";
}

std::unique_ptr<CmListener> CmListener::Open(const std::string& host, int port, int backlog,
                                             std::string* error) {
  std::unique_ptr<CmListener> l(new CmListener());
  l->host_ = host;
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* ai = nullptr;
  const std::string service = std::to_string(port);
  if (getaddrinfo(host.c_str(), service.c_str(), &hints, &ai) != 0 || ai == nullptr) {
    *error = "rdma-bind: " + host + " is not a numeric IPv4 or IPv6 address";
    return nullptr;
  }
  l->description_ = common::FormatSockaddr(ai->ai_addr);
  auto fail = [&](const char* what) {
    *error = std::string(what) + " " + l->description_ + ": " + std::strerror(errno);
    freeaddrinfo(ai);
    return nullptr;
  };
  if ((l->channel_ = rdma_create_event_channel()) == nullptr) {
    return fail("no RDMA device: rdma_create_event_channel for");
  }
  const int flags = fcntl(l->channel_->fd, F_GETFL);
  if (flags < 0 || fcntl(l->channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    return fail("O_NONBLOCK on the event channel of");
  }
  if (rdma_create_id(l->channel_, &l->id_, nullptr, RDMA_PS_TCP) != 0) {
    return fail("rdma_create_id for");
  }
  int afonly = 1;
  if (rdma_set_option(l->id_, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, &afonly, sizeof afonly) != 0) {
    return fail("RDMA_OPTION_ID_AFONLY on");
  }
  if (rdma_bind_addr(l->id_, ai->ai_addr) != 0) return fail("rdma_bind_addr");
  if (rdma_listen(l->id_, backlog) != 0) return fail("rdma_listen on");
  freeaddrinfo(ai);
  return l;
}

void CmListener::StopListening() {
  if (id_ != nullptr) rdma_destroy_id(id_);
  id_ = nullptr;
}

CmListener::~CmListener() {
  StopListening();
  if (channel_ != nullptr) rdma_destroy_event_channel(channel_);
}

}  // namespace plinth::rdma
