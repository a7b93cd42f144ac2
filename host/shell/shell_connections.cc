// The transports' side of the shell: listener_add, conn_notify and conn_released, and a
// client's raw output by id.
#include "host/shell/shell_connections.h"

#include <algorithm>

#include "host/shell/client.h"
#include "host/shell/listeners.h"
#include "host/shell/shell_clients.h"

namespace plinth::host {

ShellConnections::ShellConnections(uv_loop_t* loop, ListenerSet& listeners, ClientTable& clients)
    : listeners_(listeners), clients_(clients) {
  uv_async_init(loop, &async_,
                [](uv_async_t* h) { static_cast<ShellConnections*>(h->data)->RunNotified(); });
  async_.data = this;
  open_ = true;
}

void ShellConnections::Close() {
  open_ = false;
  uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
}

int32_t ShellConnections::ListenerAdd(int32_t transport_id, int32_t fd, const char* description) {
  return listeners_.Add(transport_id, fd, description);
}

void ShellConnections::ConnNotify(plinth_conn_t* conn, uint32_t events) {
  auto* c = static_cast<Client*>(conn->owner);
  if (!open_.load(std::memory_order_acquire)) return;  // shut down: nobody reads
  if (c->io.notified.fetch_or(events, std::memory_order_acq_rel) != 0) return;  // queued already
  {
    std::lock_guard<std::mutex> lock(mu_);
    notified_.push_back(c);
  }
  uv_async_send(&async_);
}

void ShellConnections::ConnReleased(plinth_conn_t* conn, uint64_t total) {
  auto* c = static_cast<Client*>(conn->owner);
  uint64_t seen = c->io.released.load(std::memory_order_relaxed);
  while (seen < total &&
         !c->io.released.compare_exchange_weak(seen, total, std::memory_order_acq_rel)) {
  }
  ConnNotify(conn, kConnReleasedEvent);
}

void ShellConnections::RunNotified() {
  size_t n;
  {
    std::lock_guard<std::mutex> lock(mu_);
    n = notified_.size();
  }
  // One at a time: handling one connection may free another, which then leaves the list.
  for (; n > 0; --n) {
    Client* c;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (notified_.empty()) return;
      c = notified_.front();
      notified_.pop_front();
    }
    ClientHandleEvents(c, c->io.notified.exchange(0, std::memory_order_acq_rel));
  }
}

void ShellConnections::Forget(Client* c) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find(notified_.begin(), notified_.end(), c);
  if (it != notified_.end()) notified_.erase(it);
}

int32_t ShellConnections::WriteRaw(uint64_t id, const char* data, size_t len) {
  auto it = clients_.by_id.find(id);
  if (it == clients_.by_id.end() || it->second->state.closed || it->second->state.close_asap)
    return PLINTH_ERR;
  Client* c = it->second;
  if (!ClientAppendRaw(c, data, len) || !ClientCheckOutputLimits(c)) return PLINTH_ERR;
  ClientQueueWrite(c);
  return PLINTH_OK;
}

int64_t ShellConnections::OutputPending(uint64_t id) {
  auto it = clients_.by_id.find(id);
  if (it == clients_.by_id.end() || it->second->state.closed) return -1;
  return static_cast<int64_t>(it->second->out.bytes);
}

int32_t ShellConnections::CloseClient(uint64_t id, bool now) {
  auto it = clients_.by_id.find(id);
  if (it == clients_.by_id.end() || it->second->state.closed) return PLINTH_ERR;
  Client* c = it->second;
  if (now || c->out.bytes == 0) {
    ClientClose(c);
  } else {
    c->session.close_after_reply = true;
    ClientQueueWrite(c);
  }
  return PLINTH_OK;
}

}  // namespace plinth::host
