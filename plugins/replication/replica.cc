// This server as a replica (see replica.h): REPLICAOF and ROLE, following a primary (the
// refusals, passive expiry, the link's lifetime and its reconnection), promotion, and INFO's
// replica fields. The link's events are handled in replica_sync.cc.
#include <unistd.h>

#include <cstdio>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>

#include "replication/failover.h"
#include "replication/primary.h"
#include "replication/replica_impl.h"

namespace plinth::replication {
namespace {

constexpr const char* kNoReplId = "0000000000000000000000000000000000000000";

const char* StateName(ReplState s) {
  switch (s) {
    case ReplState::kNone:
      return "none";
    case ReplState::kConnect:
      return "connect";
    case ReplState::kConnecting:
      return "connecting";
    case ReplState::kSync:
      return "sync";
    case ReplState::kConnected:
      return "connected";
  }
  return "none";
}

}  // namespace

bool Repl::is_replica() const { return replica && replica->active(); }

Replica::Replica(Repl& r) : impl_(std::make_unique<Impl>(r)) { Impl::live = impl_.get(); }

Replica::~Replica() {
  Impl& m = *impl_;
  Impl::live = nullptr;
  m.link.reset();
  if (m.loading) {
    m.loader.reset();
    close(m.load_fd);
    unlink(m.load_path.c_str());
    sdk::Api().server_set_loading(m.self, 0);
  }
  if (m.client) sdk::Api().client_destroy_internal(m.client);
}

void Replica::Impl::Log(uint32_t level, const std::string& text) const {
  sdk::Api().log_write(self, level, text.data(), text.size());
}

int64_t Replica::Impl::NowMs() const { return sdk::Api().time_us(self) / 1000; }

std::string Replica::Impl::DataDir() {
  if (!r.opts.dir) r.opts.dir = sdk::Api().option_find(self, "dir");
  const std::string dir = sdk::OptionString(r.opts.dir);
  return dir.empty() ? "." : dir;
}

void Replica::Impl::UpdateRefusals() {
  const bool writes = state != ReplState::kNone && read_only;
  const bool stale = state != ReplState::kNone && state != ReplState::kConnected && !serve_stale;
  if (writes != refusing_writes) {
    sdk::Api().server_refuse(
        self, PLINTH_REFUSE_WRITES,
        writes ? "READONLY You can't write against a read only replica." : nullptr);
    refusing_writes = writes;
  }
  if (stale != refusing_stale) {
    sdk::Api().server_refuse(self, PLINTH_REFUSE_STALE,
                             stale ? "MASTERDOWN Link with MASTER is down and "
                                     "replica-serve-stale-data is set to 'no'."
                                   : nullptr);
    refusing_stale = stale;
  }
}

void Replica::Impl::Follow(const std::string& new_host, int new_port) {
  const bool was_replica = state != ReplState::kNone;
  link.reset();
  if (loading) AbortLoad("a new primary was set");
  // Our sub-replicas must resync: the history we will serve them changes.
  r.primary->DisconnectAll();
  host = new_host;
  port = new_port;
  state = ReplState::kConnect;
  down_since_ms = 0;
  next_connect_ms = 0;
  sync_failures = 0;
  sync_error.clear();
  if (!was_replica) {
    sdk::Api().server_expiry_passive(self, 1);
    r.primary->RoleChanged();
  }
  UpdateRefusals();
  Log(PLINTH_LOG_NOTICE, "REPLICAOF " + host + ":" + std::to_string(port) + " enabled");
  if (sdk::Api().server_loading(self) == 0) Connect();  // else Cron, once the loading is done
}

void Replica::Impl::Promote() {
  failover_psync = false;
  if (state == ReplState::kNone) return;
  link.reset();
  if (loading) AbortLoad("promoted to primary");
  if (history_valid) {
    ShiftReplId(r);
  } else {  // a full sync was cut: what the keyspace holds has no history anyone knows
    r.replid = NewReplId();
    r.replid2 = kNoReplId;
    r.second_offset = -1;
    history_valid = true;
  }
  host.clear();
  port = 0;
  state = ReplState::kNone;
  UpdateRefusals();
  sdk::Api().server_expiry_passive(self, 0);
  // Our own effects now continue the history; the stream restarts with a SELECT.
  sdk::Api().stream_reselect(self);
  r.primary->RoleChanged();
  // Sub-replicas reconnect to learn the new replid (and continue with PSYNC).
  r.primary->DisconnectAll();
  Log(PLINTH_LOG_NOTICE, "MASTER MODE enabled: new replication ID " + r.replid + ", previous " +
                             r.replid2 + " up to offset " + std::to_string(r.second_offset));
}

void Replica::Impl::Connect() {
  LinkConfig c;
  c.host = host;
  c.port = port;
  c.user = sdk::OptionString(r.opts.masteruser);
  c.password = sdk::OptionString(r.opts.masterauth);
  if (!r.opts.port) r.opts.port = sdk::Api().option_find(self, "port");
  const int64_t announce = sdk::OptionInt(r.opts.replica_announce_port);
  c.listening_port = static_cast<int>(announce ? announce : sdk::OptionInt(r.opts.port));
  load_path = DataDir() + "/temp-repl-" + std::to_string(getpid()) + ".rdb";
  c.rdb_path = load_path;
  c.timeout_ms = static_cast<int>(sdk::OptionInt(r.opts.repl_timeout, 60) * 1000);
  if (history_valid && (r.offset > 0 || synced)) {
    c.replid = r.replid;
    c.offset = static_cast<int64_t>(r.offset) + 1;
  }
  c.failover = failover_psync;
  Log(PLINTH_LOG_NOTICE, "Connecting to MASTER " + host + ":" + std::to_string(port));
  if (c.offset > 0)
    Log(PLINTH_LOG_NOTICE, "Trying a partial resynchronization (request " + c.replid + ":" +
                               std::to_string(c.offset) + ").");
  link = std::make_unique<Link>(self, std::move(c), Events());
  state = ReplState::kConnecting;
  last_io_ms = NowMs();
}

void Replica::ReplicaOf(plinth_call_t* call) {
  sdk::Call c(call);
  Impl& m = *impl_;
  if (m.r.failover && m.r.failover->active())
    return c.Error("ERR REPLICAOF not allowed while failing over.");
  std::string value;
  if (text::EqualsNoCase(c.arg(1), "no") && text::EqualsNoCase(c.arg(2), "one")) {
    if (m.state == ReplState::kNone && m.host.empty()) return c.Ok();
  } else {
    int64_t port = 0;
    if (!text::ParseInt64(c.arg(2), &port) || port < 0 || port > 65535)
      return c.Error("ERR Invalid master port");
    if (m.state != ReplState::kNone && m.host == c.arg(1) && m.port == port) {
      m.Log(PLINTH_LOG_NOTICE,
            "REPLICAOF would result into synchronization with the master we "
            "are already connected with. No operation performed.");
      return c.Simple("OK Already connected to specified master");
    }
    value = std::string(c.arg(1)) + " " + std::to_string(port);
  }
  // Through the option, so CONFIG GET replicaof and HELLO's role see it; its apply acts.
  char err[256] = "";
  if (sdk::Api().config_set(call, "replicaof", 9, value.data(), value.size(), err, sizeof err) !=
      PLINTH_OK)
    return c.Error(std::string("ERR ") + err);
  c.Ok();
}

void Replica::Role(plinth_call_t* call) {
  sdk::Call c(call);
  Impl& m = *impl_;
  if (m.state == ReplState::kNone) {
    c.Array(3);
    c.Bulk("master");
    c.Integer(static_cast<int64_t>(m.r.offset));
    c.Array(m.r.primary->online_count());
    m.r.primary->ForEachOnline(
        [](void* arg, const std::string& ip, int port, uint64_t offset) {
          const sdk::Call& cc = *static_cast<const sdk::Call*>(arg);
          cc.Array(3);
          cc.Bulk(ip);
          cc.Bulk(std::to_string(port));
          cc.Bulk(std::to_string(offset));
        },
        &c);
    return;
  }
  c.Array(5);
  c.Bulk("slave");
  c.Bulk(m.host);
  c.Integer(m.port);
  c.Bulk(StateName(m.state));
  c.Integer(m.state == ReplState::kConnected ? static_cast<int64_t>(m.r.offset) : -1);
}

bool Replica::Configure(const std::string& host, int port, std::string*) {
  Impl& m = *impl_;
  if (!m.running) {  // startup: Start follows it once the loop runs
    m.host = host;
    m.port = port;
    return true;
  }
  m.failover_psync = false;
  if (host.empty()) {
    m.Promote();
  } else if (m.state == ReplState::kNone || host != m.host || port != m.port) {
    m.Follow(host, port);
  }
  return true;
}

bool Replica::Start() {
  auto task = [](void*) {
    if (!Impl::live) return;
    Impl& m = *Impl::live;
    m.running = true;
    if (!m.host.empty()) m.Follow(std::string(m.host), m.port);
  };
  return sdk::Api().loop_post(impl_->self, task, nullptr) == PLINTH_OK;
}

void Replica::Cron() {
  Impl& m = *impl_;
  if (m.state == ReplState::kNone) return;
  const int64_t now = m.NowMs();
  if (!m.link && !m.loading && now >= m.next_connect_ms && sdk::Api().server_loading(m.self) == 0)
    m.Connect();
  if (m.state == ReplState::kConnected && m.link && now - m.last_ack_ms >= 1000) {
    m.link->Ack(m.r.offset);
    m.last_ack_ms = now;
  }
}

void Replica::FailoverTo(const std::string& host, int port) {
  Impl& m = *impl_;
  m.failover_psync = true;
  if (m.state != ReplState::kNone && m.host == host && m.port == port) {
    m.link.reset();  // already following it: a new link, whose PSYNC says FAILOVER
    m.Connect();
    return;
  }
  m.Follow(host, port);
}

void Replica::Promote() { impl_->Promote(); }

bool Replica::active() const { return impl_->state != ReplState::kNone; }

bool Replica::connected() const { return impl_->state == ReplState::kConnected; }

void Replica::SetReadOnly(bool on) {
  impl_->read_only = on;
  impl_->UpdateRefusals();
}

void Replica::SetServeStale(bool on) {
  impl_->serve_stale = on;
  impl_->UpdateRefusals();
}

void Replica::InfoFields(plinth_info_t* info) {
  Impl& m = *impl_;
  auto i = [&](const char* name, int64_t v) { sdk::Api().info_field_int(info, name, v); };
  auto s = [&](const char* name, const std::string& v) {
    sdk::Api().info_field(info, name, v.data(), v.size());
  };
  const int64_t now = m.NowMs();
  const bool up = m.state == ReplState::kConnected;
  const bool syncing = m.state == ReplState::kSync;
  s("master_host", m.host);
  i("master_port", m.port);
  s("master_link_status", up ? "up" : "down");
  i("master_last_io_seconds_ago", m.link ? (now - m.last_io_ms) / 1000 : -1);
  i("master_sync_in_progress", syncing);
  i("slave_read_repl_offset", static_cast<int64_t>(std::max(m.read_offset, m.r.offset)));
  i("slave_repl_offset", static_cast<int64_t>(m.r.offset));
  if (syncing) {
    const int64_t total = m.sync_total >= 0 ? m.sync_total : static_cast<int64_t>(m.sync_read);
    const int64_t read = static_cast<int64_t>(m.sync_read);
    i("master_sync_total_bytes", m.sync_total);
    i("master_sync_read_bytes", read);
    i("master_sync_left_bytes", total - read);
    char perc[32];
    std::snprintf(perc, sizeof perc, "%.2f", total > 0 ? 100.0 * read / total : 0.0);
    s("master_sync_perc", perc);
    i("master_sync_last_io_seconds_ago", (now - m.last_io_ms) / 1000);
  }
  if (!up)
    i("master_link_down_since_seconds", m.down_since_ms ? (now - m.down_since_ms) / 1000 : -1);
  // Plinth's: why full syncs keep failing (the replica then waits longer between tries).
  i("master_sync_consecutive_failures", m.sync_failures);
  s("master_sync_last_error", m.sync_error);
  i("slave_priority", sdk::OptionInt(m.r.opts.replica_priority, 100));
  i("slave_read_only", m.read_only);
  i("replica_announced", sdk::OptionInt(m.r.opts.replica_announced, 1));
}

}  // namespace plinth::replication
