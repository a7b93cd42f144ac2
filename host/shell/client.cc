// Client input in stages: read into the query buffer, parse into a batch, execute each request
// in the core (its replies go to the client's sink, client_output.cc); and the poll and
// connection events that start them. A client's creation and close: client_lifecycle.cc.
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
  if (c->state.closed || events == c->conn.poll_events) return;
  c->conn.poll_events = events;
  if (c->conn.fd < 0) return;  // the transport notifies; poll_events says what we wait for
  const int polled = c->conn.notifies_writable ? events & ~UV_WRITABLE : events;
  if (polled)
    uv_poll_start(&c->conn.poll, polled, OnPoll);
  else
    uv_poll_stop(&c->conn.poll);
}

namespace {

// Frees the retired output segments whose bytes the transport released.
void FreeRetired(OutputQueue& out, uint64_t upto) {
  while (!out.retired.empty() && out.retired.front().end <= upto) {
    ClientFreeSeg(out.retired.front().seg);
    out.retired.pop_front();
  }
}

// Makes room for at least want more bytes in the query buffer. False when memory ran out or
// the size would not fit: the capacity doubles only while doubling cannot wrap.
bool ReserveQuery(QueryBuffer& q, size_t want) {
  if (q.pos > 0 && (q.pos == q.len || q.cap - q.len < want)) {
    std::memmove(q.buf, q.buf + q.pos, q.len - q.pos);
    q.len -= q.pos;
    q.pos = 0;
  }
  if (q.cap - q.len >= want) return true;
  if (want > SIZE_MAX / 2 - q.len) return false;
  const size_t least = q.len + want;  // at most SIZE_MAX / 2: the doubling below stops there
  size_t cap = q.cap ? q.cap : kReadChunk;
  while (cap < least) cap *= 2;
  char* p = static_cast<char*>(std::realloc(q.buf, cap));
  if (!p) return false;
  q.buf = p;
  q.cap = cap;
  return true;
}

// Stage 2: parses the complete requests in the query buffer into c's batch. An unauthenticated
// client's requests are parsed one at a time: AUTH changes the limits the next one gets.
void ParseBatch(Client* c, bool authed) {
  const Protocol* proto = c->shell->core.endpoints.protocol.get();
  QueryBuffer& q = c->query;
  Batch& b = q.batch;
  const size_t limit = authed ? kMaxBatch : 1;
  const uint32_t flags = authed ? 0 : PLINTH_PARSE_UNAUTHENTICATED;
  size_t pos = q.pos;
  while (pos < q.len && b.requests.size() < limit) {
    size_t avail = q.len - pos;
    if (q.need && avail < q.need) break;
    size_t consumed = 0, need = 0;
    plinth_request_t req{};
    req.struct_size = sizeof req;
    char err[256];
    err[0] = 0;
    int32_t rc = proto->spec.parse(proto->spec.ctx, c->conn.proto_session, q.buf + pos, avail,
                                   flags, &consumed, &need, &req, err, sizeof err);
    pos += consumed;
    if (rc == PLINTH_PARSE_OK) {
      q.need = 0;
      b.requests.push_back({static_cast<uint32_t>(b.argv.size()), req.argc});
      for (int32_t i = 0; i < req.argc; ++i) {
        const char* a = req.argv[i];
        if (a < q.buf || a > q.buf + q.len)  // parser storage: gone at the next parse
          a = b.copies.emplace_back(a, req.argvlen[i]).data();
        b.argv.push_back(a);
        b.argvlen.push_back(req.argvlen[i]);
      }
    } else if (rc == PLINTH_PARSE_NEED_MORE) {
      q.need = need;
      break;
    } else if (rc == PLINTH_PARSE_ERROR) {
      b.error = err[0] ? err : "Protocol error";
      break;
    }
  }
  q.pos = pos;
}

void ReplyProtocolError(Client* c, const std::string& err) {
  c->shell->core.dispatch.SendError(c->sink, "ERR " + err);
  c->shell->core.server.Log(LogLevel::kVerbose, "Protocol error (%s) from client: id=%llu addr=%s",
                            err.c_str(), static_cast<unsigned long long>(c->session.id),
                            c->conn.peer.c_str());
  c->session.close_after_reply = true;
}

// A blocked client's requests after the blocking one wait in its batch: their arguments are
// copied out of the query buffer, which goes on reading meanwhile (so a client that goes away
// is seen) without parsing.
void KeepRest(Client* c, size_t from) {
  Batch& b = c->query.batch;
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
  return c->out.bytes <= kUnauthOutputLimit &&
         static_cast<int64_t>(c->out.bytes) < c->shell->limits.out_floor &&
         c->out.soft_limit_since == 0 && !c->state.close_asap;
}

// Stage 3: runs the batch in order; its replies go to the client's sink (stages 4 and 5).
// Each run of up to Dispatch::kPrefetchBatch requests is looked up and has its keys prefetched
// before the first of them runs; a pipeline shares the clock readings (Dispatch::BeginRun).
void ExecuteBatch(Client* c) {
  Batch& b = c->query.batch;
  Core& core = c->shell->core;
  const size_t total = b.requests.size();
  const bool pipelined = total > 1;
  if (pipelined) core.dispatch.BeginRun();
  ParsedRequest run[Dispatch::kPrefetchBatch];
  Shell& shell = *c->shell;
  for (size_t i = 0; i < total && !c->state.closed && !c->session.close_after_reply; ++i) {
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
    if (!c->state.closed && !c->out.segs.empty() && !OutputBelowLimits(c) &&
        !ClientCheckOutputLimits(c))
      break;
  }
  if (pipelined) core.dispatch.EndRun();
  if (c->session.block) return;  // the rest runs once it is served
  if (!b.error.empty() && !c->state.closed && !c->session.close_after_reply)
    ReplyProtocolError(c, b.error);
  b.Clear();
}

// Runs the parsed batch, then parses and runs the rest of the query buffer, batch after batch.
void ProcessInput(Client* c) {
  Core& core = c->shell->core;
  while (!c->session.close_after_reply && !c->state.closed && !c->session.block) {
    if (c->query.batch.requests.empty() && c->query.batch.error.empty()) {
      if (c->query.pos >= c->query.len) break;
      ParseBatch(c, core.auth.Authenticated(c->session));
      if (c->query.batch.requests.empty() && c->query.batch.error.empty()) break;
    }
    ExecuteBatch(c);
  }
  if (c->state.closed) return;
  if (c->query.pos == c->query.len) {
    c->query.pos = c->query.len = 0;
    if (c->query.cap > kReadChunk) {  // a big request is done: give its buffer back
      std::free(c->query.buf);
      c->query.buf = nullptr;
      c->query.cap = 0;
    }
  }
}

// One read into the query buffer: the status to stop with, or kData to go on. A request the
// parser says needs more bytes than the query buffer limit allows is over the limit at once.
// Room for the rest of a long request is reserved as its bytes come, at most as much again as
// it holds, so a bulk header alone never reserves its whole length.
ReadJob::Status ReadOnce(Client* c) {
  QueryBuffer& q = c->query;
  size_t want = kReadChunk;
  size_t have = q.len - q.pos;
  if (q.need > have && q.need - have > want) {
    if (q.need > static_cast<uint64_t>(c->io.rd.query_limit)) return ReadJob::kOverLimit;
    want = std::min(q.need - have, std::max(want, have));
  }
  if (!ReserveQuery(q, want)) return ReadJob::kNoMemory;
  int64_t n = c->conn.transport->spec.read(c->conn.transport->spec.ctx, c->conn.handle,
                                           q.buf + q.len, q.cap - q.len);
  if (n == PLINTH_IO_AGAIN) return ReadJob::kAgain;
  if (n <= 0) return ReadJob::kClosed;
  q.len += static_cast<size_t>(n);
  c->io.rd.bytes += static_cast<uint64_t>(n);
  if (static_cast<int64_t>(q.len - q.pos) > c->io.rd.query_limit) return ReadJob::kOverLimit;
  return ReadJob::kData;
}

void OnPoll(uv_poll_t* h, int status, int events) {
  auto* c = static_cast<Client*>(h->data);
  if (status < 0) {
    ClientClose(c);
    return;
  }
  if (events & UV_WRITABLE) ClientFlushOutput(c);
  if ((events & UV_READABLE) && !c->state.closed && !c->session.close_after_reply)
    ClientReadable(c);
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
  ReadJob& rd = c->io.rd;
  rd.bytes = 0;
  // A polled connection is level-triggered: one read per readiness. A notifying transport
  // (or a read-only descriptor) says readable once, so read until it has nothing more.
  do {
    rd.status = ReadOnce(c);
  } while (rd.status == ReadJob::kData && c->conn.notifies_writable);
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
  const ReadJob& rd = c->io.rd;
  const bool resume = std::exchange(c->state.resume_input, false);
  s.core.server.stats.net_input_bytes += rd.bytes;
  if (rd.bytes) c->session.last_interaction_ms = s.core.server.NowMs();
  switch (rd.status) {
    case ReadJob::kAgain:
      if (resume) ProcessInput(c);
      if (c->state.closed) return;
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
      if (c->state.closed) return;
      // A request longer than the limit allows is refused now, not once its bytes have come.
      if (c->query.need > static_cast<uint64_t>(s.limits.query_buffer)) {
        CloseOverQueryLimit(c);
        return;
      }
      if (c->session.close_after_reply) ClientSetPollEvents(c, c->conn.poll_events & ~UV_READABLE);
      break;
  }
  // Its replies, or output other clients' commands gave it while an IO thread was reading.
  if (c->out.bytes) ClientQueueWrite(c);
}

// Sets up c's read job: how to parse and its limit.
static void PrepareRead(Client* c) {
  Shell& s = *c->shell;
  c->io.rd.authed = s.core.auth.Authenticated(c->session);
  c->state.ever_authed |= c->io.rd.authed;
  c->io.rd.parse = !c->session.block;
  c->io.rd.query_limit = s.limits.query_buffer;
}

void ClientReadable(Client* c) {
  if (c->io.job != ClientIo::kIdle) {  // its job comes back first
    c->io.deferred_events |= PLINTH_CONN_READABLE;
    return;
  }
  PrepareRead(c);
  if (c->shell->io.Submit(c, ClientIo::kRead)) return;
  c->io.thread = 0;
  ClientReadInput(c);
  ClientApplyRead(c);
}

void ClientReadInline(Client* c) {
  if (c->io.job != ClientIo::kIdle) return;
  PrepareRead(c);
  c->io.thread = 0;
  ClientReadInput(c);
  ClientApplyRead(c);
}

void ClientResume(Client* c) {
  if (c->state.closed) return;
  ClientQueueWrite(c);
  if (c->io.job == ClientIo::kRead) {  // it owns the query buffer: go on when it comes back
    c->state.resume_input = true;
    return;
  }
  ProcessInput(c);
  if (!c->state.closed && c->out.bytes) ClientQueueWrite(c);
}

void ClientQueueWrite(Client* c) {
  if (c->state.in_pending_writes || c->state.closed) return;
  c->state.in_pending_writes = true;
  c->shell->clients.pending_writes.push_back(c);
}

void ClientQueueYieldedWrite(Client* c) {
  if (c->state.in_yielded_writes || c->state.closed) return;
  c->state.in_yielded_writes = true;
  c->shell->clients.yielded_writes.push_back(c);
}

void ClientHandleEvents(Client* c, uint32_t events) {
  if (c->state.closed) return;
  if (c->io.job != ClientIo::kIdle) {
    c->io.deferred_events |= events;
    return;
  }
  if (events & kConnReleasedEvent)
    FreeRetired(c->out, c->io.released.load(std::memory_order_acquire));
  if (events & PLINTH_CONN_CLOSED) {
    ClientClose(c);
    return;
  }
  if ((events & PLINTH_CONN_WRITABLE) && (c->conn.poll_events & UV_WRITABLE)) ClientFlushOutput(c);
  if ((events & PLINTH_CONN_READABLE) && !c->state.closed && !c->session.close_after_reply &&
      (c->conn.poll_events & UV_READABLE))
    ClientReadable(c);
}

}  // namespace plinth::host
