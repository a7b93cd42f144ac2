// Client output: the client's reply sink encodes reply items into its output segments, and
// before the loop next polls they are written with the transport's writev, by an IO thread or
// inline. A write in flight owns the segments it covers; new output starts a segment after
// them.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "host/core/abi_compat.h"
#include "host/core/value.h"
#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

constexpr size_t kOutChunk = size_t{16} * 1024;
// Values at least this long are copied by the writing thread when IO threads are active;
// shorter ones cost less to copy than to reserve.
constexpr size_t kMinFill = 64;
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

// Appends an empty copy segment of cap bytes (of none when out of memory: it grows on use).
OutSeg& NewCopySeg(Client* c, size_t cap) {
  OutSeg s;
  s.data = static_cast<char*>(std::malloc(cap));
  s.cap = s.data ? cap : 0;
  c->out.segs.push_back(s);
  return c->out.segs.back();
}

// The copy segment at the tail of c's output, created when the tail is a reference, belongs to
// the write in flight, or was partly taken by a transport that still reads it (growing it
// would move those bytes).
OutSeg& TailCopySeg(Client* c) {
  if (c->out.segs.empty() || c->out.segs.back().cap == 0 ||
      (c->io.job == ClientIo::kWrite && c->out.segs.size() <= c->io.wr.covered) ||
      (c->out.segs.back().sent > 0 &&
       (c->conn.transport->spec.flags & PLINTH_TRANSPORT_HOLDS_BUFFERS)))
    return NewCopySeg(c, kOutChunk);
  return c->out.segs.back();
}

// The protocol could not encode or frame a reply: what it wrote of it is dropped, so are the
// replies after it, and the connection closes once the replies before it are written, rather
// than going on out of step with the client.
void ReplyBroken(Client* c, const char* what) {
  c->state.no_output = true;
  c->session.close_after_reply = true;
  c->shell->core.Log(LogLevel::kWarning,
                     "Protocol '%s' failed to %s a reply: closing client id=%llu",
                     c->shell->core.endpoints.protocol->name.c_str(), what,
                     static_cast<unsigned long long>(c->session.id));
  ClientQueueWrite(c);
}

void SinkItem(ReplySink* self, const plinth_reply_item_t& item) {
  Client* c = static_cast<ClientSink*>(self)->client;
  if (c->state.closed || c->state.no_output) return;
  const Protocol* proto = c->shell->core.endpoints.protocol.get();
  const plinth_reply_item_t* give = &item;
  plinth_reply_item_t older;
  if (proto->map_reply_types) {  // never a type newer than the plugin's minor
    older = item;
    older.type = ReplyTypeForMinor(item.type, proto->abi_minor);
    give = &older;
  }
  OutSeg& seg = TailCopySeg(c);
  plinth_outbuf_t ob{sizeof ob, seg.data, seg.len, seg.cap, ClientGrowOut, c};
  const size_t before = seg.len;
  const int32_t rc =
      proto->spec.encode(proto->spec.ctx, static_cast<uint32_t>(c->session.proto), give, &ob);
  seg.data = ob.data;
  seg.cap = ob.cap;
  seg.len = rc == PLINTH_OK && ob.len >= before && ob.len <= ob.cap ? ob.len : before;
  c->out.bytes += seg.len - before;
  if (rc != PLINTH_OK) ReplyBroken(c, "encode");
}

int32_t NoGrow(plinth_outbuf_t*, size_t) { return PLINTH_ERR; }

// Frames v's bytes as a bulk in the tail segment with room left for them, to be copied by
// ClientWriteOutput; a value the tail has no room for gets a segment of its own, so no segment
// grows by copying room reserved in it. Returns false, having written nothing, when the
// protocol cannot frame it or memory runs out.
bool ReserveFill(Client* c, const plinth_value_t* v) {
  constexpr size_t kFrameRoom = 64;  // a bulk's header and trailer, with room to spare
  const Protocol* proto = c->shell->core.endpoints.protocol.get();
  OutSeg* tail = &TailCopySeg(c);
  if (tail->len > 0 && tail->cap - tail->len < StringLen(v) + kFrameRoom)
    tail = &NewCopySeg(c, std::max(kOutChunk, StringLen(v) + kFrameRoom));
  OutSeg& seg = *tail;
  char trailer[16];
  plinth_outbuf_t prefix{sizeof prefix, seg.data, seg.len, seg.cap, ClientGrowOut, c};
  plinth_outbuf_t suffix{sizeof suffix, trailer, 0, sizeof trailer, NoGrow, nullptr};
  const size_t before = seg.len;
  const bool ok = proto->spec.frame_bulk(proto->spec.ctx, static_cast<uint32_t>(c->session.proto),
                                         StringLen(v), &prefix, &suffix) == PLINTH_OK &&
                  (prefix.cap - prefix.len >= StringLen(v) + suffix.len ||
                   ClientGrowOut(&prefix, StringLen(v) + suffix.len) == PLINTH_OK);
  seg.data = prefix.data;
  seg.cap = prefix.cap;
  if (!ok) return false;
  const size_t off = prefix.len;
  std::memcpy(seg.data + off + StringLen(v), trailer, suffix.len);
  seg.len = off + StringLen(v) + suffix.len;
  ValueRetain(v);
  c->out.fills.push_back({&seg, off, v});
  c->out.bytes += seg.len - before;
  return true;
}

void SinkRef(ReplySink* self, const char* data, size_t len, plinth_release_fn release, void* arg) {
  Client* c = static_cast<ClientSink*>(self)->client;
  if (c->state.closed || c->state.no_output) {
    if (release) release(arg);
    return;
  }
  constexpr size_t kAfterRef = 512;  // the trailer's segment, where the next replies start
  const Protocol* proto = c->shell->core.endpoints.protocol.get();
  OutSeg& head = TailCopySeg(c);
  plinth_outbuf_t prefix{sizeof prefix, head.data, head.len, head.cap, ClientGrowOut, c};
  char trailer[16];
  plinth_outbuf_t suffix{sizeof suffix, trailer, 0, sizeof trailer, NoGrow, nullptr};
  size_t before = head.len;
  const int32_t rc = proto->spec.frame_bulk(
      proto->spec.ctx, static_cast<uint32_t>(c->session.proto), len, &prefix, &suffix);
  head.data = prefix.data;
  head.cap = prefix.cap;
  if (rc != PLINTH_OK || prefix.len < before || prefix.len > prefix.cap) {
    if (release) release(arg);
    ReplyBroken(c, "frame");
    return;
  }
  head.len = prefix.len;
  OutSeg ref;
  ref.data = const_cast<char*>(data);
  ref.len = len;
  ref.release = release;
  ref.release_arg = arg;
  c->out.segs.push_back(ref);
  OutSeg& tail = NewCopySeg(c, kAfterRef);
  if (suffix.len && tail.cap) {
    std::memcpy(tail.data, trailer, suffix.len);
    tail.len = suffix.len;
  }
  c->out.bytes += head.len - before + len + tail.len;
}

void SinkValue(ReplySink* self, const plinth_value_t* v) {
  Client* c = static_cast<ClientSink*>(self)->client;
  if (c->state.closed || c->state.no_output) return;
  Stats& st = c->shell->core.stats;
  if (const ReplyPath* rp = c->shell->core.endpoints.reply_path.get()) {
    plinth_reply_value_info_t info{sizeof info, c->conn.transport->spec.flags, StringLen(v),
                                   c->conn.transport->name.c_str(),
                                   static_cast<int32_t>(c->shell->io.ActiveCount())};
    if (rp->spec.by_reference(rp->spec.ctx, &info)) {
      ValueRetain(v);
      st.reply_bytes_referenced += StringLen(v);
      SinkRef(self, StringData(v), StringLen(v), ValueReleaseArg, const_cast<plinth_value_t*>(v));
      return;
    }
  }
  st.reply_bytes_copied += StringLen(v);
  if (StringLen(v) >= kMinFill && c->shell->io.Active() && ReserveFill(c, v)) return;
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_BULK;
  item.data = StringData(v);
  item.len = StringLen(v);
  SinkItem(self, item);
}

}  // namespace

int32_t ClientGrowOut(plinth_outbuf_t* ob, size_t min_free) {
  if (ob->len > ob->cap || min_free > SIZE_MAX / 2 - ob->len) return PLINTH_ERR;
  const size_t least = ob->len + min_free;  // at most SIZE_MAX / 2: doubling cannot wrap
  size_t cap = ob->cap ? ob->cap : kOutChunk;
  while (cap < least) cap *= 2;
  char* p = static_cast<char*>(std::realloc(ob->data, cap));
  if (!p) return PLINTH_ERR;
  ob->data = p;
  ob->cap = cap;
  return PLINTH_OK;
}

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

ClientSink::ClientSink(Client* c) : client(c) {
  item = SinkItem;
  ref = SinkRef;
  value = SinkValue;
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
  s.core.stats.net_output_bytes += wr.bytes;
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
  if (core.propagation.stream.Pending()) core.BeforeSleep();
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

bool ClientAppendRaw(Client* c, const char* data, size_t len) {
  if (len == 0 || c->state.no_output) return true;
  OutSeg* seg = len > kOutChunk ? &NewCopySeg(c, len) : &TailCopySeg(c);
  if (seg->cap - seg->len < len) {
    plinth_outbuf_t ob{sizeof ob, seg->data, seg->len, seg->cap, ClientGrowOut, c};
    if (ClientGrowOut(&ob, len) != PLINTH_OK) return false;
    seg->data = ob.data;
    seg->cap = ob.cap;
  }
  std::memcpy(seg->data + seg->len, data, len);
  seg->len += len;
  c->out.bytes += len;
  return true;
}

bool ClientCheckOutputLimits(Client* c) {
  if (c->state.close_asap) return false;
  const Session& s = c->session;
  Core& core = c->shell->core;
  // One comparison on the request path: the client's authentication is looked at only past it.
  if (c->out.bytes > kUnauthOutputLimit && !c->state.ever_authed) {
    c->state.ever_authed = core.auth.Authenticated(s);
    if (!c->state.ever_authed) {
      core.Log(LogLevel::kWarning,
               "Client %s closed for overcoming of the output buffer limit of unauthenticated "
               "clients.",
               ClientDescribe(c).c_str());
      core.stats.output_buffer_disconnections++;
      ClientCloseAsync(c);
      return false;
    }
  }
  const Limits& lim = c->shell->limits;
  const Limits::OutputLimit& l = s.replica                             ? lim.out_replica
                                 : s.sub_channels + s.sub_patterns > 0 ? lim.out_pubsub
                                                                       : lim.out_normal;
  int64_t bytes = static_cast<int64_t>(c->out.bytes);
  bool hard = l.hard > 0 && bytes >= l.hard;
  bool soft = false;
  if (l.soft > 0 && bytes >= l.soft) {
    int64_t now = core.NowMs();
    if (!c->out.soft_limit_since) c->out.soft_limit_since = now;
    soft = now - c->out.soft_limit_since >= l.soft_seconds * 1000;
  } else {
    c->out.soft_limit_since = 0;
  }
  if (!hard && !soft) return true;
  core.Log(LogLevel::kWarning,
           "Client %s scheduled to be closed ASAP for overcoming of output buffer limits.",
           ClientDescribe(c).c_str());
  core.stats.output_buffer_disconnections++;
  ClientCloseAsync(c);
  return false;
}

}  // namespace plinth::host
