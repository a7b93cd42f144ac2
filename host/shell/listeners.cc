// Listening sockets: polling them, accepting or refusing their connections, INFO tcp_port.
#include "host/shell/listeners.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>

#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

const char kProtectedMode[] =
    "DENIED Running in protected mode because protected mode is enabled and no password is set "
    "for the default user. In this mode connections are only accepted from the loopback "
    "interface. If you want to connect from external computers, you may set a password with "
    "requirepass, or disable protected mode with 'CONFIG SET protected-mode no'.";

// Answers a refused connection with an error reply in the protocol's encoding, then closes it.
void Refuse(Shell& s, const Transport* t, void* conn, std::string_view msg) {
  s.core.server.stats.rejected_connections++;
  const Protocol* proto = s.core.endpoints.protocol.get();
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_ERROR;
  item.data = msg.data();
  item.len = msg.size();
  plinth_outbuf_t out{sizeof out, nullptr, 0, 0, ClientGrowOut, nullptr};
  if (proto->spec.encode(proto->spec.ctx, 2, &item, &out) == PLINTH_OK) {
    plinth_iovec_t iov{out.data, out.len};
    t->spec.writev(t->spec.ctx, conn, &iov, 1);
  }
  std::free(out.data);
  t->spec.close(t->spec.ctx, conn);
}

void OnAccept(uv_poll_t* h, int status, int) {
  if (status >= 0) AcceptConnections(static_cast<Listener*>(h->data));
}

}  // namespace

void AcceptConnections(Listener* l) {
  Shell& s = *l->shell;
  const Transport* t = s.core.endpoints.transports[l->transport_id].get();
  for (int i = 0; i < 64 && t; ++i) {  // bounded: other work gets its turn
    void* conn = nullptr;
    int32_t fd = -1;
    char peer[128] = "", local[128] = "";
    uint32_t flags = 0;
    int32_t rc = t->spec.accept(t->spec.ctx, l->fd, &conn, &fd, peer, sizeof peer, local,
                                sizeof local, &flags);
    if (rc != PLINTH_OK) return;
    s.core.server.stats.connections_received++;
    if (static_cast<int64_t>(s.clients.by_id.size()) >= s.limits.maxclients)
      Refuse(s, t, conn, "ERR max number of clients reached");
    else if (s.limits.protected_mode && !s.core.auth.DefaultNeedsAuth() &&
             !(flags & PLINTH_CONN_LOCAL))
      Refuse(s, t, conn, kProtectedMode);
    else
      ClientCreate(s, l->transport_id, conn, fd, peer, local, flags);
  }
}

int32_t ListenerSet::Add(int32_t transport_id, int32_t fd, const char* description) {
  auto* l = new Listener();
  l->shell = &shell_;
  l->transport_id = transport_id;
  l->fd = fd;
  l->description = description ? description : "";
  if (uv_poll_init(shell_.loop, &l->poll, fd) != 0) {
    delete l;
    return PLINTH_ERR;
  }
  l->poll.data = l;
  uv_poll_start(&l->poll, UV_READABLE, OnAccept);
  listeners_.push_back(l);
  return PLINTH_OK;
}

void ListenerSet::CloseAll() {
  for (Listener* l : listeners_) {
    uv_poll_stop(&l->poll);
    uv_close(reinterpret_cast<uv_handle_t*>(&l->poll),
             [](uv_handle_t* h) { delete static_cast<Listener*>(h->data); });
  }
  listeners_.clear();
}

int64_t ListenerSet::TcpPort() const {
  for (const Listener* l : listeners_) {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    int type = 0;
    socklen_t tlen = sizeof type;
    if (getsockname(l->fd, reinterpret_cast<sockaddr*>(&a), &len) != 0 ||
        getsockopt(l->fd, SOL_SOCKET, SO_TYPE, &type, &tlen) != 0 || type != SOCK_STREAM)
      continue;
    if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&a)->sin_port);
    if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&a)->sin6_port);
  }
  return 0;
}

}  // namespace plinth::host
