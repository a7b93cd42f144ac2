// REPLCONF, WAIT and what replicas' acks drive: waking WAIT clients, timing out silent
// replicas, and min-replicas-to-write (see primary.h).
#include <algorithm>
#include <limits>
#include <plinth/errors.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <vector>

#include "replication/primary_impl.h"
#include "replication/primary_util.h"

namespace plinth::replication {
namespace {

const char kWaitOnReplica[] =
    "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a "
    "replica is configured to be writable (which is not the default) writes to replicas are "
    "just local and are not propagated.";

}  // namespace

int64_t Primary::Impl::CountAcked(uint64_t offset) const {
  int64_t n = 0;
  for (auto& [id, l] : links)
    n += !l->closed && l->state == LinkState::kOnline && l->ack_offset >= offset;
  return n;
}

void Primary::Impl::WakeWaiters() {
  std::vector<uint64_t> ready;
  for (auto& [id, w] : waiters)
    if (CountAcked(w.target) >= w.want) ready.push_back(id);
  for (uint64_t id : ready)
    if (sdk::Api().client_wake(self, id) != PLINTH_OK) waiters.erase(id);
}

void Primary::Impl::CheckTimeouts(int64_t now_ms) {
  const int64_t timeout = Opt(r.opts.repl_timeout, 60) * 1000;
  if (timeout <= 0) return;
  for (auto& [id, l] : links) {
    if (l->closed || l->state != LinkState::kOnline || !l->acked) continue;
    if (now_ms - l->ack_ms <= timeout) continue;
    Log(PLINTH_LOG_WARNING, "Disconnecting timedout replica (streaming sync): %s:%d", l->ip.c_str(),
        l->port);
    Close(*l);
  }
}

void Primary::Impl::CheckGoodReplicas(int64_t now_ms) {
  if (r.is_replica()) {  // the replica side owns the write refusal (read-only) meanwhile
    refusing = false;
    return;
  }
  const int64_t want = Opt(r.opts.min_replicas_to_write, 0);
  const int64_t max_lag = Opt(r.opts.min_replicas_max_lag, 10);
  bool refuse = false;
  if (want > 0 && max_lag > 0) {
    int64_t good = 0;
    for (auto& [id, l] : links)
      good +=
          !l->closed && l->state == LinkState::kOnline && (now_ms - l->ack_ms) / 1000 <= max_lag;
    refuse = good < want;
  }
  if (refuse == refusing) return;
  refusing = refuse;
  sdk::Api().server_refuse(self, PLINTH_REFUSE_WRITES,
                           refuse ? "NOREPLICAS Not enough good replicas to write." : nullptr);
}

void Primary::Replconf(plinth_call_t* call) {
  Impl& m = *impl_;
  LinkGuard g(m);
  const int32_t argc = sdk::Api().call_argc(call);
  if (argc % 2 == 0) return ReplyError(call, errors::kSyntax);
  const uint64_t id = sdk::Api().client_id(call);
  auto it = m.links.find(id);
  ReplicaLink* link = it == m.links.end() ? nullptr : it->second.get();
  for (int32_t i = 1; i + 1 < argc; i += 2) {
    const std::string opt = text::ToLower(Arg(call, i));
    const std::string val = Arg(call, i + 1);
    if (opt == "ack") {
      // Only a replica acks; anything else gets no answer either (as Redis).
      sdk::Api().call_no_reply(call);
      int64_t off = 0;
      if (!link || !text::ParseInt64(val, &off) || off < 0) return;
      if (static_cast<uint64_t>(off) > link->ack_offset) link->ack_offset = off;
      link->ack_ms = m.NowMs();
      link->acked = true;
      if (link->start_on_ack) m.GoOnline(*link);  // loaded its diskless payload
      if (link->closed) return;
      if (!m.waiters.empty()) m.WakeWaiters();
      return;
    }
    if (opt == "listening-port") {
      int64_t port = 0;
      if (!text::ParseInt64(val, &port) || port < 0 || port > 65535)
        return ReplyError(call, errors::kNotInteger);
      (link ? link->port : m.handshakes[id].port) = static_cast<int>(port);
    } else if (opt == "ip-address") {
      if (val.size() > 255) return ReplyError(call, "ERR ip-address is too long");
      (link ? link->ip : m.handshakes[id].ip) = val;
    } else if (opt == "capa") {
      const std::string capa = text::ToLower(val);
      if (capa == "eof") (link ? link->capa_eof : m.handshakes[id].capa_eof) = true;
      if (capa == "psync2" && !link) m.handshakes[id].capa_psync2 = true;
    } else if (opt == "getack") {
      // Only a primary's stream asks it of a replica (the link answers it there).
    } else {
      return ReplyError(call, "ERR Unrecognized REPLCONF option: " + Arg(call, i));
    }
  }
  sdk::Api().reply_simple(call, "OK", 2);
}

void Primary::Wait(plinth_call_t* call) {
  Impl& m = *impl_;
  LinkGuard g(m);
  if (m.r.is_replica()) return ReplyError(call, kWaitOnReplica);
  int64_t want = 0, timeout = 0;
  if (!text::ParseInt64(Arg(call, 1), &want)) return ReplyError(call, errors::kNotInteger);
  if (!text::ParseInt64(Arg(call, 2), &timeout))
    return ReplyError(call, errors::kTimeoutNotInteger);
  if (timeout < 0) return ReplyError(call, errors::kTimeoutNegative);
  // The host adds it to the clock: a deadline past int64 is refused, as Redis does.
  if (timeout > std::numeric_limits<int64_t>::max() - m.NowMs())
    return ReplyError(call, errors::kTimeoutOutOfRange);
  const uint64_t id = sdk::Api().client_id(call);
  const int32_t state = sdk::Api().call_block_state(call);
  auto it = m.waiters.find(id);
  // The offset this client's writes reached: everything fed so far, and what the host
  // appended that OnBatch has not seen yet (a write pipelined just before WAIT).
  Waiter w{m.r.offset + m.HostPending(), want};
  if (state != PLINTH_BLOCK_NONE && it != m.waiters.end()) w = it->second;
  const int64_t acked = m.CountAcked(w.target);
  if (acked >= w.want || state == PLINTH_BLOCK_TIMEOUT ||
      sdk::Api().call_block(call, 0, nullptr, nullptr, timeout) != PLINTH_OK) {
    m.waiters.erase(id);
    return sdk::Api().reply_integer(call, acked);
  }
  m.waiters[id] = w;
  if (state == PLINTH_BLOCK_NONE) m.getack_pending = true;  // one GETACK per loop turn
}

}  // namespace plinth::replication
