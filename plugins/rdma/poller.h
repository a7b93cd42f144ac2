// The completion-channel watcher: one thread that waits on the completion channel of every
// RDMA connection (epoll) and, when one becomes readable, takes and acknowledges its events,
// re-arms its CQ and tells the host the connection is ready (conn_notify). The host then runs
// the connection's read and writev, which poll the CQ, on the connection's IO thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "verbs_conn.h"

namespace plinth::rdma {

class Poller {
 public:
  using NotifyFn = void (*)(plinth_conn_t* conn, uint32_t events);

  // Starts the thread. false with a reason in *error. THREAD: main.
  bool Start(NotifyFn notify, std::string* error);
  // Stops and joins the thread; watched connections are forgotten. THREAD: main.
  void Stop();
  ~Poller() { Stop(); }

  // Watches c's completion channel and reports its readiness to host. A connection whose
  // channel fails is reported PLINTH_CONN_CLOSED. false: epoll refused the fd. OWNERSHIP: c and
  // host stay the caller's; both must live until Remove returns. THREAD: main.
  bool Add(VerbsConn* c, plinth_conn_t* host);
  // Stops watching c. Once it returns, the thread neither touches c nor reports it. THREAD:
  // main.
  void Remove(VerbsConn* c);

 private:
  struct Entry {
    VerbsConn* conn;
    plinth_conn_t* host;
  };
  void Run();

  NotifyFn notify_ = nullptr;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;  // eventfd that ends the thread
  std::thread thread_;
  std::mutex mu_;  // entries_ and every use of a watched connection by the thread
  uint64_t next_serial_ = 1;
  std::unordered_map<uint64_t, Entry> entries_;
  std::unordered_map<VerbsConn*, uint64_t> serial_of_;
};

}  // namespace plinth::rdma
