// Fabric links: one non-blocking unix stream socket per connection, read by the progress thread
// and written by whichever thread holds the fabric lock. Writes never block: what the socket
// does not take waits in the link's output buffer until EPOLLOUT, so two processes that write
// to each other can never deadlock, and frames never interleave.
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

constexpr size_t kReadChunk = 256 * 1024;
constexpr size_t kReadBudget = 4 * 1024 * 1024;

void LinkRelease(Link* link) {
  if (--link->refs > 0) return;
  if (link->qp != nullptr) link->qp->link = nullptr;
  delete link;
}

// Closes the socket now, flushing the attached queue pair; no callback.
void LinkShut(Link* link) {
  if (!link->open) return;
  link->open = false;
  Fabric& f = TheFabric();
  epoll_ctl(f.epfd, EPOLL_CTL_DEL, link->fd, nullptr);
  close(link->fd);
  link->fd = -1;
  f.watches.erase(link->token);
  link->waiting.clear();
  link->out.clear();
  link->out_off = 0;
  if (link->qp != nullptr) fabric_qp_flush(&link->qp->ibv);
  LinkRelease(link);  // the registration's reference
}

// The peer is gone (EOF or a socket error).
void LinkDead(Link* link) {
  const fabric_link_ops* ops = link->ops;
  void* arg = link->arg;
  LinkShut(link);
  if (ops != nullptr) ops->on_close(arg);
}

void Dispatch(Link* link, const FrameHeader& h, const uint8_t* body) {
  if (link->closing) return;
  if (h.type >= kFrameSend) {
    if (link->qp != nullptr) QpHandleFrame(link, h, body);
    return;
  }
  if (link->ops != nullptr) link->ops->on_frame(link->arg, h.type, body, h.len);
}

// Reads what the socket has (bounded, so one busy peer cannot starve the rest) and handles
// every complete frame. Returns false on EOF or error.
bool LinkRead(Link* link) {
  size_t budget = kReadBudget;
  bool alive = true;
  while (budget > 0) {
    if (link->in.size() < link->in_len + kReadChunk) link->in.resize(link->in_len + kReadChunk);
    ssize_t r = read(link->fd, link->in.data() + link->in_len, kReadChunk);
    if (r > 0) {
      link->in_len += static_cast<size_t>(r);
      budget -= std::min(budget, static_cast<size_t>(r));
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    alive = false;
    break;
  }
  size_t off = 0;
  while (link->open && link->in_len - off >= sizeof(FrameHeader)) {
    FrameHeader h;
    std::memcpy(&h, link->in.data() + off, sizeof h);
    if (link->in_len - off - sizeof h < h.len) break;
    Dispatch(link, h, link->in.data() + off + sizeof h);
    off += sizeof h + h.len;
  }
  if (off > 0) {
    std::memmove(link->in.data(), link->in.data() + off, link->in_len - off);
    link->in_len -= off;
  }
  if (link->in.size() > 4 * kReadChunk && link->in_len < kReadChunk) {
    link->in.resize(kReadChunk);
    link->in.shrink_to_fit();
  }
  if (link->open) QpSendAcks(link);
  return alive;
}

}  // namespace

void LinkAppend(Link* link, const void* data, size_t n) {
  if (!link->open) return;
  const auto* p = static_cast<const uint8_t*>(data);
  link->out.insert(link->out.end(), p, p + n);
}

void LinkFlush(Link* link) {
  if (!link->open) return;
  while (link->out_off < link->out.size()) {
    ssize_t w = send(link->fd, link->out.data() + link->out_off, link->out.size() - link->out_off,
                     MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0) {
      link->out_off += static_cast<size_t>(w);
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // The peer is gone: the reader sees EOF or EPOLLHUP and reports it.
    link->out.clear();
    link->out_off = 0;
    break;
  }
  if (link->out_off == link->out.size()) {
    link->out.clear();
    link->out_off = 0;
    if (link->out_watched) {
      link->out_watched = false;
      WatchLink(link, EPOLLIN);
    }
    return;
  }
  if (link->out_off > kReadBudget && link->out_off * 2 > link->out.size()) {
    link->out.erase(link->out.begin(), link->out.begin() + static_cast<ptrdiff_t>(link->out_off));
    link->out_off = 0;
  }
  if (!link->out_watched) {
    link->out_watched = true;
    WatchLink(link, EPOLLIN | EPOLLOUT);
  }
}

void LinkReady(Link* link, uint32_t events) {
  ++link->refs;  // the link outlives this call whatever the callbacks do
  bool alive = true;
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) alive = LinkRead(link);
  if (link->open && (events & EPOLLOUT)) LinkFlush(link);
  if (link->open && !alive) LinkDead(link);
  if (link->open && link->closing && link->out.empty()) LinkShut(link);
  LinkRelease(link);
}

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

fabric_link* fabric_link_create(int fd, const struct fabric_link_ops* ops, void* arg) {
  Fabric& f = TheFabric();
  auto* link = new Link();
  link->token = f.next_token++;
  link->fd = fd;
  link->ops = ops;
  link->arg = arg;
  link->refs = 2;  // the caller's and the progress thread's registration
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = link->token;
  if (epoll_ctl(f.epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
    int saved = errno;
    close(fd);
    delete link;
    errno = saved;
    return nullptr;
  }
  f.watches[link->token] = Fabric::Watch{link, nullptr, nullptr, fd};
  EnsureProgressThread();
  return reinterpret_cast<fabric_link*>(link);
}

int fabric_link_send(fabric_link* handle, uint32_t type, const void* body, size_t len) {
  Link* link = reinterpret_cast<Link*>(handle);
  if (!link->open || link->closing) return -1;
  FrameHeader h{};
  h.type = type;
  h.len = static_cast<uint32_t>(len);
  LinkAppend(link, &h, sizeof h);
  if (len > 0) LinkAppend(link, body, len);
  LinkFlush(link);
  return 0;
}

void fabric_link_close(fabric_link* handle) {
  Link* link = reinterpret_cast<Link*>(handle);
  link->ops = nullptr;
  link->arg = nullptr;
  if (link->qp != nullptr) {
    fabric_qp_flush(&link->qp->ibv);
    link->qp->link = nullptr;
    link->qp = nullptr;
  }
  link->closing = true;
  if (link->open) {
    LinkFlush(link);
    if (link->out.empty()) LinkShut(link);
  }
  LinkRelease(link);
}

int fabric_link_alive(const fabric_link* handle) {
  const Link* link = reinterpret_cast<const Link*>(handle);
  return link->open && !link->closing;
}

void fabric_link_attach_qp(fabric_link* handle, struct ibv_qp* ibv, uint8_t rnr_retry) {
  if (ibv == nullptr) return;
  Link* link = reinterpret_cast<Link*>(handle);
  Qp* qp = From<Qp>(ibv);
  qp->link = link;
  qp->rnr_retry = rnr_retry;
  qp->ibv.state = IBV_QPS_RTS;
  link->qp = qp;
}

}  // extern "C"
