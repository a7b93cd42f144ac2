// Client output, the encoding side: the client's reply sink encodes reply items into its output
// queue, which client_write.cc writes before the loop next polls; raw output, and the output
// buffer limits. A write in flight owns the segments it covers; new output starts a segment
// after them. Main thread.
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
  c->shell->core.server.Log(LogLevel::kWarning,
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
  Stats& st = c->shell->core.server.stats;
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

ClientSink::ClientSink(Client* c) : client(c) {
  item = SinkItem;
  ref = SinkRef;
  value = SinkValue;
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
      core.server.Log(
          LogLevel::kWarning,
          "Client %s closed for overcoming of the output buffer limit of unauthenticated "
          "clients.",
          ClientDescribe(c).c_str());
      core.server.stats.output_buffer_disconnections++;
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
    int64_t now = core.server.NowMs();
    if (!c->out.soft_limit_since) c->out.soft_limit_since = now;
    soft = now - c->out.soft_limit_since >= l.soft_seconds * 1000;
  } else {
    c->out.soft_limit_since = 0;
  }
  if (!hard && !soft) return true;
  core.server.Log(LogLevel::kWarning,
                  "Client %s scheduled to be closed ASAP for overcoming of output buffer limits.",
                  ClientDescribe(c).c_str());
  core.server.stats.output_buffer_disconnections++;
  ClientCloseAsync(c);
  return false;
}

}  // namespace plinth::host
