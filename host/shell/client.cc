// Client input in stages: read into the query buffer, parse into a batch, execute each request
// in the core (its replies go to the client's sink, client_output.cc); plus the client's
// lifecycle and CLIENT LIST line.
#include "host/shell/client.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "host/shell/server.h"

namespace plinth::host {
namespace {

constexpr size_t kReadChunk = size_t{16} * 1024;
constexpr size_t kMaxBatch = 1024;  // requests parsed ahead of execution

void OnPoll(uv_poll_t* h, int status, int events);

}  // namespace

void ClientSetPollEvents(Client* c, int events) {
  if (c->closed || events == c->poll_events) return;
  c->poll_events = events;
  if (c->fd < 0) return;  // the transport notifies; poll_events says what we wait for
  const int polled = c->notifies_writable ? events & ~UV_WRITABLE : events;
  if (polled)
    uv_poll_start(&c->poll, polled, OnPoll);
  else
    uv_poll_stop(&c->poll);
}

namespace {

void OnPollClosed(uv_handle_t* h) { delete static_cast<Client*>(h->data); }

// Frees the retired output segments whose bytes the transport released.
void FreeRetired(Client* c, uint64_t upto) {
  while (!c->retired.empty() && c->retired.front().end <= upto) {
    ClientFreeSeg(c->retired.front().seg);
    c->retired.pop_front();
  }
}

// Makes room for at least want more bytes in the query buffer. False when memory ran out or
// the size would not fit: the capacity doubles only while doubling cannot wrap.
bool ReserveQuery(Client* c, size_t want) {
  if (c->qpos > 0 && (c->qpos == c->qlen || c->qcap - c->qlen < want)) {
    std::memmove(c->qbuf, c->qbuf + c->qpos, c->qlen - c->qpos);
    c->qlen -= c->qpos;
    c->qpos = 0;
  }
  if (c->qcap - c->qlen >= want) return true;
  if (want > SIZE_MAX / 2 - c->qlen) return false;
  const size_t least = c->qlen + want;  // at most SIZE_MAX / 2: the doubling below stops there
  size_t cap = c->qcap ? c->qcap : kReadChunk;
  while (cap < least) cap *= 2;
  char* p = static_cast<char*>(std::realloc(c->qbuf, cap));
  if (!p) return false;
  c->qbuf = p;
  c->qcap = cap;
  return true;
}

// Stage 2: parses the complete requests in the query buffer into c's batch. An unauthenticated
// client's requests are parsed one at a time: AUTH changes the limits the next one gets.
void ParseBatch(Client* c, bool authed) {
  const Protocol* proto = c->shell->core.endpoints.protocol.get();
  Batch& b = c->batch;
  const size_t limit = authed ? kMaxBatch : 1;
  const uint32_t flags = authed ? 0 : PLINTH_PARSE_UNAUTHENTICATED;
  size_t pos = c->qpos;
  while (pos < c->qlen && b.requests.size() < limit) {
    size_t avail = c->qlen - pos;
    if (c->need && avail < c->need) break;
    size_t consumed = 0, need = 0;
    plinth_request_t req{};
    req.struct_size = sizeof req;
    char err[256];
    err[0] = 0;
    int32_t rc = proto->spec.parse(proto->spec.ctx, c->proto_session, c->qbuf + pos, avail, flags,
                                   &consumed, &need, &req, err, sizeof err);
    pos += consumed;
    if (rc == PLINTH_PARSE_OK) {
      c->need = 0;
      b.requests.push_back({static_cast<uint32_t>(b.argv.size()), req.argc});
      for (int32_t i = 0; i < req.argc; ++i) {
        const char* a = req.argv[i];
        if (a < c->qbuf || a > c->qbuf + c->qlen)  // parser storage: gone at the next parse
          a = b.copies.emplace_back(a, req.argvlen[i]).data();
        b.argv.push_back(a);
        b.argvlen.push_back(req.argvlen[i]);
      }
    } else if (rc == PLINTH_PARSE_NEED_MORE) {
      c->need = need;
      break;
    } else if (rc == PLINTH_PARSE_ERROR) {
      b.error = err[0] ? err : "Protocol error";
      break;
    }
  }
  c->qpos = pos;
}

void ReplyProtocolError(Client* c, const std::string& err) {
  c->shell->core.dispatch.SendError(c->sink, "ERR " + err);
  c->shell->core.server.Log(LogLevel::kVerbose, "Protocol error (%s) from client: id=%llu addr=%s",
                            err.c_str(), static_cast<unsigned long long>(c->session.id),
                            c->peer.c_str());
  c->session.close_after_reply = true;
}

// A blocked client's requests after the blocking one wait in its batch: their arguments are
// copied out of the query buffer, which goes on reading meanwhile (so a client that goes away
// is seen) without parsing.
void KeepRest(Client* c, size_t from) {
  Batch& b = c->batch;
  for (size_t r = from; r < b.requests.size(); ++r) {
    const Batch::Request& q = b.requests[r];
    for (int32_t k = 0; k < q.argc; ++k) {
      const size_t i = q.first + static_cast<size_t>(k);
      b.argv[i] = b.copies.emplace_back(b.argv[i], b.argvlen[i]).data();
    }
  }
  b.requests.erase(b.requests.begin(), b.requests.begin() + static_cast<std::ptrdiff_t>(from));
}

// Whether c's output is below every limit that could close it: the common case, one comparison
// each on the request path (ClientCheckOutputLimits decides the rest).
inline bool OutputBelowLimits(const Client* c) {
  return c->out_bytes <= kUnauthOutputLimit &&
         static_cast<int64_t>(c->out_bytes) < c->shell->limits.out_floor &&
         c->soft_limit_since == 0 && !c->close_asap;
}

// Stage 3: runs the batch in order; its replies go to the client's sink (stages 4 and 5).
// Each run of up to Dispatch::kPrefetchBatch requests is looked up and has its keys prefetched
// before the first of them runs; a pipeline shares the clock readings (Core::BeginRun).
void ExecuteBatch(Client* c) {
  Batch& b = c->batch;
  Core& core = c->shell->core;
  const size_t total = b.requests.size();
  const bool pipelined = total > 1;
  if (pipelined) core.dispatch.BeginRun();
  ParsedRequest run[Dispatch::kPrefetchBatch];
  Shell& shell = *c->shell;
  for (size_t i = 0; i < total && !c->closed && !c->session.close_after_reply; ++i) {
    const size_t j = i % Dispatch::kPrefetchBatch;
    if (j == 0) {
      const size_t n = std::min(total - i, Dispatch::kPrefetchBatch);
      for (size_t k = 0; k < n; ++k) {
        const Batch::Request& r = b.requests[i + k];
        run[k] = {r.argc, &b.argv[r.first], &b.argvlen[r.first], nullptr, false, 0};
      }
      if (pipelined)  // a lone request is looked up by Execute
        core.dispatch.Prefetch(c->session, run, n,
                               !c->shell->io.Active());  // IO threads copy values
    }
    core.dispatch.Execute(c->session, c->sink, run[j]);
    // Clients closed during the command (c among them, maybe) go now that it has returned.
    if (!shell.clients.to_close.empty()) shell.writes.CloseDeferred();
    if (c->session.block) {
      KeepRest(c, i + 1);
      break;
    }
    if (!c->closed && !c->out.empty() && !OutputBelowLimits(c) && !ClientCheckOutputLimits(c))
      break;
  }
  if (pipelined) core.dispatch.EndRun();
  if (c->session.block) return;  // the rest runs once it is served
  if (!b.error.empty() && !c->closed && !c->session.close_after_reply)
    ReplyProtocolError(c, b.error);
  b.Clear();
}

// Runs the parsed batch, then parses and runs the rest of the query buffer, batch after batch.
void ProcessInput(Client* c) {
  Core& core = c->shell->core;
  while (!c->session.close_after_reply && !c->closed && !c->session.block) {
    if (c->batch.requests.empty() && c->batch.error.empty()) {
      if (c->qpos >= c->qlen) break;
      ParseBatch(c, core.auth.Authenticated(c->session));
      if (c->batch.requests.empty() && c->batch.error.empty()) break;
    }
    ExecuteBatch(c);
  }
  if (c->closed) return;
  if (c->qpos == c->qlen) {
    c->qpos = c->qlen = 0;
    if (c->qcap > kReadChunk) {  // a big request is done: give its buffer back
      std::free(c->qbuf);
      c->qbuf = nullptr;
      c->qcap = 0;
    }
  }
}

// One read into the query buffer: the status to stop with, or kData to go on. A request the
// parser says needs more bytes than the query buffer limit allows is over the limit at once.
// Room for the rest of a long request is reserved as its bytes come, at most as much again as
// it holds, so a bulk header alone never reserves its whole length.
ReadJob::Status ReadOnce(Client* c) {
  size_t want = kReadChunk;
  size_t have = c->qlen - c->qpos;
  if (c->need > have && c->need - have > want) {
    if (c->need > static_cast<uint64_t>(c->rd.query_limit)) return ReadJob::kOverLimit;
    want = std::min(c->need - have, std::max(want, have));
  }
  if (!ReserveQuery(c, want)) return ReadJob::kNoMemory;
  int64_t n = c->transport->spec.read(c->transport->spec.ctx, c->conn, c->qbuf + c->qlen,
                                      c->qcap - c->qlen);
  if (n == PLINTH_IO_AGAIN) return ReadJob::kAgain;
  if (n <= 0) return ReadJob::kClosed;
  c->qlen += static_cast<size_t>(n);
  c->rd.bytes += static_cast<uint64_t>(n);
  if (static_cast<int64_t>(c->qlen - c->qpos) > c->rd.query_limit) return ReadJob::kOverLimit;
  return ReadJob::kData;
}

void OnPoll(uv_poll_t* h, int status, int events) {
  auto* c = static_cast<Client*>(h->data);
  if (status < 0) {
    ClientClose(c);
    return;
  }
  if (events & UV_WRITABLE) ClientFlushOutput(c);
  if ((events & UV_READABLE) && !c->closed && !c->session.close_after_reply) ClientReadable(c);
}

}  // namespace

void Batch::Clear() {
  requests.clear();
  argv.clear();
  argvlen.clear();
  if (!copies.empty()) copies.clear();
  if (!error.empty()) error.clear();
}

void ClientReadInput(Client* c) {
  ReadJob& rd = c->rd;
  rd.bytes = 0;
  // A polled connection is level-triggered: one read per readiness. A notifying transport
  // (or a read-only descriptor) says readable once, so read until it has nothing more.
  do {
    rd.status = ReadOnce(c);
  } while (rd.status == ReadJob::kData && c->notifies_writable);
  if (rd.status == ReadJob::kAgain && rd.bytes) rd.status = ReadJob::kData;
  if (rd.status == ReadJob::kData && rd.parse) ParseBatch(c, rd.authed);
}

static void CloseOverQueryLimit(Client* c) {
  Core& core = c->shell->core;
  core.server.Log(LogLevel::kWarning, "Closing client that reached max query buffer length: %s",
                  ClientDescribe(c).c_str());
  core.server.stats.query_buffer_disconnections++;
  ClientClose(c);
}

void ClientApplyRead(Client* c) {
  Shell& s = *c->shell;
  const ReadJob& rd = c->rd;
  const bool resume = std::exchange(c->resume_input, false);
  s.core.server.stats.net_input_bytes += rd.bytes;
  if (rd.bytes) c->session.last_interaction_ms = s.core.server.NowMs();
  switch (rd.status) {
    case ReadJob::kAgain:
      if (resume) ProcessInput(c);
      if (c->closed) return;
      break;
    case ReadJob::kClosed:
      ClientClose(c);
      return;
    case ReadJob::kNoMemory:
      s.core.server.Log(LogLevel::kWarning, "Out of memory for the query buffer of client id=%llu",
                        static_cast<unsigned long long>(c->session.id));
      ClientClose(c);
      return;
    case ReadJob::kOverLimit:
      CloseOverQueryLimit(c);
      return;
    case ReadJob::kData:
      ProcessInput(c);
      if (c->closed) return;
      // A request longer than the limit allows is refused now, not once its bytes have come.
      if (c->need > static_cast<uint64_t>(s.limits.query_buffer)) {
        CloseOverQueryLimit(c);
        return;
      }
      if (c->session.close_after_reply) ClientSetPollEvents(c, c->poll_events & ~UV_READABLE);
      break;
  }
  // Its replies, or output other clients' commands gave it while an IO thread was reading.
  if (c->out_bytes) ClientQueueWrite(c);
}

// Sets up c's read job: how to parse and its limit.
static void PrepareRead(Client* c) {
  Shell& s = *c->shell;
  c->rd.authed = s.core.auth.Authenticated(c->session);
  c->ever_authed |= c->rd.authed;
  c->rd.parse = !c->session.block;
  c->rd.query_limit = s.limits.query_buffer;
}

void ClientReadable(Client* c) {
  if (c->io != ClientIo::kIdle) {  // its job comes back first
    c->deferred_events |= PLINTH_CONN_READABLE;
    return;
  }
  PrepareRead(c);
  if (c->shell->io.Submit(c, ClientIo::kRead)) return;
  c->io_thread = 0;
  ClientReadInput(c);
  ClientApplyRead(c);
}

void ClientReadInline(Client* c) {
  if (c->io != ClientIo::kIdle) return;
  PrepareRead(c);
  c->io_thread = 0;
  ClientReadInput(c);
  ClientApplyRead(c);
}

void ClientResume(Client* c) {
  if (c->closed) return;
  ClientQueueWrite(c);
  if (c->io == ClientIo::kRead) {  // it owns the query buffer: go on when it comes back
    c->resume_input = true;
    return;
  }
  ProcessInput(c);
  if (!c->closed && c->out_bytes) ClientQueueWrite(c);
}

void ClientQueueWrite(Client* c) {
  if (c->in_pending_writes || c->closed) return;
  c->in_pending_writes = true;
  c->shell->clients.pending_writes.push_back(c);
}

void ClientQueueYieldedWrite(Client* c) {
  if (c->in_yielded_writes || c->closed) return;
  c->in_yielded_writes = true;
  c->shell->clients.yielded_writes.push_back(c);
}

void ClientHandleEvents(Client* c, uint32_t events) {
  if (c->closed) return;
  if (c->io != ClientIo::kIdle) {
    c->deferred_events |= events;
    return;
  }
  if (events & kConnReleasedEvent) FreeRetired(c, c->released.load(std::memory_order_acquire));
  if (events & PLINTH_CONN_CLOSED) {
    ClientClose(c);
    return;
  }
  if ((events & PLINTH_CONN_WRITABLE) && (c->poll_events & UV_WRITABLE)) ClientFlushOutput(c);
  if ((events & PLINTH_CONN_READABLE) && !c->closed && !c->session.close_after_reply &&
      (c->poll_events & UV_READABLE))
    ClientReadable(c);
}

Client* ClientCreate(Shell& s, int32_t transport_id, void* conn, int fd, const char* peer,
                     const char* local, uint32_t flags) {
  auto* c = new Client(&s);
  c->session.id = s.clients.next_id++;
  c->transport_id = transport_id;
  c->transport = s.core.endpoints.transports[transport_id].get();
  c->conn = conn;
  c->host_conn.connections = &s.connections;
  c->host_conn.owner = c;
  c->fd = fd;
  c->notifies_writable = fd < 0 || (c->transport->spec.flags & PLINTH_TRANSPORT_POLL_READ_ONLY);
  c->peer = peer;
  c->local = local;
  c->conn_flags = flags;
  c->session.local = (flags & PLINTH_CONN_LOCAL) != 0;
  c->ctime_ms = c->session.last_interaction_ms = s.core.server.NowMs();
  const Protocol* proto = s.core.endpoints.protocol.get();
  c->proto_session = proto->spec.session_create(proto->spec.ctx);
  if (fd >= 0) {
    uv_poll_init(s.loop, &c->poll, fd);
    c->poll.data = c;
  }
  s.clients.by_id.emplace(c->session.id, c);
  if (!c->proto_session) {
    s.core.server.Log(LogLevel::kWarning, "Out of memory for the protocol state of client id=%llu",
                      static_cast<unsigned long long>(c->session.id));
    ClientClose(c);
    return nullptr;
  }
  if (c->transport->spec.attach)
    c->transport->spec.attach(c->transport->spec.ctx, conn, &c->host_conn);
  ClientSetPollEvents(c, UV_READABLE);
  return c;
}

void ClientCloseAsync(Client* c) {
  if (c->closed || c->close_asap) return;
  c->close_asap = true;
  c->no_output = true;
  c->session.close_after_reply = true;  // runs and reads nothing more
  c->shell->clients.to_close.push_back(c);
}

void ClientClose(Client* c) {
  if (c->closed) return;
  if (c->shell->core.dispatch.Executing()) return ClientCloseAsync(c);
  ClientCloseNow(c);
}

void ClientCloseNow(Client* c) {
  if (c->closed) return;
  Shell& s = *c->shell;
  c->closed = true;
  if (c->close_asap) {
    for (Client*& p : s.clients.to_close)
      if (p == c) p = nullptr;
  }
  s.clients.by_id.erase(c->session.id);
  if (c->in_pending_writes) {
    for (Client*& p : s.clients.pending_writes)
      if (p == c) p = nullptr;
  }
  if (c->in_yielded_writes) {
    for (Client*& p : s.clients.yielded_writes)
      if (p == c) p = nullptr;
  }
  if (c->in_unblocked) {
    for (Client*& p : s.clients.unblocked)
      if (p == c) p = nullptr;
  }
  s.core.sessions.SessionClosed(c->session);
  if (c->fd >= 0) uv_poll_stop(&c->poll);
  if (c->io == ClientIo::kIdle) ClientFinishClose(c);  // else when its job comes back
}

void ClientFinishClose(Client* c) {
  Shell& s = *c->shell;
  // The transport first: once its close returns it reads none of the buffers below.
  if (c->transport) c->transport->spec.close(c->transport->spec.ctx, c->conn);
  ClientFreeOutput(c);
  FreeRetired(c, UINT64_MAX);
  if (const Protocol* proto = s.core.endpoints.protocol.get())
    proto->spec.session_destroy(proto->spec.ctx, c->proto_session);
  s.connections.Forget(c);
  // Freed once the callers up the stack, which may still look at c->closed, are done.
  if (c->fd >= 0)
    uv_close(reinterpret_cast<uv_handle_t*>(&c->poll), OnPollClosed);
  else if (s.core.server.env().scheduler->Post([](void* p) { delete static_cast<Client*>(p); },
                                               c) != PLINTH_OK)
    delete c;  // shutting down: nothing runs after this
}

std::string ClientDescribe(const Client* c) {
  int64_t now = c->shell->core.server.NowMs();
  ConnFields f;
  f.addr = c->peer;
  f.laddr = c->local;
  f.fd = c->fd;
  f.age_s = (now - c->ctime_ms) / 1000;
  f.idle_s = (now - c->session.last_interaction_ms) / 1000;
  if (c->io != ClientIo::kRead) {  // an IO thread owns the query buffer while it reads
    f.qbuf = c->qlen - c->qpos;
    f.qbuf_free = c->qcap - c->qlen;
    f.rbs = c->qcap;
  }
  f.io_thread = c->io_thread;
  f.oll = c->out.size();
  f.omem = c->out_bytes;
  f.tot_mem = f.rbs + c->out_bytes + sizeof(Client);
  return ClientListLine(c->session, f);
}

}  // namespace plinth::host
