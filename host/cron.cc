// Periodic work. Active expiry samples keys that have a TTL, like Redis: 20 per round, another
// round while more than a quarter of the sample had expired, within a time budget.
#include "host/cron.h"

#include "host/call.h"
#include "host/client.h"
#include "host/log.h"
#include "host/server.h"

namespace plinth::host {
namespace {

constexpr int kSamplesPerRound = 20;

void CloseIdleClients() {
  Server& s = Srv();
  if (s.limits.timeout_s <= 0 && s.limits.out_soft <= 0) return;
  int64_t now = NowMs();
  // Collect first: closing a client removes it from the map being walked.
  std::vector<Client*> idle, over_soft;
  for (auto& [id, c] : s.clients) {
    if (s.limits.timeout_s > 0 && now - c->last_interaction_ms > s.limits.timeout_s * 1000)
      idle.push_back(c);
    else if (c->soft_limit_since)
      over_soft.push_back(c);
  }
  for (Client* c : idle) {
    Log(LogLevel::kVerbose, "Closing idle client id=%llu", static_cast<unsigned long long>(c->id));
    s.stats.timeout_disconnections++;
    ClientClose(c);
  }
  for (Client* c : over_soft) ClientCheckOutputLimits(c);
}

void OnCron(uv_timer_t*) {
  Server& s = Srv();
  ActiveExpireCycle(1000000 / s.limits.hz / 4);
  CloseIdleClients();
}

}  // namespace

uint64_t ActiveExpireCycle(int64_t budget_us) {
  Server& s = Srv();
  int64_t start = NowUs();
  uint64_t expired = 0;
  for (size_t i = 0; i < s.dbs.size(); ++i) {
    Db& db = s.dbs[i];
    for (;;) {
      if (db.ExpiringCount() == 0) break;
      int64_t now = NowMs();
      int hit = 0;
      for (int k = 0; k < kSamplesPerRound && db.ExpiringCount() > 0; ++k) {
        Entry* e = db.RandomExpiring();
        if (e->expire_ms <= now) {
          ExpireKey(static_cast<int32_t>(i), std::string(e->Key()));
          ++hit;
        }
      }
      expired += static_cast<uint64_t>(hit);
      if (hit <= kSamplesPerRound / 4 || NowUs() - start > budget_us) break;
    }
    if (NowUs() - start > budget_us) break;
  }
  return expired;
}

void CronStart() {
  Server& s = Srv();
  uv_timer_init(s.loop, &s.cron);
  uint64_t period = static_cast<uint64_t>(1000 / s.limits.hz);
  uv_timer_start(&s.cron, OnCron, period, period);
}

void CronStop() {
  Server& s = Srv();
  uv_timer_stop(&s.cron);
  uv_close(reinterpret_cast<uv_handle_t*>(&s.cron), nullptr);
}

}  // namespace plinth::host
