// rdma_cm event channels and events. A channel's fd is an EFD_SEMAPHORE eventfd with one count
// per queued event: it polls readable while events wait, and rdma_get_cm_event blocks, or
// fails with EAGAIN once the application made the fd non-blocking, like the real channel.
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cm.h"

namespace plinth::rdma_fabric {
namespace {

void Signal(CmChannel* channel) {
  uint64_t one = 1;
  (void)!write(channel->ibv.fd, &one, sizeof one);
}

}  // namespace

void QueueEvent(CmId* id, rdma_cm_event_type type, int status, const ConnBody* conn, CmId* listen) {
  auto* e = new CmEvent();
  e->ev.id = &id->id;
  e->ev.listen_id = listen != nullptr ? &listen->id : nullptr;
  e->ev.event = type;
  e->ev.status = status;
  if (conn != nullptr) {
    rdma_conn_param& p = e->ev.param.conn;
    p.responder_resources = conn->responder_resources;
    p.initiator_depth = conn->initiator_depth;
    p.flow_control = conn->flow_control;
    p.retry_count = conn->retry_count;
    p.rnr_retry_count = conn->rnr_retry_count;
    p.qp_num = conn->qp_num;
    p.private_data_len = conn->private_data_len;
    std::memcpy(e->private_data, conn->private_data, sizeof e->private_data);
    p.private_data = conn->private_data_len > 0 ? e->private_data : nullptr;
  }
  auto* channel = From<CmChannel>(id->id.channel);
  channel->events.push_back(e);
  Signal(channel);
}

void DropEvents(CmId* id) {
  // The eventfd keeps the counts; rdma_get_cm_event skips counts without an event.
  auto* channel = From<CmChannel>(id->id.channel);
  if (channel == nullptr) return;
  auto& ev = channel->events;
  auto names = [id](CmEvent* e) {
    bool hit = e->ev.id == &id->id || e->ev.listen_id == &id->id;
    if (hit) delete e;
    return hit;
  };
  ev.erase(std::remove_if(ev.begin(), ev.end(), names), ev.end());
}

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

struct rdma_event_channel* rdma_create_event_channel(void) {
  if (fabric_default_context() == nullptr) {
    errno = ENODEV;
    return nullptr;
  }
  int fd = eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC);
  if (fd < 0) return nullptr;
  auto* channel = new CmChannel();
  channel->ibv.fd = fd;
  return &channel->ibv;
}

void rdma_destroy_event_channel(struct rdma_event_channel* ibv) {
  auto* channel = From<CmChannel>(ibv);
  {
    LockGuard lock;
    for (CmEvent* e : channel->events) delete e;
    channel->events.clear();
  }
  close(channel->ibv.fd);
  delete channel;
}

int rdma_get_cm_event(struct rdma_event_channel* ibv, struct rdma_cm_event** event) {
  auto* channel = From<CmChannel>(ibv);
  for (;;) {
    uint64_t v;
    ssize_t r = read(channel->ibv.fd, &v, sizeof v);
    if (r != sizeof v) {
      if (r < 0 && errno == EINTR) continue;
      return -1;  // errno EAGAIN on a non-blocking channel with nothing pending
    }
    LockGuard lock;
    if (channel->events.empty()) continue;
    CmEvent* e = channel->events.front();
    channel->events.pop_front();
    if (e->ev.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
      // From now on the application owns the child id.
      CmId* child = From<CmId>(e->ev.id);
      if (child->listener != nullptr) {
        auto& kids = child->listener->children;
        kids.erase(std::remove(kids.begin(), kids.end(), child), kids.end());
        child->listener = nullptr;
      }
    }
    *event = &e->ev;
    return 0;
  }
}

int rdma_ack_cm_event(struct rdma_cm_event* event) {
  delete From<CmEvent>(event);
  return 0;
}

int rdma_migrate_id(struct rdma_cm_id* ibv, struct rdma_event_channel* to) {
  auto* id = From<CmId>(ibv);
  LockGuard lock;
  auto* from = From<CmChannel>(id->id.channel);
  auto* dest = From<CmChannel>(to);
  if (from == dest) return 0;
  auto& ev = from->events;
  for (auto it = ev.begin(); it != ev.end();) {
    if ((*it)->ev.id == ibv) {
      dest->events.push_back(*it);
      Signal(dest);
      it = ev.erase(it);
    } else {
      ++it;
    }
  }
  id->id.channel = to;
  return 0;
}

const char* rdma_event_str(enum rdma_cm_event_type event) {
  static const char* const kNames[] = {
      "RDMA_CM_EVENT_ADDR_RESOLVED",   "RDMA_CM_EVENT_ADDR_ERROR",
      "RDMA_CM_EVENT_ROUTE_RESOLVED",  "RDMA_CM_EVENT_ROUTE_ERROR",
      "RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_CONNECT_RESPONSE",
      "RDMA_CM_EVENT_CONNECT_ERROR",   "RDMA_CM_EVENT_UNREACHABLE",
      "RDMA_CM_EVENT_REJECTED",        "RDMA_CM_EVENT_ESTABLISHED",
      "RDMA_CM_EVENT_DISCONNECTED",    "RDMA_CM_EVENT_DEVICE_REMOVAL",
      "RDMA_CM_EVENT_MULTICAST_JOIN",  "RDMA_CM_EVENT_MULTICAST_ERROR",
      "RDMA_CM_EVENT_ADDR_CHANGE",     "RDMA_CM_EVENT_TIMEWAIT_EXIT",
  };
  unsigned i = static_cast<unsigned>(event);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "UNKNOWN EVENT";
}

}  // extern "C"
