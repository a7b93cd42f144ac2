// Client output, the write path: the output queue is written before the loop next polls, with
// the transport's writev, by an IO thread or inline. A write in flight owns the segments it
// covers; written bytes leave the queue (or wait for a transport that holds them). Main thread
// but for ClientWriteOutput.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "host/core/value.h"
#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

// Bytes one write turn sends to a polled connection before the thread moves on to others.
constexpr size_t kWriteTurn = size_t{256} * 1024;

void ReleaseFills(std::vector<OutFill>& fills) {
  for (const OutFill& f : fills) ValueRelease(f.value);
  fills.clear();
}

// Inlined into ClientApplyWrite, which empties the queue after every complete write.
[[gnu::always_inline]] inline void FreeOutput(OutputQueue& out) {
  if (!out.fills.empty()) ReleaseFills(out.fills);  // left only by a queue dropped unwritten
  for (OutSeg& seg : out.segs) ClientFreeSeg(seg);
  out.segs.clear();
  out.bytes = 0;
}

}  // namespace

void ClientFreeSeg(OutSeg& seg) {
  if (seg.cap)
    std::free(seg.data);
  else if (seg.release)
    seg.release(seg.release_arg);
}

void ClientFreeOutput(Client* c) {
  ReleaseFills(c->io.wr.fills);
  FreeOutput(c->out);
}

bool ClientPrepareWrite(Client* c) {
  WriteJob& wr = c->io.wr;
  OutputQueue& out = c->out;
  int n = 0;
  size_t covered = 0, total = 0;
  for (auto it = out.segs.begin(); it != out.segs.end() && n < kMaxIov; ++it, ++covered) {
    if (it->len == it->sent) continue;
    wr.iov[n].base = it->data + it->sent;
    wr.iov[n].len = it->len - it->sent;
    total += wr.iov[n].len;
    ++n;
  }
  wr.iovcnt = n;
  wr.total = total;
  wr.covered = covered;
  if (out.fills.empty()) return n > 0;
  // The fills of the covered segments go with the write; they are the first ones.
  size_t f = 0;
  auto seg = out.segs.begin();
  for (size_t i = 0; i < covered && f < out.fills.size(); ++i, ++seg)
    while (f < out.fills.size() && out.fills[f].seg == &*seg) ++f;
  if (f == out.fills.size()) {
    wr.fills.swap(out.fills);
  } else if (f) {
    wr.fills.assign(out.fills.begin(), out.fills.begin() + static_cast<ptrdiff_t>(f));
    out.fills.erase(out.fills.begin(), out.fills.begin() + static_cast<ptrdiff_t>(f));
  }
  return n > 0;
}

void ClientWriteOutput(Client* c) {
  WriteJob& wr = c->io.wr;
  const plinth_transport_spec_t& t = c->conn.transport->spec;
  plinth_iovec_t* iov = wr.iov;
  int32_t n = wr.iovcnt;
  wr.bytes = 0;
  wr.status = 0;
  wr.yielded = false;
  for (const OutFill& f : wr.fills)
    std::memcpy(f.seg->data + f.off, StringData(f.value), StringLen(f.value));
  ReleaseFills(wr.fills);
  // A polled connection yields after kWriteTurn bytes, so one huge reply does not hold the
  // thread while other clients wait; a notifying transport queues without blocking anyway.
  size_t budget = c->conn.notifies_writable ? SIZE_MAX : kWriteTurn;
  // A tail under a quarter turn goes now, not in a turn of its own.
  if (budget != SIZE_MAX && wr.total % kWriteTurn < kWriteTurn / 4) budget += wr.total % kWriteTurn;
  while (n > 0) {
    int32_t m = 0;  // the iovecs that fit the budget, the last one clipped
    size_t sum = 0;
    while (m < n && sum < budget) sum += iov[m++].len;
    const size_t over = sum > budget ? sum - budget : 0;
    iov[m - 1].len -= over;
    int64_t w = t.writev(t.ctx, c->conn.handle, iov, m);
    iov[m - 1].len += over;
    if (w <= 0) {  // taking nothing is "not now" too
      wr.status = w == PLINTH_IO_AGAIN || w == 0 ? PLINTH_IO_AGAIN : PLINTH_IO_ERROR;
      return;
    }
    wr.bytes += static_cast<uint64_t>(w);
    size_t left = static_cast<size_t>(w);
    budget -= std::min(budget, left);
    while (n > 0 && left >= iov->len) {
      left -= iov->len;
      ++iov;
      --n;
    }
    if (n > 0) {
      iov->base = static_cast<const char*>(iov->base) + left;
      iov->len -= left;
      if (budget == 0) {
        wr.yielded = true;
        return;
      }
    }
  }
}

bool ClientApplyWrite(Client* c) {
  Shell& s = *c->shell;
  const WriteJob& wr = c->io.wr;
  OutputQueue& out = c->out;
  const bool holds = c->conn.transport->spec.flags & PLINTH_TRANSPORT_HOLDS_BUFFERS;
  s.core.server.stats.net_output_bytes += wr.bytes;
  out.bytes -= static_cast<size_t>(wr.bytes);
  out.written += wr.bytes;
  size_t left = static_cast<size_t>(wr.bytes);
  while (left && !out.segs.empty()) {
    OutSeg& seg = out.segs.front();
    size_t take = std::min(left, seg.len - seg.sent);
    seg.sent += take;
    left -= take;
    if (seg.sent < seg.len) break;
    if (holds)  // the transport may still read it
      out.retired.push_back({seg, out.written - left});
    else
      ClientFreeSeg(seg);
    out.segs.pop_front();
  }
  if (wr.status == PLINTH_IO_ERROR) {
    ClientClose(c);
    return false;
  }
  if (out.bytes == 0) {
    FreeOutput(out);
    out.soft_limit_since = 0;
    if (c->session.close_after_reply) {
      ClientClose(c);
      return false;
    }
    ClientSetPollEvents(c, c->conn.poll_events & ~UV_WRITABLE);
  } else if (wr.yielded) {  // the connection takes more: the next turn needs no poll for it
    ClientSetPollEvents(c, c->conn.poll_events & ~UV_WRITABLE);
    ClientQueueYieldedWrite(c);
  } else if (wr.status == PLINTH_IO_AGAIN) {
    ClientSetPollEvents(c, c->conn.poll_events | UV_WRITABLE);
  }
  return true;
}

namespace {

// Writes inline: c->io.wr when "have" (prepared), then the rest of the queue, until the
// connection takes no more. Returns false when c was closed.
bool WritePrepared(Client* c, bool have) {
  for (;;) {
    if (have) {
      ClientWriteOutput(c);
    } else {  // nothing to send: settle the empty queue
      c->io.wr.bytes = 0;
      c->io.wr.status = 0;
    }
    if (!ClientApplyWrite(c)) return false;
    if (!have || c->io.wr.status != 0 || c->io.wr.yielded || c->out.bytes == 0) return true;
    have = ClientPrepareWrite(c);
  }
}

}  // namespace

void ClientFlushOutput(Client* c) {
  // A job in flight queues the next write.
  if (c->state.closed || c->io.job != ClientIo::kIdle) return;
  // No reply goes out before the effects of its command reached the stream's consumers
  // (appendfsync always makes them durable there).
  Core& core = c->shell->core;
  if (core.propagation.stream.Pending()) core.server.BeforeSleep();
  const bool have = ClientPrepareWrite(c);
  if (have && c->shell->io.Submit(c, ClientIo::kWrite)) return;
  c->io.thread = 0;
  WritePrepared(c, have);
}

void ClientWriteInline(Client* c) {
  if (c->state.closed || c->io.job != ClientIo::kIdle) return;
  const bool have = ClientPrepareWrite(c);
  c->io.thread = 0;
  WritePrepared(c, have);
}

}  // namespace plinth::host
