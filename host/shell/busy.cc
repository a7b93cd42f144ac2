// Serving the other clients while a command runs long (call_yield, a busy script): one
// non-blocking poll of the listeners and idle connections, reads and runs what they sent
// inline (the core refuses every command without PLINTH_CMD_ALLOW_BUSY), and writes their
// replies at once. The loop is not re-entered: libuv's handles are left alone, the fds are
// polled directly. Main thread only.
#include <poll.h>

#include <vector>

#include "host/shell/client.h"
#include "host/shell/server.h"
#include "host/shell/shell_process.h"

namespace plinth::host {

void ShellProcess::ServeWhileBusy(uint64_t caller) {
  if (serving_busy_ || shell_.ShuttingDown()) return;
  const std::vector<Listener*>& listeners = shell_.listeners.all();
  serving_busy_ = true;
  std::vector<pollfd> fds;
  std::vector<Client*> polled;
  fds.reserve(listeners.size() + shell_.clients.by_id.size());
  for (Listener* l : listeners) fds.push_back({l->fd, POLLIN, 0});
  for (auto& [id, c] : shell_.clients.by_id) {
    // The busy command's own client waits; so do connections with no descriptor to poll and
    // those an IO thread or a blocked command holds.
    if (id == caller || c->conn.fd < 0 || c->state.closed || c->io.job != ClientIo::kIdle ||
        c->session.block || c->session.close_after_reply)
      continue;
    fds.push_back({c->conn.fd, POLLIN, 0});
    polled.push_back(c);
  }
  if (poll(fds.data(), fds.size(), 0) > 0) {
    const size_t nl = listeners.size();
    std::vector<Client*> served;
    for (size_t i = 0; i < polled.size(); ++i) {
      Client* c = polled[i];
      if (!(fds[nl + i].revents & (POLLIN | POLLHUP | POLLERR)) || c->state.closed) continue;
      ClientReadInline(c);
      if (!c->state.closed) served.push_back(c);
    }
    for (Client* c : served)
      if (!c->state.closed && c->out.bytes) ClientWriteInline(c);
    // New connections last: their first commands come in a later call.
    for (size_t i = 0; i < nl && i < listeners.size(); ++i)
      if (fds[i].revents & POLLIN) AcceptConnections(listeners[i]);
  }
  serving_busy_ = false;
}

}  // namespace plinth::host
