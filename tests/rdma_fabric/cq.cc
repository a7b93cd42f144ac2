// Completion channels and completion queues. A channel's fd is an EFD_SEMAPHORE eventfd with
// one count per queued CQ event, so it polls readable while events wait and a read honours
// O_NONBLOCK exactly like the real channel. An armed CQ queues one event on its next completion.
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core.h"

namespace plinth::rdma_fabric {

void CqPush(Cq* cq, const ibv_wc& wc) {
  // An overrun is counted but loses nothing: the fabric never drops a completion.
  if (cq->wcs.size() >= cq->capacity) Count(kCqOverruns);
  cq->wcs.push_back(wc);
  if (wc.status == IBV_WC_SUCCESS) {
    Count((wc.opcode & IBV_WC_RECV) ? kRecvCompletions : kSendCompletions);
  } else {
    Count(wc.status == IBV_WC_WR_FLUSH_ERR ? kFlushed : kErrors);
  }
  if (cq->armed && cq->ibv.channel != nullptr) {
    cq->armed = false;
    auto* channel = From<CompChannel>(cq->ibv.channel);
    channel->events.push_back(cq);
    uint64_t one = 1;
    (void)!write(channel->ibv.fd, &one, sizeof one);
  }
}

int PollCq(ibv_cq* ibv, int num_entries, ibv_wc* wc) {
  Cq* cq = From<Cq>(ibv);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  int n = 0;
  while (n < num_entries && !cq->wcs.empty()) {
    wc[n++] = cq->wcs.front();
    cq->wcs.pop_front();
  }
  return n;
}

int ReqNotifyCq(ibv_cq* ibv, int) {
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  From<Cq>(ibv)->armed = true;
  return 0;
}

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

struct ibv_comp_channel* ibv_create_comp_channel(struct ibv_context* context) {
  int fd = eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC);
  if (fd < 0) return nullptr;
  auto* channel = new CompChannel();
  channel->ibv.context = context;
  channel->ibv.fd = fd;
  return &channel->ibv;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel* ibv) {
  auto* channel = From<CompChannel>(ibv);
  {
    std::lock_guard<std::mutex> lock(TheFabric().mu);
    if (channel->cqs > 0) {
      errno = EBUSY;
      return EBUSY;
    }
  }
  close(channel->ibv.fd);
  delete channel;
  return 0;
}

struct ibv_cq* ibv_create_cq(struct ibv_context* context, int cqe, void* cq_context,
                             struct ibv_comp_channel* channel, int) {
  if (cqe < 1 || cqe > 4194303) {
    errno = EINVAL;
    return nullptr;
  }
  auto* cq = new Cq();
  cq->ibv.context = context;
  cq->ibv.channel = channel;
  cq->ibv.cq_context = cq_context;
  cq->ibv.cqe = cqe;
  pthread_mutex_init(&cq->ibv.mutex, nullptr);
  pthread_cond_init(&cq->ibv.cond, nullptr);
  cq->capacity = static_cast<size_t>(cqe);
  if (channel != nullptr) {
    std::lock_guard<std::mutex> lock(TheFabric().mu);
    From<CompChannel>(channel)->cqs++;
  }
  return &cq->ibv;
}

int ibv_destroy_cq(struct ibv_cq* ibv) {
  Cq* cq = From<Cq>(ibv);
  {
    std::lock_guard<std::mutex> lock(TheFabric().mu);
    if (cq->qps > 0) {
      errno = EBUSY;
      return EBUSY;
    }
    if (ibv->channel != nullptr) {
      // Queued events for this CQ go; ibv_get_cq_event skips the counts they leave behind.
      auto* channel = From<CompChannel>(ibv->channel);
      auto& ev = channel->events;
      ev.erase(std::remove(ev.begin(), ev.end(), cq), ev.end());
      channel->cqs--;
    }
  }
  pthread_mutex_destroy(&ibv->mutex);
  pthread_cond_destroy(&ibv->cond);
  delete cq;
  return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel* ibv, struct ibv_cq** cq_out, void** cq_context) {
  auto* channel = From<CompChannel>(ibv);
  for (;;) {
    uint64_t v;
    ssize_t r = read(channel->ibv.fd, &v, sizeof v);
    if (r != sizeof v) {
      if (r < 0 && errno == EINTR) continue;
      return -1;  // errno EAGAIN on a non-blocking channel with nothing pending
    }
    std::lock_guard<std::mutex> lock(TheFabric().mu);
    if (channel->events.empty()) continue;  // the count of an event whose CQ was destroyed
    Cq* cq = channel->events.front();
    channel->events.pop_front();
    cq->events_reported++;
    *cq_out = &cq->ibv;
    *cq_context = cq->ibv.cq_context;
    return 0;
  }
}

void ibv_ack_cq_events(struct ibv_cq* ibv, unsigned int nevents) {
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  From<Cq>(ibv)->events_acked += nevents;
}

}  // extern "C"
