// What Primary shows: INFO replication's replica lines and backlog fields, INFO stats' sync
// counters, ROLE's replica list (see primary.h).
#include <algorithm>
#include <cstdio>
#include <plinth/plugin.hpp>

#include "replication/primary_impl.h"
#include "replication/primary_util.h"

namespace plinth::replication {
namespace {

const char* StateName(LinkState s) {
  switch (s) {
    case LinkState::kWaitBgsave:
      return "wait_bgsave";
    case LinkState::kSendBulk:
      return "send_bulk";
    case LinkState::kOnline:
      return "online";
  }
  return "?";
}

}  // namespace

void Primary::InfoFields(plinth_info_t* info) {
  const Impl& m = *impl_;
  sdk::Api().info_field_int(info, "connected_slaves", m.LiveCount());
  const int64_t now = m.NowMs();
  int n = 0;
  for (auto& [id, l] : m.links) {
    if (l->closed) continue;
    char name[32], value[256];
    std::snprintf(name, sizeof name, "slave%d", n++);
    const int len = std::snprintf(
        value, sizeof value, "ip=%s,port=%d,state=%s,offset=%llu,lag=%lld", l->ip.c_str(), l->port,
        StateName(l->state), static_cast<unsigned long long>(l->ack_offset),
        static_cast<long long>((now - l->ack_ms) / 1000));
    sdk::Api().info_field(info, name, value, std::min(static_cast<size_t>(len), sizeof value - 1));
  }
  // Plinth's: snapshots for replicas that failed in a row, and the last one's reason.
  sdk::Api().info_field_int(info, "full_sync_consecutive_failures", m.sync_failures);
  sdk::Api().info_field(info, "full_sync_last_error", m.sync_error.data(), m.sync_error.size());
}

void Primary::BacklogFields(plinth_info_t* info) {
  const Impl& m = *impl_;
  const Backlog* b = m.r.backlog.get();
  sdk::Api().info_field_int(info, "repl_backlog_active", b != nullptr);
  sdk::Api().info_field_int(
      info, "repl_backlog_size",
      b ? static_cast<int64_t>(b->size()) : m.Opt(m.r.opts.repl_backlog_size, kDefaultBacklog));
  sdk::Api().info_field_int(info, "repl_backlog_first_byte_offset",
                            b ? static_cast<int64_t>(b->first_offset()) : 0);
  sdk::Api().info_field_int(info, "repl_backlog_histlen",
                            b ? static_cast<int64_t>(b->histlen()) : 0);
}

void Primary::StatsFields(plinth_info_t* info) {
  const Impl& m = *impl_;
  sdk::Api().info_field_int(info, "sync_full", static_cast<int64_t>(m.sync_full));
  sdk::Api().info_field_int(info, "sync_partial_ok", static_cast<int64_t>(m.sync_partial_ok));
  sdk::Api().info_field_int(info, "sync_partial_err", static_cast<int64_t>(m.sync_partial_err));
}

void Primary::ForEachOnline(void (*emit)(void*, const std::string&, int, uint64_t),
                            void* arg) const {
  for (auto& [id, l] : impl_->links)
    if (!l->closed && l->state == LinkState::kOnline) emit(arg, l->ip, l->port, l->ack_offset);
}

std::vector<FailoverReplica> Primary::Replicas() const {
  std::vector<FailoverReplica> out;
  for (auto& [id, l] : impl_->links)
    if (!l->closed) out.push_back({l->ip, l->port, l->state == LinkState::kOnline, l->ack_offset});
  return out;
}

uint64_t Primary::StreamEnd() const { return impl_->r.offset + impl_->HostPending(); }

int32_t Primary::online_count() const {
  int32_t n = 0;
  for (auto& [id, l] : impl_->links) n += !l->closed && l->state == LinkState::kOnline;
  return n;
}

}  // namespace plinth::replication
