// The process-wide registry, its lock and the progress thread: one epoll loop that services
// every link socket and listener of the process, and rewrites the stats file once a second.
// The thread starts with the first watched descriptor and runs until the process exits.
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

constexpr uint64_t kWakeToken = 0;

void* ProgressMain(void*) {
  Fabric& f = TheFabric();
  epoll_event evs[64];
  timespec last{};
  clock_gettime(CLOCK_MONOTONIC, &last);
  for (;;) {
    int n = epoll_wait(f.epfd, evs, 64, 1000);
    std::lock_guard<std::mutex> lock(f.mu);
    for (int i = 0; i < n; ++i) {
      uint64_t token = evs[i].data.u64;
      if (token == kWakeToken) {
        uint64_t v;
        (void)!read(f.wake_fd, &v, sizeof v);
        continue;
      }
      // Looked up by token: the owner may have closed it since epoll_wait returned.
      auto it = f.watches.find(token);
      if (it == f.watches.end()) continue;
      if (it->second.link != nullptr) {
        LinkReady(it->second.link, evs[i].events);
      } else {
        it->second.cb(it->second.arg);
      }
    }
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec != last.tv_sec) {
      last = now;
      WriteStatsFile();
    }
  }
  return nullptr;
}

}  // namespace

Fabric& TheFabric() {
  static Fabric* fabric = [] {
    auto* f = new Fabric();
    f->epfd = epoll_create1(EPOLL_CLOEXEC);
    f->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kWakeToken;
    epoll_ctl(f->epfd, EPOLL_CTL_ADD, f->wake_fd, &ev);
    return f;
  }();
  return *fabric;
}

void EnsureProgressThread() {
  Fabric& f = TheFabric();
  if (f.progress_started) return;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attr, ProgressMain, nullptr) == 0) f.progress_started = true;
  pthread_attr_destroy(&attr);
}

void WatchLink(Link* link, uint32_t events) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = link->token;
  epoll_ctl(TheFabric().epfd, EPOLL_CTL_MOD, link->fd, &ev);
}

Mr* FindMr(uint32_t key) {
  auto& mrs = TheFabric().mrs;
  auto it = mrs.find(key);
  return it == mrs.end() ? nullptr : it->second;
}

}  // namespace plinth::rdma_fabric

using plinth::rdma_fabric::Fabric;
using plinth::rdma_fabric::TheFabric;

extern "C" {

void fabric_lock(void) { TheFabric().mu.lock(); }

void fabric_unlock(void) { TheFabric().mu.unlock(); }

uint64_t fabric_watch_fd(int fd, void (*cb)(void*), void* arg) {
  Fabric& f = TheFabric();
  uint64_t token = f.next_token++;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = token;
  if (epoll_ctl(f.epfd, EPOLL_CTL_ADD, fd, &ev) != 0) return 0;
  f.watches[token] = Fabric::Watch{nullptr, cb, arg, fd};
  plinth::rdma_fabric::EnsureProgressThread();
  return token;
}

void fabric_unwatch_fd(uint64_t token) {
  // Dropping the token also makes the loop ignore readiness epoll_wait already reported.
  Fabric& f = TheFabric();
  auto it = f.watches.find(token);
  if (it == f.watches.end()) return;
  epoll_ctl(f.epfd, EPOLL_CTL_DEL, it->second.fd, nullptr);
  f.watches.erase(it);
}

struct ibv_context* fabric_default_context(void) {
  static ibv_context* context = [] {
    ibv_device** list = ibv_get_device_list(nullptr);
    ibv_context* c = list != nullptr ? ibv_open_device(list[0]) : nullptr;
    ibv_free_device_list(list);
    return c;
  }();
  return context;
}

}  // extern "C"
