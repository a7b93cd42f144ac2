// The Connections port of the shell: the transports' listening sockets (into the ListenerSet),
// their connections' events (conn_notify, conn_released: queued from any thread, handled on
// the loop), and the raw output of a client by id (client_write_raw, client_output_pending,
// client_close). Main thread unless noted.
#pragma once

#include <uv.h>

#include <atomic>
#include <deque>
#include <mutex>

#include "host/core/env.h"

namespace plinth::host {

class ListenerSet;
struct Client;
struct ClientTable;

class ShellConnections final : public Connections {
 public:
  // Handles the notified connections on loop from now on.
  ShellConnections(uv_loop_t* loop, ListenerSet& listeners, ClientTable& clients);
  ShellConnections(const ShellConnections&) = delete;
  ShellConnections& operator=(const ShellConnections&) = delete;

  // Drops c from the notified connections (it is being freed).
  void Forget(Client* c);
  // Ignores notifications from now on and closes the async handle (shutdown).
  void Close();

  int32_t ListenerAdd(int32_t transport_id, int32_t fd, const char* description) override;
  // Any thread.
  void ConnNotify(plinth_conn_t* conn, uint32_t events) override;
  // Any thread.
  void ConnReleased(plinth_conn_t* conn, uint64_t total) override;
  int32_t WriteRaw(uint64_t id, const char* data, size_t len) override;
  int64_t OutputPending(uint64_t id) override;
  int32_t CloseClient(uint64_t id, bool now) override;

 private:
  // Handles the connections transports notified.
  void RunNotified();

  ListenerSet& listeners_;
  ClientTable& clients_;
  uv_async_t async_;
  std::atomic<bool> open_{false};
  std::mutex mu_;
  std::deque<Client*> notified_;  // each at most once: queued when its events were 0
};

}  // namespace plinth::host
