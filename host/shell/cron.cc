// Periodic work: the clients' buffer sizes and what eviction left to do, the core's active expiry
// within a quarter of the cron period, a millisecond of table resizing, then the clients that were
// idle too long or stayed over their soft output limit, then the IO threads' load policy.
#include "host/shell/cron.h"

#include "host/shell/client.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

void CloseIdleClients(Shell& s) {
  if (s.limits.timeout_s <= 0 && s.limits.out_normal.soft <= 0 && s.limits.out_pubsub.soft <= 0 &&
      s.limits.out_replica.soft <= 0)
    return;
  int64_t now = s.core.server.NowMs();
  // Collect first: closing a client removes it from the map being walked.
  std::vector<Client*> idle, over_soft;
  for (auto& [id, c] : s.clients.by_id) {
    // A blocked client waits on purpose (Redis does not time it out either); a replica is
    // watched by its replication plugin instead.
    if (s.limits.timeout_s > 0 && !c->session.block && !c->session.replica &&
        now - c->session.last_interaction_ms > s.limits.timeout_s * 1000)
      idle.push_back(c);
    else if (c->out.soft_limit_since)
      over_soft.push_back(c);
  }
  for (Client* c : idle) {
    s.core.server.Log(LogLevel::kVerbose, "Closing idle client id=%llu",
                      static_cast<unsigned long long>(c->session.id));
    s.core.server.stats.timeout_disconnections++;
    ClientClose(c);
  }
  for (Client* c : over_soft) ClientCheckOutputLimits(c);
}

// What the clients' buffers hold (MEMORY STATS), and replicas' output, which maxmemory does not
// count.
void CountClientBuffers(Shell& s) {
  int64_t all = 0, replicas = 0;
  for (auto& [id, c] : s.clients.by_id) {
    all += static_cast<int64_t>(c->query.cap + c->out.bytes);
    if (c->session.replica) replicas += static_cast<int64_t>(c->out.bytes);
  }
  s.clients.buffers = all;
  s.clients.replica_buffers = replicas;
}

void OnCron(uv_timer_t* h) {
  Shell& s = *static_cast<Shell*>(h->data);
  CountClientBuffers(s);
  s.core.server.CronTick(1000000 / s.limits.hz);
  s.core.keyspace.ActiveRehash(1000);
  CloseIdleClients(s);
  s.io.Adapt(static_cast<int64_t>(uv_hrtime()), static_cast<int64_t>(uv_metrics_idle_time(s.loop)),
             s.core.server.stats.commands);
}

}  // namespace

void CronStart(Shell& shell, uv_timer_t* timer) {
  uv_timer_init(shell.loop, timer);
  timer->data = &shell;
  uint64_t period = static_cast<uint64_t>(1000 / shell.limits.hz);
  uv_timer_start(timer, OnCron, period, period);
}

void CronStop(uv_timer_t* timer) {
  uv_timer_stop(timer);
  uv_close(reinterpret_cast<uv_handle_t*>(timer), nullptr);
}

}  // namespace plinth::host
