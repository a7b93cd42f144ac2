// Primary's replicas: PSYNC and SYNC, feeding the stream to them, the cron (see primary.h).
// INFO and ROLE's fields are in primary_info.cc. The snapshot child and its payload are in
// full_sync.cc; WAIT, acks and min-replicas-to-write in primary_acks.cc.
#include "replication/primary.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <plinth/errors.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <vector>

#include "replication/primary_impl.h"
#include "replication/primary_util.h"

namespace plinth::replication {
namespace {

const char kPing[] = "*1\r\n$4\r\nPING\r\n";

}  // namespace

// -- Impl helpers --

void Primary::Impl::Log(uint32_t level, const char* fmt, ...) const {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0)
    sdk::Api().log_write(self, level, buf, std::min(static_cast<size_t>(n), sizeof buf - 1));
}

bool Primary::Impl::Write(ReplicaLink& l, const char* data, size_t len) {
  if (l.closed) return false;
  if (len == 0) return true;
  if (sdk::Api().client_write_raw(self, l.id, data, len) == PLINTH_OK) return true;
  l.closed = true;  // the host closed it (output limit): its CLIENT_CLOSED event removes it
  return false;
}

void Primary::Impl::Close(ReplicaLink& l) {
  if (l.closed) return;
  l.closed = true;
  sdk::Api().client_close(self, l.id, 1);
}

void Primary::Impl::Remove(uint64_t id) {
  handshakes.erase(id);
  waiters.erase(id);
  auto it = links.find(id);
  if (it == links.end()) return;
  it->second->closed = true;
  it->second->gone = true;
  if (iterating > 0) {
    sweep = true;
    return;
  }
  Erase(id);
}

void Primary::Impl::Erase(uint64_t id) {
  auto it = links.find(id);
  if (it == links.end()) return;
  std::shared_ptr<SyncJob> job = std::move(it->second->job);
  Log(PLINTH_LOG_NOTICE, "Connection with replica %s:%d lost.", it->second->ip.c_str(),
      it->second->port);
  links.erase(it);
  if (links.empty()) no_replicas_since_ms = NowMs();
  // A diskless child streams to its replicas only: with none left it has no reason to run.
  if (job && job == child && job->diskless && job->pid > 0 && job.use_count() <= 2)
    kill(job->pid, SIGUSR1);
}

void Primary::Impl::Sweep() {
  sweep = false;
  std::vector<uint64_t> ids;
  for (auto& [id, l] : links)
    if (l->gone) ids.push_back(id);
  for (uint64_t id : ids) Erase(id);
}

int32_t Primary::Impl::LiveCount() const {
  int32_t n = 0;
  for (auto& [id, l] : links) n += !l->closed;
  return n;
}

void Primary::Impl::CreateBacklog() {
  const int64_t size = Opt(r.opts.repl_backlog_size, kDefaultBacklog);
  r.backlog =
      std::make_unique<Backlog>(static_cast<size_t>(size > 0 ? size : kDefaultBacklog), r.offset);
  UpdateConsumer();
  if (consumer_on) sdk::Api().stream_reselect(self);
}

void Primary::Impl::UpdateConsumer() {
  const bool want = r.backlog && !r.is_replica();
  if (want == consumer_on) return;
  sdk::Api().stream_consumer_active(self, want);
  // The host encodes nothing while no consumer listens: the next batch starts here.
  if (want) {
    host_next = sdk::Api().stream_offset(self);
    sdk::Api().stream_reselect(self);
  }
  consumer_on = want;
}

uint64_t Primary::Impl::HostPending() const {
  if (!consumer_on) return 0;
  const uint64_t at = sdk::Api().stream_offset(self);
  return at > host_next ? at - host_next : 0;
}

ReplicaLink& Primary::Impl::AddLink(plinth_call_t* call, uint64_t id) {
  auto l = std::make_unique<ReplicaLink>();
  l->id = id;
  auto hs = handshakes.find(id);
  if (hs != handshakes.end()) {
    l->ip = hs->second.ip;
    l->port = hs->second.port;
    l->capa_eof = hs->second.capa_eof;
    handshakes.erase(hs);
  }
  if (l->ip.empty()) l->ip = PeerIp(call, id);
  l->since_ms = NowMs();
  l->ack_ms = l->since_ms;
  sdk::Api().client_set_replica(call);
  sdk::Api().call_no_reply(call);
  ReplicaLink& ref = *l;
  links[id] = std::move(l);
  return ref;
}

bool Primary::Impl::PartialSync(plinth_call_t* call, uint64_t id, const std::string& replid,
                                uint64_t from) {
  const bool ours = replid == r.replid || (replid == r.replid2 && r.second_offset >= 0 &&
                                           from <= static_cast<uint64_t>(r.second_offset));
  if (!ours || !r.backlog || !r.backlog->Holds(from)) return false;
  const bool psync2 = handshakes.count(id) && handshakes[id].capa_psync2;
  ReplicaLink& l = AddLink(call, id);
  l.state = LinkState::kOnline;
  Write(l, psync2 ? "+CONTINUE " + r.replid + "\r\n" : std::string("+CONTINUE\r\n"));
  struct Ctx {
    Impl* m;
    ReplicaLink* l;
  } ctx{this, &l};
  r.backlog->Visit(
      from,
      [](void* a, const char* d, size_t n) {
        static_cast<Ctx*>(a)->m->Write(*static_cast<Ctx*>(a)->l, d, n);
      },
      &ctx);
  sync_partial_ok++;
  Log(PLINTH_LOG_NOTICE,
      "Partial resynchronization request from %s:%d accepted. Sending %llu bytes of backlog "
      "starting from offset %llu.",
      l.ip.c_str(), l.port, static_cast<unsigned long long>(r.offset + 1 - from),
      static_cast<unsigned long long>(from));
  return true;
}

void Primary::Impl::FullSync(plinth_call_t* call, uint64_t id, bool psync) {
  if (!r.backlog) {
    // A new backlog has no past: a new history id, so no replica can continue an older one.
    if (!r.is_replica()) {
      r.replid = NewReplId();
      r.replid2 = std::string(40, '0');
      r.second_offset = -1;
    }
    CreateBacklog();
  }
  ReplicaLink& l = AddLink(call, id);
  l.psync = psync;
  sync_full++;
  Log(PLINTH_LOG_NOTICE, "Replica %s:%d asks for synchronization: full resync", l.ip.c_str(),
      l.port);
  // A disk child still writing can serve it too: its snapshot is at job->offset, and a
  // replica of that job buffered every byte fed since.
  if (child && !child->diskless && child->pid > 0) {
    for (auto& [oid, o] : links) {
      if (o.get() == &l || o->closed || o->job != child) continue;
      l.job = child;
      l.pending = o->pending;
      if (psync) Write(l, "+FULLRESYNC " + r.replid + " " + std::to_string(child->offset) + "\r\n");
      return;
    }
  }
  start_sync = true;  // BeforeSleep forks, once the host's pending batch is fed
}

void Primary::Impl::GoOnline(ReplicaLink& l) {
  l.job.reset();
  l.start_on_ack = false;
  l.state = LinkState::kOnline;
  l.ack_ms = NowMs();
  std::string pending;
  pending.swap(l.pending);
  if (!Write(l, pending)) return;
  Log(PLINTH_LOG_NOTICE, "Synchronization with replica %s:%d succeeded", l.ip.c_str(), l.port);
}

// -- Primary --

Primary::Primary(Repl& r) : impl_(std::make_unique<Impl>(r)) {
  Impl& m = *impl_;
  m.host_next = sdk::Api().stream_offset(m.self);
  m.no_replicas_since_ms = m.NowMs();
  // The host's default is on: nothing to feed until the first replica.
  m.consumer_on = true;
  m.UpdateConsumer();
}

Primary::~Primary() {
  Impl& m = *impl_;
  if (m.fast) sdk::Api().timer_stop(m.fast);
  if (m.child && m.child->pid > 0) {
    kill(m.child->pid, SIGUSR1);
    int status = 0;
    waitpid(m.child->pid, &status, 0);
    sdk::Api().fork_done(m.self, m.child->pid);
    m.child->pid = 0;
  }
}

void Primary::Psync(plinth_call_t* call) {
  Impl& m = *impl_;
  LinkGuard g(m);
  const uint64_t id = sdk::Api().client_id(call);
  if (m.links.count(id)) return sdk::Api().call_no_reply(call);  // already a replica
  const std::string replid = Arg(call, 1);
  int64_t from = 0;
  if (!text::ParseInt64(Arg(call, 2), &from)) return ReplyError(call, errors::kNotInteger);
  if (from > 0 && m.PartialSync(call, id, replid, static_cast<uint64_t>(from))) return;
  if (replid != "?") {
    m.sync_partial_err++;
    m.Log(PLINTH_LOG_NOTICE, "Partial resynchronization not accepted (replid %s, offset %lld)",
          replid.c_str(), static_cast<long long>(from));
  }
  m.FullSync(call, id, true);
}

void Primary::Sync(plinth_call_t* call) {
  Impl& m = *impl_;
  LinkGuard g(m);
  const uint64_t id = sdk::Api().client_id(call);
  if (m.links.count(id)) return sdk::Api().call_no_reply(call);
  m.FullSync(call, id, false);
}

void Primary::OnBatch(const plinth_stream_batch_t* batch) {
  Impl& m = *impl_;
  LinkGuard g(m);
  uint64_t at = batch->offset;
  const char* data = batch->data;
  size_t len = batch->len;
  if (at < m.host_next) {  // bytes from before the consumer came on
    const size_t skip = static_cast<size_t>(std::min<uint64_t>(len, m.host_next - at));
    data += skip;
    len -= skip;
    at += skip;
  }
  m.host_next = at + len;
  if (m.r.is_replica() || !m.r.backlog) return;
  Feed(m.r, data, len);
}

void Primary::SendToReplicas(const char* data, size_t len) {
  Impl& m = *impl_;
  LinkGuard g(m);
  for (auto& [id, l] : m.links) {
    if (l->closed) continue;
    if (l->state == LinkState::kOnline) {
      m.Write(*l, data, len);
    } else if (l->job || l->start_on_ack) {  // past its fork: after the payload
      if (l->pending.size() + len > kMaxPendingBytes) {
        m.Log(PLINTH_LOG_WARNING,
              "Replica %s:%d: stream buffered during its sync is over %zu "
              "bytes: closing it",
              l->ip.c_str(), l->port, kMaxPendingBytes);
        m.Close(*l);
        continue;
      }
      l->pending.append(data, len);
    }  // else it waits for a fork, whose snapshot will hold these effects
  }
}

void Primary::ResetBacklog() {
  LinkGuard g(*impl_);
  impl_->CreateBacklog();
}

void Primary::RoleChanged() {
  Impl& m = *impl_;
  LinkGuard g(m);
  m.UpdateConsumer();
  if (m.consumer_on) {
    m.host_next = sdk::Api().stream_offset(m.self);
    sdk::Api().stream_reselect(m.self);
  }
  if (m.r.is_replica()) m.refusing = false;  // the replica side owns the write refusal now
}

void Primary::Cron() {
  Impl& m = *impl_;
  LinkGuard g(m);
  const int64_t now = m.NowMs();
  if (!m.consumer_synced) {  // in case the consumer was registered after the constructor ran
    m.consumer_synced = true;
    sdk::Api().stream_consumer_active(m.self, m.consumer_on);
  }
  m.UpdateConsumer();
  m.ReapChild();
  if (m.r.backlog) {
    const int64_t want = m.Opt(m.r.opts.repl_backlog_size, kDefaultBacklog);
    if (want > 0 && static_cast<size_t>(want) != m.r.backlog->size())
      m.r.backlog->Resize(static_cast<size_t>(want));
  }
  const int32_t live = m.LiveCount();
  const int64_t period = m.Opt(m.r.opts.repl_ping_replica_period, 10) * 1000;
  if (!m.r.is_replica() && !m.r.failover_hold && live > 0 && period > 0 &&
      now - m.last_ping_ms >= period) {
    m.last_ping_ms = now;
    Feed(m.r, kPing, sizeof kPing - 1);
  }
  // Replicas waiting for their snapshot hear a newline each second (Redis's keepalive; they
  // skip it), so their read timeout does not fire.
  if (now - m.last_newline_ms >= 1000) {
    m.last_newline_ms = now;
    for (auto& [id, l] : m.links) {
      const bool before_payload =
          l->state == LinkState::kWaitBgsave && (!l->job || (!l->job->diskless && l->job->pid));
      if (!l->closed && before_payload) m.Write(*l, "\n", 1);
    }
  }
  m.CheckTimeouts(now);
  const int64_t ttl = m.Opt(m.r.opts.repl_backlog_ttl, 3600) * 1000;
  if (m.r.backlog && live == 0 && !m.r.is_replica() && ttl > 0 &&
      now - m.no_replicas_since_ms >= ttl) {
    m.Log(PLINTH_LOG_NOTICE, "Replication backlog freed after %lld seconds without replicas.",
          static_cast<long long>(ttl / 1000));
    m.r.backlog.reset();
    m.UpdateConsumer();
  }
  m.CheckGoodReplicas(now);
  for (auto& [id, l] : m.links)
    if (!l->closed && l->state == LinkState::kWaitBgsave && !l->job) m.start_sync = true;
}

void Primary::BeforeSleep() {
  Impl& m = *impl_;
  if (m.links.empty() && !m.child && !m.getack_pending && !m.fast) return;
  LinkGuard g(m);
  if (m.getack_pending && !m.r.failover_hold) {  // else after the failover's wait
    m.getack_pending = false;
    if (!m.r.is_replica() && m.LiveCount() > 0) Feed(m.r, kGetAck, sizeof kGetAck - 1);
  }
  m.ReapChild();
  m.PumpPipe();
  m.PumpFiles();
  if (m.start_sync) m.MaybeStartSync(m.NowMs());
  m.UpdateFastTimer();
}

void Primary::ClientClosed(uint64_t client_id) { impl_->Remove(client_id); }

void Primary::DisconnectAll() {
  Impl& m = *impl_;
  LinkGuard g(m);
  for (auto& [id, l] : m.links) m.Close(*l);
}

}  // namespace plinth::replication
