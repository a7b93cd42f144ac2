// rdma_cm ids: create/destroy, binding and listening, address and route resolution, and their
// queue pairs. An address is held by an abstract unix socket named after it (ListenName), so
// the RDMA port space is separate from TCP's and spans every process on the machine.
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <random>

#include "cm.h"

namespace plinth::rdma_fabric {
namespace {

uint16_t EphemeralPort() {
  static std::minstd_rand rng(static_cast<unsigned>(getpid()) * 2654435761u);
  return static_cast<uint16_t>(32768 + rng() % 28000);
}

// Binds a new socket to the name of "addr"; port 0 picks a free port and writes it back.
int BindName(sockaddr* addr) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  bool any_port = AddrPort(addr) == 0;
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (any_port) SetAddrPort(addr, EphemeralPort());
    std::string name = ListenName(addr);
    sockaddr_un un{};
    un.sun_family = AF_UNIX;
    std::memcpy(un.sun_path + 1, name.data(), name.size());
    auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (bind(fd, reinterpret_cast<sockaddr*>(&un), len) == 0) return fd;
    if (errno != EADDRINUSE || !any_port) break;
  }
  int saved = errno;
  close(fd);
  errno = saved;
  return -1;
}

void OnListenerReadable(void* arg) {
  auto* listener = static_cast<CmId*>(arg);
  for (;;) {
    int fd = accept4(listener->listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    auto* child = new CmId();
    child->state = CmState::kChildWaitReq;
    child->listener = listener;
    child->id.channel = listener->id.channel;
    child->id.context = listener->id.context;
    child->id.ps = listener->id.ps;
    child->id.qp_type = IBV_QPT_RC;
    child->link = fabric_link_create(fd, &kCmLinkOps, child);
    if (child->link == nullptr) {
      delete child;
      continue;
    }
    listener->children.push_back(child);
  }
}

int Fail(int err) {
  errno = err;
  return -1;
}

}  // namespace

std::string ListenName(const sockaddr* addr) {
  char ip[INET6_ADDRSTRLEN] = "?";
  if (addr->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, ip, sizeof ip);
  } else if (addr->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, ip, sizeof ip);
  }
  return "rdma-fabric/tcp/" + std::string(ip) + "/" + std::to_string(AddrPort(addr));
}

socklen_t AddrLen(const sockaddr* addr) {
  if (addr->sa_family == AF_INET) return sizeof(sockaddr_in);
  if (addr->sa_family == AF_INET6) return sizeof(sockaddr_in6);
  return 0;
}

uint16_t AddrPort(const sockaddr* addr) {
  if (addr->sa_family == AF_INET)
    return ntohs(reinterpret_cast<const sockaddr_in*>(addr)->sin_port);
  if (addr->sa_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6*>(addr)->sin6_port);
  return 0;
}

void SetAddrPort(sockaddr* addr, uint16_t port) {
  if (addr->sa_family == AF_INET) reinterpret_cast<sockaddr_in*>(addr)->sin_port = htons(port);
  if (addr->sa_family == AF_INET6) reinterpret_cast<sockaddr_in6*>(addr)->sin6_port = htons(port);
}

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

int rdma_create_id(struct rdma_event_channel* channel, struct rdma_cm_id** out, void* context,
                   enum rdma_port_space ps) {
  auto* id = new CmId();
  if (channel == nullptr) {
    // No synchronous mode: the id gets a private channel nobody reads.
    channel = rdma_create_event_channel();
    if (channel == nullptr) {
      delete id;
      return -1;
    }
    id->own_channel = true;
  }
  id->id.channel = channel;
  id->id.context = context;
  id->id.ps = ps;
  id->id.qp_type = IBV_QPT_RC;
  *out = &id->id;
  return 0;
}

int rdma_destroy_id(struct rdma_cm_id* ibv) {
  auto* id = From<CmId>(ibv);
  ibv_pd* own_pd = nullptr;
  rdma_event_channel* own_channel = nullptr;
  {
    LockGuard lock;
    if (id->link != nullptr) fabric_link_close(id->link);  // the peer sees DISCONNECTED
    id->link = nullptr;
    if (id->listen_token != 0) fabric_unwatch_fd(id->listen_token);
    if (id->listen_fd >= 0) close(id->listen_fd);
    // Children the application never received: their clients see the connection refused.
    for (CmId* child : id->children) {
      if (child->link != nullptr) fabric_link_close(child->link);
      DropEvents(child);
      delete child;
    }
    if (id->listener != nullptr) {
      auto& kids = id->listener->children;
      kids.erase(std::remove(kids.begin(), kids.end(), id), kids.end());
    }
    DropEvents(id);
    own_pd = id->own_pd;
    if (id->own_channel) own_channel = id->id.channel;
  }
  if (own_pd != nullptr) ibv_dealloc_pd(own_pd);
  if (own_channel != nullptr) rdma_destroy_event_channel(own_channel);
  delete id;
  return 0;
}

int rdma_bind_addr(struct rdma_cm_id* ibv, struct sockaddr* addr) {
  auto* id = From<CmId>(ibv);
  if (addr == nullptr || AddrLen(addr) == 0) return Fail(EAFNOSUPPORT);
  ibv_context* verbs = fabric_default_context();
  sockaddr_storage chosen{};
  std::memcpy(&chosen, addr, AddrLen(addr));
  int fd = BindName(reinterpret_cast<sockaddr*>(&chosen));
  if (fd < 0) return -1;
  LockGuard lock;
  if (id->state != CmState::kIdle) {
    close(fd);
    return Fail(EINVAL);
  }
  id->listen_fd = fd;
  std::memcpy(&id->id.route.addr.src_storage, &chosen, sizeof chosen);
  id->id.verbs = verbs;
  id->id.port_num = 1;
  id->state = CmState::kBound;
  return 0;
}

int rdma_listen(struct rdma_cm_id* ibv, int backlog) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  if (id->state != CmState::kBound) return Fail(EINVAL);
  if (listen(id->listen_fd, std::max(backlog, 1024)) != 0) return -1;
  id->listen_token = fabric_watch_fd(id->listen_fd, OnListenerReadable, id);
  if (id->listen_token == 0) return -1;
  id->state = CmState::kListening;
  return 0;
}

int rdma_resolve_addr(struct rdma_cm_id* ibv, struct sockaddr* src, struct sockaddr* dst, int) {
  auto* id = From<CmId>(ibv);
  if (dst == nullptr || AddrLen(dst) == 0) return Fail(EINVAL);
  ibv_context* verbs = fabric_default_context();
  LockGuard lock;
  if (id->state != CmState::kIdle && id->state != CmState::kBound) return Fail(EINVAL);
  rdma_addr& a = id->id.route.addr;
  std::memset(&a.dst_storage, 0, sizeof a.dst_storage);
  std::memcpy(&a.dst_storage, dst, AddrLen(dst));
  if (src != nullptr && AddrLen(src) != 0) {
    std::memset(&a.src_storage, 0, sizeof a.src_storage);
    std::memcpy(&a.src_storage, src, AddrLen(src));
  } else if (id->state != CmState::kBound) {
    // Everything is local: the source is the loopback address of the destination's family.
    std::memset(&a.src_storage, 0, sizeof a.src_storage);
    if (dst->sa_family == AF_INET) {
      a.src_sin.sin_family = AF_INET;
      a.src_sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    } else {
      a.src_sin6.sin6_family = AF_INET6;
      a.src_sin6.sin6_addr = in6addr_loopback;
    }
  }
  if (AddrPort(&a.src_addr) == 0) SetAddrPort(&a.src_addr, EphemeralPort());
  if (id->listen_fd >= 0) {
    close(id->listen_fd);  // an active id does not hold a listening name
    id->listen_fd = -1;
  }
  id->id.verbs = verbs;
  id->id.port_num = 1;
  id->state = CmState::kAddrResolved;
  QueueEvent(id, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
  return 0;
}

int rdma_resolve_route(struct rdma_cm_id* ibv, int) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  if (id->state != CmState::kAddrResolved) return Fail(EINVAL);
  id->state = CmState::kRouteResolved;
  QueueEvent(id, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
  return 0;
}

int rdma_create_qp(struct rdma_cm_id* ibv, struct ibv_pd* pd, struct ibv_qp_init_attr* attr) {
  auto* id = From<CmId>(ibv);
  if (id->id.verbs == nullptr || attr == nullptr || id->id.qp != nullptr) return Fail(EINVAL);
  if (pd == nullptr) {
    if (id->own_pd == nullptr) id->own_pd = ibv_alloc_pd(id->id.verbs);
    pd = id->own_pd;
  }
  ibv_qp* qp = ibv_create_qp(pd, attr);
  if (qp == nullptr) return -1;
  // Like rdma_cm: the queue pair starts in INIT; the connection moves it to RTS.
  ibv_qp_attr init{};
  init.qp_state = IBV_QPS_INIT;
  ibv_modify_qp(qp, &init, IBV_QP_STATE);
  LockGuard lock;
  id->id.qp = qp;
  id->id.pd = pd;
  return 0;
}

void rdma_destroy_qp(struct rdma_cm_id* ibv) {
  ibv_qp* qp;
  {
    LockGuard lock;
    qp = ibv->qp;
    ibv->qp = nullptr;
  }
  if (qp != nullptr) ibv_destroy_qp(qp);
}

int rdma_set_option(struct rdma_cm_id*, int level, int optname, void*, size_t) {
  // Type of service, address reuse, v6-only and ACK timeout change nothing on this fabric.
  if (level == RDMA_OPTION_ID && optname >= RDMA_OPTION_ID_TOS &&
      optname <= RDMA_OPTION_ID_ACK_TIMEOUT)
    return 0;
  return Fail(ENOSYS);
}

}  // extern "C"
