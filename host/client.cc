// Client IO: read into the query buffer, parse with the registered protocol, execute, encode
// replies into the output queue, and write it before the loop next polls.
#include "host/client.h"

#include <cstdlib>
#include <cstring>

#include "host/call.h"
#include "host/log.h"
#include "host/registry.h"
#include "host/server.h"
#include "host/value.h"

namespace plinth::host {
namespace {

constexpr size_t kReadChunk = 16 * 1024;
constexpr size_t kOutChunk = 16 * 1024;
constexpr int kMaxIov = 64;

void OnPoll(uv_poll_t* h, int status, int events);

void SetPollEvents(Client* c, int events) {
  if (c->closed || events == c->poll_events) return;
  c->poll_events = events;
  if (events)
    uv_poll_start(&c->poll, events, OnPoll);
  else
    uv_poll_stop(&c->poll);
}

void FreeSeg(OutSeg& s) {
  if (s.cap)
    std::free(s.data);
  else if (s.release)
    s.release(s.release_arg);
}

void OnPollClosed(uv_handle_t* h) { delete static_cast<Client*>(h->data); }

// Makes room for at least want more bytes in the query buffer.
bool ReserveQuery(Client* c, size_t want) {
  if (c->qpos > 0 && (c->qpos == c->qlen || c->qcap - c->qlen < want)) {
    std::memmove(c->qbuf, c->qbuf + c->qpos, c->qlen - c->qpos);
    c->qlen -= c->qpos;
    c->qpos = 0;
  }
  if (c->qcap - c->qlen >= want) return true;
  size_t cap = c->qcap ? c->qcap : kReadChunk;
  while (cap - c->qlen < want) cap *= 2;
  char* p = static_cast<char*>(std::realloc(c->qbuf, cap));
  if (!p) return false;
  c->qbuf = p;
  c->qcap = cap;
  return true;
}

void ReplyProtocolError(Client* c, const char* err) {
  ClientReplyError(c, std::string("ERR ") + err);
  Log(LogLevel::kVerbose, "Protocol error (%s) from client: id=%llu addr=%s", err,
      static_cast<unsigned long long>(c->id), c->peer.c_str());
  c->close_after_reply = true;
}

// Parses and runs every complete request in the query buffer.
void ProcessInput(Client* c) {
  Server& s = Srv();
  const Protocol* proto = s.registry.protocol.get();
  while (!c->close_after_reply && !c->closed && c->qpos < c->qlen) {
    size_t avail = c->qlen - c->qpos;
    if (c->need && avail < c->need) break;
    size_t consumed = 0, need = 0;
    plinth_request_t req{};
    req.struct_size = sizeof req;
    char err[256] = "";
    uint32_t flags = ClientAuthenticated(c) ? 0 : PLINTH_PARSE_UNAUTHENTICATED;
    int32_t rc = proto->spec.parse(proto->spec.ctx, c->session, c->qbuf + c->qpos, avail, flags,
                                   &consumed, &need, &req, err, sizeof err);
    if (rc == PLINTH_PARSE_OK) {
      c->need = 0;
      Execute(c, req.argc, req.argv, req.argvlen);
      c->qpos += consumed;
    } else if (rc == PLINTH_PARSE_EMPTY) {
      c->qpos += consumed;
    } else if (rc == PLINTH_PARSE_NEED_MORE) {
      c->qpos += consumed;
      c->need = need;
      break;
    } else {
      ReplyProtocolError(c, err[0] ? err : "Protocol error");
      break;
    }
  }
  if (c->qpos == c->qlen) {
    c->qpos = c->qlen = 0;
    if (c->qcap > kReadChunk) {  // a big request is done: give its buffer back
      std::free(c->qbuf);
      c->qbuf = nullptr;
      c->qcap = 0;
    }
  }
}

void ReadFromClient(Client* c) {
  Server& s = Srv();
  size_t want = kReadChunk;
  size_t have = c->qlen - c->qpos;
  if (c->need > have && c->need - have > want) want = c->need - have;
  if (!ReserveQuery(c, want)) {
    Log(LogLevel::kWarning, "Out of memory for the query buffer of client id=%llu",
        static_cast<unsigned long long>(c->id));
    ClientClose(c);
    return;
  }
  int64_t n = c->transport->spec.read(c->transport->spec.ctx, c->conn, c->qbuf + c->qlen,
                                      c->qcap - c->qlen);
  if (n == PLINTH_IO_AGAIN) return;
  if (n <= 0) {
    ClientClose(c);
    return;
  }
  c->qlen += static_cast<size_t>(n);
  s.stats.net_input_bytes += static_cast<uint64_t>(n);
  c->last_interaction_ms = NowMs();
  if (static_cast<int64_t>(c->qlen - c->qpos) > s.limits.query_buffer) {
    Log(LogLevel::kWarning, "Closing client that reached max query buffer length: %s",
        ClientDescribe(c).c_str());
    s.stats.query_buffer_disconnections++;
    ClientClose(c);
    return;
  }
  ProcessInput(c);
  if (c->closed) return;
  if (c->close_after_reply) SetPollEvents(c, c->poll_events & ~UV_READABLE);
  if (!c->out.empty()) ClientQueueWrite(c);
}

void OnPoll(uv_poll_t* h, int status, int events) {
  auto* c = static_cast<Client*>(h->data);
  if (status < 0) {
    ClientClose(c);
    return;
  }
  if (events & UV_WRITABLE) {
    if (!ClientWrite(c)) return;
  }
  if ((events & UV_READABLE) && !c->closed && !c->close_after_reply) ReadFromClient(c);
}

int32_t GrowOut(plinth_outbuf_t* ob, size_t min_free) {
  size_t cap = ob->cap ? ob->cap : kOutChunk;
  while (cap - ob->len < min_free) cap *= 2;
  char* p = static_cast<char*>(std::realloc(ob->data, cap));
  if (!p) return PLINTH_ERR;
  ob->data = p;
  ob->cap = cap;
  return PLINTH_OK;
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

}  // namespace

Client* ClientCreate(int32_t transport_id, void* conn, int fd, const char* peer, const char* local,
                     uint32_t flags) {
  Server& s = Srv();
  auto* c = new Client();
  c->id = s.next_client_id++;
  c->transport_id = transport_id;
  c->transport = s.registry.transports[transport_id].get();
  c->conn = conn;
  c->fd = fd;
  c->peer = peer;
  c->local = local;
  c->conn_flags = flags;
  c->ctime_ms = c->last_interaction_ms = NowMs();
  c->authenticated = !s.limits.has_password;
  const Protocol* proto = s.registry.protocol.get();
  c->session = proto->spec.session_create(proto->spec.ctx);
  uv_poll_init(s.loop, &c->poll, fd);
  c->poll.data = c;
  s.clients.emplace(c->id, c);
  if (!c->session) {
    Log(LogLevel::kWarning, "Out of memory for the protocol state of client id=%llu",
        static_cast<unsigned long long>(c->id));
    ClientClose(c);
    return nullptr;
  }
  SetPollEvents(c, UV_READABLE);
  return c;
}

void ClientClose(Client* c) {
  if (c->closed) return;
  c->closed = true;
  Server& s = Srv();
  s.clients.erase(c->id);
  if (c->in_pending_writes) {
    for (Client*& p : s.pending_writes)
      if (p == c) p = nullptr;
  }
  uv_poll_stop(&c->poll);
  for (OutSeg& seg : c->out) FreeSeg(seg);
  c->out.clear();
  std::free(c->qbuf);
  c->qbuf = nullptr;
  if (s.registry.protocol)
    s.registry.protocol->spec.session_destroy(s.registry.protocol->spec.ctx, c->session);
  if (c->transport) c->transport->spec.close(c->transport->spec.ctx, c->conn);
  uv_close(reinterpret_cast<uv_handle_t*>(&c->poll), OnPollClosed);
}

void ClientQueueWrite(Client* c) {
  if (c->in_pending_writes || c->closed) return;
  c->in_pending_writes = true;
  Srv().pending_writes.push_back(c);
}

bool ClientWrite(Client* c) {
  Server& s = Srv();
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
      for (OutSeg& seg : c->out) FreeSeg(seg);
      c->out.clear();
      c->out_bytes = 0;
      break;
    }
    int64_t w = c->transport->spec.writev(c->transport->spec.ctx, c->conn, iov, n);
    if (w == PLINTH_IO_AGAIN) break;
    if (w < 0) {
      ClientClose(c);
      return false;
    }
    s.stats.net_output_bytes += static_cast<uint64_t>(w);
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
    if (c->close_after_reply) {
      ClientClose(c);
      return false;
    }
    SetPollEvents(c, c->poll_events & ~UV_WRITABLE);
  } else {
    SetPollEvents(c, c->poll_events | UV_WRITABLE);
  }
  return true;
}

void ClientEncode(Client* c, const plinth_reply_item_t& item) {
  if (c->closed) return;
  const Protocol* proto = Srv().registry.protocol.get();
  OutSeg& seg = TailCopySeg(c);
  plinth_outbuf_t ob{seg.data, seg.len, seg.cap, GrowOut, c};
  size_t before = seg.len;
  proto->spec.encode(proto->spec.ctx, static_cast<uint32_t>(c->proto), &item, &ob);
  seg.data = ob.data;
  seg.cap = ob.cap;
  seg.len = ob.len;
  c->out_bytes += seg.len - before;
}

void CountErrorReply(std::string_view msg) {
  Stats& st = Srv().stats;
  st.error_replies++;
  st.errors[std::string(msg.substr(0, msg.find(' ')))]++;
}

void ClientReplyError(Client* c, std::string_view msg) {
  CountErrorReply(msg);
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_ERROR;
  item.data = msg.data();
  item.len = msg.size();
  ClientEncode(c, item);
}

void ClientAppendRef(Client* c, const char* data, size_t len, plinth_release_fn release,
                     void* arg) {
  if (c->closed) {
    if (release) release(arg);
    return;
  }
  const Protocol* proto = Srv().registry.protocol.get();
  OutSeg& head = TailCopySeg(c);
  plinth_outbuf_t prefix{head.data, head.len, head.cap, GrowOut, c};
  OutSeg tail;
  tail.data = static_cast<char*>(std::malloc(kOutChunk));
  tail.cap = kOutChunk;
  plinth_outbuf_t suffix{tail.data, 0, tail.cap, GrowOut, c};
  size_t before = head.len;
  proto->spec.frame_bulk(proto->spec.ctx, static_cast<uint32_t>(c->proto), len, &prefix, &suffix);
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

bool ClientAuthenticated(const Client* c) { return c->authenticated || !Srv().limits.has_password; }

bool ClientCheckOutputLimits(Client* c) {
  const Limits& l = Srv().limits;
  int64_t bytes = static_cast<int64_t>(c->out_bytes);
  bool hard = l.out_hard > 0 && bytes >= l.out_hard;
  bool soft = false;
  if (l.out_soft > 0 && bytes >= l.out_soft) {
    int64_t now = NowMs();
    if (!c->soft_limit_since) c->soft_limit_since = now;
    soft = now - c->soft_limit_since >= l.out_soft_seconds * 1000;
  } else {
    c->soft_limit_since = 0;
  }
  if (!hard && !soft) return true;
  Log(LogLevel::kWarning,
      "Client %s scheduled to be closed ASAP for overcoming of output buffer limits.",
      ClientDescribe(c).c_str());
  Srv().stats.output_buffer_disconnections++;
  ClientClose(c);
  return false;
}

std::string ClientDescribe(const Client* c) {
  int64_t now = NowMs();
  size_t qbuf = c->qlen - c->qpos;
  std::string cmd = c->last_command ? c->last_command->name : "NULL";
  if (!c->last_subcommand.empty()) cmd += "|" + c->last_subcommand;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "id=%llu addr=%s laddr=%s fd=%d name=%s age=%lld idle=%lld flags=N db=%d sub=0 "
                "psub=0 ssub=0 multi=-1 qbuf=%zu qbuf-free=%zu argv-mem=0 multi-mem=0 rbs=%zu "
                "rbp=0 obl=0 oll=%zu omem=%zu tot-mem=%zu events=r cmd=%s user=default "
                "redir=-1 resp=%d lib-name=%s lib-ver=%s",
                static_cast<unsigned long long>(c->id), c->peer.c_str(), c->local.c_str(), c->fd,
                c->name.c_str(), static_cast<long long>((now - c->ctime_ms) / 1000),
                static_cast<long long>((now - c->last_interaction_ms) / 1000), c->db, qbuf,
                c->qcap - c->qlen, c->qcap, c->out.size(), c->out_bytes,
                c->qcap + c->out_bytes + sizeof(Client), cmd.c_str(), c->proto, c->lib_name.c_str(),
                c->lib_ver.c_str());
  return buf;
}

}  // namespace plinth::host
