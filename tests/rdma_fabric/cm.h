// Internal state of the fabric's librdmacm.so.1: event channels, cm ids and their connection
// state machine. Guarded by the fabric lock (fabric_lock). Never call a verb (ibv_*) with the
// lock held: the verbs take it themselves.
#ifndef PLINTH_TESTS_RDMA_FABRIC_CM_H_
#define PLINTH_TESTS_RDMA_FABRIC_CM_H_

#include <rdma/rdma_cma.h>

#include <deque>
#include <string>
#include <vector>

#include "fabric_private.h"
#include "wire.h"

namespace plinth::rdma_fabric {

struct CmEvent {
  rdma_cm_event ev;
  uint8_t private_data[sizeof(ConnBody::private_data)];
};

struct CmChannel {
  rdma_event_channel ibv;  // ibv.fd: EFD_SEMAPHORE eventfd, one count per queued event
  std::deque<CmEvent*> events;
};

enum class CmState {
  kIdle,
  kBound,
  kListening,
  kAddrResolved,
  kRouteResolved,
  kConnecting,      // active side: request sent, waiting for accept or reject
  kChildWaitReq,    // passive side: socket accepted, request not yet read
  kChildRequested,  // passive side: CONNECT_REQUEST queued for the application
  kAccepted,        // passive side: accept sent, waiting for the ready-to-use frame
  kEstablished,
  kDisconnected,
  kRejected,
  kUnreachable,
};

struct CmId {
  rdma_cm_id id;
  CmState state = CmState::kIdle;
  int listen_fd = -1;         // bound or listening: the socket that holds the address
  uint64_t listen_token = 0;  // listening: its progress-thread watch
  fabric_link* link = nullptr;
  bool link_dead = false;
  CmId* listener = nullptr;     // passive side: the listener that spawned it
  std::vector<CmId*> children;  // listener: children the application has not received yet
  ConnBody peer{};              // the peer's request (passive) or accept (active)
  ibv_pd* own_pd = nullptr;     // created by rdma_create_qp without a PD
  bool own_channel = false;     // created by rdma_create_id without a channel
};

struct LockGuard {
  LockGuard() { fabric_lock(); }
  ~LockGuard() { fabric_unlock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;
};

template <typename T, typename I>
T* From(I* ibv) {
  return reinterpret_cast<T*>(ibv);
}

// Queues an event for "id" on its channel. "conn" (may be null) fills event->param.conn;
// "listen" fills event->listen_id. Lock held.
void QueueEvent(CmId* id, rdma_cm_event_type type, int status, const ConnBody* conn = nullptr,
                CmId* listen = nullptr);

// Drops the queued events that name "id" as id or listen_id. Lock held.
void DropEvents(CmId* id);

// The abstract unix socket name that listens for "addr" (its address and port).
std::string ListenName(const sockaddr* addr);

// Size of a sockaddr of the family of "addr" (0 for families the fabric does not know).
socklen_t AddrLen(const sockaddr* addr);
uint16_t AddrPort(const sockaddr* addr);  // host order
void SetAddrPort(sockaddr* addr, uint16_t port);

// The link callbacks of every connecting or connected id (cm_connect.cc).
extern const fabric_link_ops kCmLinkOps;

// Status values of REJECTED events, as the IB CM reports them.
constexpr int kRejectNoListener = 8;  // invalid service id
constexpr int kRejectConsumer = 28;   // the peer called rdma_reject

}  // namespace plinth::rdma_fabric

#endif  // PLINTH_TESTS_RDMA_FABRIC_CM_H_
