// The completion-channel watcher thread.
#include "poller.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plinth::rdma {

bool Poller::Start(NotifyFn notify, std::string* error) {
  notify_ = notify;
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = 0;  // serial 0: the wake-up
  if (epoll_fd_ < 0 || wake_fd_ < 0 || epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) {
    *error = std::string("completion poller: ") + std::strerror(errno);
    Stop();
    return false;
  }
  thread_ = std::thread([this] { Run(); });
  return true;
}

void Poller::Stop() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(wake_fd_, &one, sizeof one);  // cannot fail
    thread_.join();
  }
  for (int* fd : {&epoll_fd_, &wake_fd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();
  serial_of_.clear();
}

bool Poller::Add(VerbsConn* c, plinth_conn_t* host) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t serial = next_serial_++;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = serial;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c->channel_fd(), &ev) != 0) return false;
  entries_[serial] = Entry{c, host};
  serial_of_[c] = serial;
  return true;
}

void Poller::Remove(VerbsConn* c) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = serial_of_.find(c);
  if (it == serial_of_.end()) return;
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c->channel_fd(), nullptr);
  entries_.erase(it->second);
  serial_of_.erase(it);
}

void Poller::Run() {
  epoll_event evs[64];
  for (;;) {
    const int n = epoll_wait(epoll_fd_, evs, 64, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < n; ++i) {
      if (evs[i].data.u64 == 0) return;  // Stop
      auto it = entries_.find(evs[i].data.u64);
      if (it == entries_.end()) continue;  // removed after epoll_wait returned
      const Entry e = it->second;
      if (e.conn->TakeChannelEvents()) {
        notify_(e.host, PLINTH_CONN_READABLE | PLINTH_CONN_WRITABLE);
      } else {
        // A failed channel stays readable: stop watching it, the host closes the connection.
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, e.conn->channel_fd(), nullptr);
        serial_of_.erase(e.conn);
        entries_.erase(it);
        notify_(e.host, PLINTH_CONN_CLOSED);
      }
    }
  }
}

}  // namespace plinth::rdma
