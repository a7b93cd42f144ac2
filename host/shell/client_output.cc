// Client output: the client's reply sink encodes reply items into its output segments, and
// ClientWrite sends them with the transport's writev before the loop next polls.
#include <cstdlib>
#include <cstring>

#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

constexpr size_t kOutChunk = 16 * 1024;
constexpr int kMaxIov = 64;

void FreeSeg(OutSeg& s) {
  if (s.cap)
    std::free(s.data);
  else if (s.release)
    s.release(s.release_arg);
}

// Inlined into ClientWrite, which empties the queue after every complete write.
[[gnu::always_inline]] inline void FreeOutput(Client* c) {
  for (OutSeg& seg : c->out) FreeSeg(seg);
  c->out.clear();
  c->out_bytes = 0;
}

// The copy segment at the tail of c's output, created when the tail is a reference.
OutSeg& TailCopySeg(Client* c) {
  if (c->out.empty() || c->out.back().cap == 0) {
    OutSeg s;
    s.data = static_cast<char*>(std::malloc(kOutChunk));
    s.cap = s.data ? kOutChunk : 0;
    c->out.push_back(s);
  }
  return c->out.back();
}

void SinkItem(ReplySink* self, const plinth_reply_item_t& item) {
  Client* c = static_cast<ClientSink*>(self)->client;
  if (c->closed) return;
  const Protocol* proto = c->shell->core.registry.protocol.get();
  OutSeg& seg = TailCopySeg(c);
  plinth_outbuf_t ob{seg.data, seg.len, seg.cap, ClientGrowOut, c};
  size_t before = seg.len;
  proto->spec.encode(proto->spec.ctx, static_cast<uint32_t>(c->session.proto), &item, &ob);
  seg.data = ob.data;
  seg.cap = ob.cap;
  seg.len = ob.len;
  c->out_bytes += seg.len - before;
}

void SinkRef(ReplySink* self, const char* data, size_t len, plinth_release_fn release, void* arg) {
  Client* c = static_cast<ClientSink*>(self)->client;
  if (c->closed) {
    if (release) release(arg);
    return;
  }
  const Protocol* proto = c->shell->core.registry.protocol.get();
  OutSeg& head = TailCopySeg(c);
  plinth_outbuf_t prefix{head.data, head.len, head.cap, ClientGrowOut, c};
  OutSeg tail;
  tail.data = static_cast<char*>(std::malloc(kOutChunk));
  tail.cap = kOutChunk;
  plinth_outbuf_t suffix{tail.data, 0, tail.cap, ClientGrowOut, c};
  size_t before = head.len;
  proto->spec.frame_bulk(proto->spec.ctx, static_cast<uint32_t>(c->session.proto), len, &prefix,
                         &suffix);
  head.data = prefix.data;
  head.cap = prefix.cap;
  head.len = prefix.len;
  OutSeg ref;
  ref.data = const_cast<char*>(data);
  ref.len = len;
  ref.release = release;
  ref.release_arg = arg;
  c->out.push_back(ref);
  tail.data = suffix.data;
  tail.cap = suffix.cap;
  tail.len = suffix.len;
  c->out.push_back(tail);
  c->out_bytes += head.len - before + len + tail.len;
}

}  // namespace

int32_t ClientGrowOut(plinth_outbuf_t* ob, size_t min_free) {
  size_t cap = ob->cap ? ob->cap : kOutChunk;
  while (cap - ob->len < min_free) cap *= 2;
  char* p = static_cast<char*>(std::realloc(ob->data, cap));
  if (!p) return PLINTH_ERR;
  ob->data = p;
  ob->cap = cap;
  return PLINTH_OK;
}

void ClientFreeOutput(Client* c) { FreeOutput(c); }

ClientSink::ClientSink(Client* c) : client(c) {
  item = SinkItem;
  ref = SinkRef;
}

bool ClientWrite(Client* c) {
  Shell& s = *c->shell;
  while (!c->out.empty()) {
    plinth_iovec_t iov[kMaxIov];
    int n = 0;
    for (auto it = c->out.begin(); it != c->out.end() && n < kMaxIov; ++it) {
      if (it->len == it->sent) continue;
      iov[n].base = it->data + it->sent;
      iov[n].len = it->len - it->sent;
      ++n;
    }
    if (n == 0) {
      FreeOutput(c);
      break;
    }
    int64_t w = c->transport->spec.writev(c->transport->spec.ctx, c->conn, iov, n);
    if (w == PLINTH_IO_AGAIN) break;
    if (w < 0) {
      ClientClose(c);
      return false;
    }
    s.core.stats.net_output_bytes += static_cast<uint64_t>(w);
    c->out_bytes -= static_cast<size_t>(w);
    size_t left = static_cast<size_t>(w);
    while (left && !c->out.empty()) {
      OutSeg& seg = c->out.front();
      size_t take = std::min(left, seg.len - seg.sent);
      seg.sent += take;
      left -= take;
      if (seg.sent == seg.len && (c->out.size() > 1 || seg.cap == 0)) {
        FreeSeg(seg);
        c->out.pop_front();
      } else if (seg.sent == seg.len && seg.cap > kOutChunk) {
        FreeSeg(seg);  // a big reply is done: give its buffer back
        c->out.pop_front();
      } else if (seg.sent == seg.len) {
        seg.len = seg.sent = 0;  // keep the last copy buffer for the next replies
      }
    }
  }
  bool empty = c->out.empty() || (c->out.size() == 1 && c->out.front().len == 0);
  if (empty) {
    c->soft_limit_since = 0;
    if (c->session.close_after_reply) {
      ClientClose(c);
      return false;
    }
    ClientSetPollEvents(c, c->poll_events & ~UV_WRITABLE);
  } else {
    ClientSetPollEvents(c, c->poll_events | UV_WRITABLE);
  }
  return true;
}

bool ClientCheckOutputLimits(Client* c) {
  const Limits& l = c->shell->limits;
  int64_t bytes = static_cast<int64_t>(c->out_bytes);
  bool hard = l.out_hard > 0 && bytes >= l.out_hard;
  bool soft = false;
  if (l.out_soft > 0 && bytes >= l.out_soft) {
    int64_t now = c->shell->core.NowMs();
    if (!c->soft_limit_since) c->soft_limit_since = now;
    soft = now - c->soft_limit_since >= l.out_soft_seconds * 1000;
  } else {
    c->soft_limit_since = 0;
  }
  if (!hard && !soft) return true;
  c->shell->core.Log(LogLevel::kWarning,
                     "Client %s scheduled to be closed ASAP for overcoming of output buffer "
                     "limits.",
                     ClientDescribe(c).c_str());
  c->shell->core.stats.output_buffer_disconnections++;
  ClientClose(c);
  return false;
}

}  // namespace plinth::host
