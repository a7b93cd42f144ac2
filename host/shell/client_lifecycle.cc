// A client's life cycle: created for an accepted connection, closed at once or once no command
// runs, freed once no IO job holds it; and its CLIENT LIST line. Main thread.
#include <string>

#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

void OnPollClosed(uv_handle_t* h) { delete static_cast<Client*>(h->data); }

}  // namespace

Client* ClientCreate(Shell& s, int32_t transport_id, void* conn, int fd, const char* peer,
                     const char* local, uint32_t flags) {
  auto* c = new Client(&s);
  c->session.id = s.clients.next_id++;
  c->conn.transport_id = transport_id;
  c->conn.transport = s.core.endpoints.transports[transport_id].get();
  c->conn.handle = conn;
  c->conn.host_conn.connections = &s.connections;
  c->conn.host_conn.owner = c;
  c->conn.fd = fd;
  c->conn.notifies_writable =
      fd < 0 || (c->conn.transport->spec.flags & PLINTH_TRANSPORT_POLL_READ_ONLY);
  c->conn.peer = peer;
  c->conn.local = local;
  c->conn.flags = flags;
  c->session.local = (flags & PLINTH_CONN_LOCAL) != 0;
  c->state.ctime_ms = c->session.last_interaction_ms = s.core.server.NowMs();
  const Protocol* proto = s.core.endpoints.protocol.get();
  c->conn.proto_session = proto->spec.session_create(proto->spec.ctx);
  if (fd >= 0) {
    uv_poll_init(s.loop, &c->conn.poll, fd);
    c->conn.poll.data = c;
  }
  s.clients.by_id.emplace(c->session.id, c);
  if (!c->conn.proto_session) {
    s.core.server.Log(LogLevel::kWarning, "Out of memory for the protocol state of client id=%llu",
                      static_cast<unsigned long long>(c->session.id));
    ClientClose(c);
    return nullptr;
  }
  if (c->conn.transport->spec.attach)
    c->conn.transport->spec.attach(c->conn.transport->spec.ctx, conn, &c->conn.host_conn);
  ClientSetPollEvents(c, UV_READABLE);
  return c;
}

void ClientCloseAsync(Client* c) {
  if (c->state.closed || c->state.close_asap) return;
  c->state.close_asap = true;
  c->state.no_output = true;
  c->session.close_after_reply = true;  // runs and reads nothing more
  c->shell->clients.to_close.push_back(c);
}

void ClientClose(Client* c) {
  if (c->state.closed) return;
  if (c->shell->core.dispatch.Executing()) return ClientCloseAsync(c);
  ClientCloseNow(c);
}

void ClientCloseNow(Client* c) {
  if (c->state.closed) return;
  Shell& s = *c->shell;
  c->state.closed = true;
  if (c->state.close_asap) {
    for (Client*& p : s.clients.to_close)
      if (p == c) p = nullptr;
  }
  s.clients.by_id.erase(c->session.id);
  if (c->state.in_pending_writes) {
    for (Client*& p : s.clients.pending_writes)
      if (p == c) p = nullptr;
  }
  if (c->state.in_yielded_writes) {
    for (Client*& p : s.clients.yielded_writes)
      if (p == c) p = nullptr;
  }
  if (c->state.in_unblocked) {
    for (Client*& p : s.clients.unblocked)
      if (p == c) p = nullptr;
  }
  s.core.sessions.SessionClosed(c->session);
  if (c->conn.fd >= 0) uv_poll_stop(&c->conn.poll);
  if (c->io.job == ClientIo::kIdle) ClientFinishClose(c);  // else when its job comes back
}

void ClientFinishClose(Client* c) {
  Shell& s = *c->shell;
  // The transport first: once its close returns it reads none of the buffers below.
  if (c->conn.transport) c->conn.transport->spec.close(c->conn.transport->spec.ctx, c->conn.handle);
  ClientFreeOutput(c);
  for (RetiredSeg& r : c->out.retired) ClientFreeSeg(r.seg);
  c->out.retired.clear();
  if (const Protocol* proto = s.core.endpoints.protocol.get())
    proto->spec.session_destroy(proto->spec.ctx, c->conn.proto_session);
  s.connections.Forget(c);
  // Freed once the callers up the stack, which may still look at c->state.closed, are done.
  if (c->conn.fd >= 0)
    uv_close(reinterpret_cast<uv_handle_t*>(&c->conn.poll), OnPollClosed);
  else if (s.core.server.env().scheduler->Post([](void* p) { delete static_cast<Client*>(p); },
                                               c) != PLINTH_OK)
    delete c;  // shutting down: nothing runs after this
}

std::string ClientDescribe(const Client* c) {
  int64_t now = c->shell->core.server.NowMs();
  ConnFields f;
  f.addr = c->conn.peer;
  f.laddr = c->conn.local;
  f.fd = c->conn.fd;
  f.age_s = (now - c->state.ctime_ms) / 1000;
  f.idle_s = (now - c->session.last_interaction_ms) / 1000;
  if (c->io.job != ClientIo::kRead) {  // an IO thread owns the query buffer while it reads
    f.qbuf = c->query.len - c->query.pos;
    f.qbuf_free = c->query.cap - c->query.len;
    f.rbs = c->query.cap;
  }
  f.io_thread = c->io.thread;
  f.oll = c->out.segs.size();
  f.omem = c->out.bytes;
  f.tot_mem = f.rbs + c->out.bytes + sizeof(Client);
  return ClientListLine(c->session, f);
}

}  // namespace plinth::host
