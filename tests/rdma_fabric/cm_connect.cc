// The connection handshake over a fabric link: the active side sends its request, the passive
// side's application accepts (ESTABLISHED on the active side when the accept arrives, on the
// passive side when the active side's ready-to-use frame does) or rejects; either side may
// disconnect (DISCONNECTED on both). A link that dies is a disconnect, or during the handshake
// a rejection (active side) or UNREACHABLE (passive side).
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include "cm.h"

namespace plinth::rdma_fabric {
namespace {

ConnBody BodyFor(const CmId* id, const rdma_conn_param* param) {
  ConnBody b{};
  b.responder_resources = 1;
  b.initiator_depth = 1;
  b.retry_count = 7;
  b.rnr_retry_count = 7;
  if (param != nullptr) {
    b.responder_resources = param->responder_resources;
    b.initiator_depth = param->initiator_depth;
    b.flow_control = param->flow_control;
    b.retry_count = param->retry_count;
    b.rnr_retry_count = std::min<uint8_t>(param->rnr_retry_count, 7);
    b.qp_num = param->qp_num;
    size_t n = std::min<size_t>(param->private_data_len, sizeof b.private_data);
    if (param->private_data != nullptr && n > 0) {
      std::memcpy(b.private_data, param->private_data, n);
      b.private_data_len = static_cast<uint8_t>(n);
    }
  }
  if (id->id.qp != nullptr) b.qp_num = id->id.qp->qp_num;
  std::memcpy(&b.src, &id->id.route.addr.src_storage, sizeof b.src);
  std::memcpy(&b.dst, &id->id.route.addr.dst_storage, sizeof b.dst);
  return b;
}

// Connects a socket to whatever listens for "dst": that exact address, else the wildcard
// address of its family on the same port. Returns the non-blocking socket, or -1.
int ConnectTo(const sockaddr_storage& dst) {
  sockaddr_storage wildcard{};
  wildcard.ss_family = dst.ss_family;
  SetAddrPort(reinterpret_cast<sockaddr*>(&wildcard),
              AddrPort(reinterpret_cast<const sockaddr*>(&dst)));
  const sockaddr_storage* candidates[] = {&dst, &wildcard};
  for (const sockaddr_storage* c : candidates) {
    std::string name = ListenName(reinterpret_cast<const sockaddr*>(c));
    sockaddr_un un{};
    un.sun_family = AF_UNIX;
    std::memcpy(un.sun_path + 1, name.data(), name.size());
    auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, reinterpret_cast<sockaddr*>(&un), len) == 0) {
      if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        close(fd);
        return -1;
      }
      return fd;
    }
    close(fd);
  }
  return -1;
}

void Disconnected(CmId* id) {
  if (id->id.qp != nullptr) fabric_qp_flush(id->id.qp);
  id->state = CmState::kDisconnected;
  fabric_count(FABRIC_DISCONNECTS, 1);
  QueueEvent(id, RDMA_CM_EVENT_DISCONNECTED, 0);
}

void OnFrame(void* arg, uint32_t type, const void* body, size_t len) {
  auto* id = static_cast<CmId*>(arg);
  if ((type == kFrameConnReq || type == kFrameAccept) && len < sizeof(ConnBody)) return;
  switch (type) {
    case kFrameConnReq: {
      if (id->state != CmState::kChildWaitReq) return;
      std::memcpy(&id->peer, body, sizeof id->peer);
      // The child's local address is the one the client connected to.
      std::memcpy(&id->id.route.addr.src_storage, &id->peer.dst, sizeof id->peer.dst);
      std::memcpy(&id->id.route.addr.dst_storage, &id->peer.src, sizeof id->peer.src);
      id->id.verbs = id->listener->id.verbs;
      id->id.port_num = 1;
      id->state = CmState::kChildRequested;
      QueueEvent(id, RDMA_CM_EVENT_CONNECT_REQUEST, 0, &id->peer, id->listener);
      return;
    }
    case kFrameAccept:
      if (id->state != CmState::kConnecting) return;
      std::memcpy(&id->peer, body, sizeof id->peer);
      // As the IB CM does: the accept's RNR retry count governs the active side's requests.
      fabric_link_attach_qp(id->link, id->id.qp, id->peer.rnr_retry_count);
      fabric_link_send(id->link, kFrameReadyToUse, nullptr, 0);
      id->state = CmState::kEstablished;
      fabric_count(FABRIC_CONNECTIONS_ESTABLISHED, 1);
      QueueEvent(id, RDMA_CM_EVENT_ESTABLISHED, 0, &id->peer);
      return;
    case kFrameReject:
      if (id->state != CmState::kConnecting) return;
      id->state = CmState::kRejected;
      fabric_count(FABRIC_CONNECT_REJECTED, 1);
      QueueEvent(id, RDMA_CM_EVENT_REJECTED, kRejectConsumer);
      return;
    case kFrameReadyToUse:
      if (id->state != CmState::kAccepted) return;
      id->state = CmState::kEstablished;
      fabric_count(FABRIC_CONNECTIONS_ESTABLISHED, 1);
      QueueEvent(id, RDMA_CM_EVENT_ESTABLISHED, 0, &id->peer);
      return;
    case kFrameDisconnect:
      if (id->state == CmState::kEstablished || id->state == CmState::kAccepted) Disconnected(id);
      return;
    default:
      return;
  }
}

void OnClose(void* arg) {
  auto* id = static_cast<CmId*>(arg);
  id->link_dead = true;
  switch (id->state) {
    case CmState::kChildWaitReq: {
      // Never reported to the application: it simply goes.
      auto& kids = id->listener->children;
      kids.erase(std::remove(kids.begin(), kids.end(), id), kids.end());
      fabric_link_close(id->link);
      delete id;
      return;
    }
    case CmState::kConnecting:
      id->state = CmState::kRejected;
      fabric_count(FABRIC_CONNECT_REJECTED, 1);
      QueueEvent(id, RDMA_CM_EVENT_REJECTED, kRejectNoListener);
      return;
    case CmState::kAccepted:
      id->state = CmState::kUnreachable;
      QueueEvent(id, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
      return;
    case CmState::kEstablished:
      Disconnected(id);
      return;
    default:
      return;  // kChildRequested: rdma_accept reports it
  }
}

int Fail(int err) {
  errno = err;
  return -1;
}

}  // namespace

const fabric_link_ops kCmLinkOps = {OnFrame, OnClose};

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

int rdma_connect(struct rdma_cm_id* ibv, struct rdma_conn_param* param) {
  auto* id = From<CmId>(ibv);
  sockaddr_storage dst;
  {
    LockGuard lock;
    if (id->state != CmState::kRouteResolved && id->state != CmState::kAddrResolved)
      return Fail(EINVAL);
    dst = id->id.route.addr.dst_storage;
  }
  // Outside the lock: a listener in this very process needs it to accept.
  int fd = ConnectTo(dst);
  LockGuard lock;
  if (fd < 0) {
    id->state = CmState::kRejected;
    fabric_count(FABRIC_CONNECT_REJECTED, 1);
    QueueEvent(id, RDMA_CM_EVENT_REJECTED, kRejectNoListener);
    return 0;
  }
  id->link = fabric_link_create(fd, &kCmLinkOps, id);
  if (id->link == nullptr) return -1;
  ConnBody body = BodyFor(id, param);
  id->state = CmState::kConnecting;
  fabric_link_send(id->link, kFrameConnReq, &body, sizeof body);
  return 0;
}

int rdma_accept(struct rdma_cm_id* ibv, struct rdma_conn_param* param) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  if (id->state != CmState::kChildRequested) return Fail(EINVAL);
  if (id->link_dead) {
    id->state = CmState::kUnreachable;
    QueueEvent(id, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
    return 0;
  }
  ConnBody body = BodyFor(id, param);
  // As the IB CM does: the request's RNR retry count governs the passive side's requests.
  fabric_link_attach_qp(id->link, id->id.qp, id->peer.rnr_retry_count);
  id->state = CmState::kAccepted;
  fabric_link_send(id->link, kFrameAccept, &body, sizeof body);
  return 0;
}

int rdma_reject(struct rdma_cm_id* ibv, const void*, uint8_t) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  if (id->state != CmState::kChildRequested) return Fail(EINVAL);
  fabric_link_send(id->link, kFrameReject, nullptr, 0);
  fabric_link_close(id->link);
  id->link = nullptr;
  id->state = CmState::kRejected;
  return 0;
}

int rdma_disconnect(struct rdma_cm_id* ibv) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  switch (id->state) {
    case CmState::kEstablished:
    case CmState::kAccepted:
    case CmState::kConnecting:
      if (id->link != nullptr) fabric_link_send(id->link, kFrameDisconnect, nullptr, 0);
      Disconnected(id);
      return 0;
    case CmState::kDisconnected:
    case CmState::kRejected:
    case CmState::kUnreachable:
      return 0;
    default:
      return Fail(EINVAL);
  }
}

}  // extern "C"
