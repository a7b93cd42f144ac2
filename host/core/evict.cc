// maxmemory and eviction (evict.h).
#include "host/core/evict.h"

#include <algorithm>
#include <cmath>

#include "host/core/core.h"
#include "host/core/host_options.h"
#include "host/core/info.h"
#include "host/core/lazy_free.h"

namespace plinth::host {
namespace {

constexpr size_t kPoolSize = 16;
// The allocator's figure is read again after this long (about a microsecond per read), more
// often near the limit, where a stale figure lets writes overshoot it.
constexpr uint64_t kResampleUs = 1000, kResampleNearUs = 100;
constexpr int64_t kKeyOverhead = 16;  // a key's share of its table (slot, tag, spare room)

constexpr uint32_t kMut = PLINTH_OPT_MUTABLE;
const HostOption kOptions[] = {
    {"maxmemory", PLINTH_OPT_MEMORY, kMut, "0", 0, INT64_MAX, nullptr,
     "memory limit in bytes (0: none); over it, keys are evicted by maxmemory-policy",
     Evictor::ApplyOption},
    {"maxmemory-policy", PLINTH_OPT_ENUM, kMut, "noeviction", 0, 0,
     "volatile-lru|volatile-lfu|volatile-random|volatile-ttl|allkeys-lru|allkeys-lfu|"
     "allkeys-random|noeviction",
     "which keys go when memory is over maxmemory", Evictor::ApplyOption},
    {"maxmemory-samples", PLINTH_OPT_INT, kMut, "5", 1, INT32_MAX, nullptr,
     "keys sampled per database and round by the LRU, LFU and TTL policies", Evictor::ApplyOption},
    {"maxmemory-eviction-tenacity", PLINTH_OPT_INT, kMut, "10", 0, 100, nullptr,
     "how long one command may evict before the rest waits (10: 500 us; 100: no limit)",
     Evictor::ApplyOption},
    {"lfu-log-factor", PLINTH_OPT_INT, kMut, "10", 0, INT32_MAX, nullptr,
     "how slowly the LFU counter grows", Evictor::ApplyOption},
    {"lfu-decay-time", PLINTH_OPT_INT, kMut, "1", 0, INT32_MAX, nullptr,
     "minutes per decrement of an idle key's LFU counter", Evictor::ApplyOption},
};

}  // namespace

int32_t Evictor::ApplyOption(void* ctx, const char* name, const char*, size_t, int64_t iv, char*,
                             size_t) {
  auto* e = static_cast<Evictor*>(ctx);
  const std::string_view n(name);
  if (n == "maxmemory") {
    e->limit_ = iv;
    e->core_.server.env().memory->AllocatorLimit(iv);
  } else if (n == "maxmemory-policy") {
    e->policy_ = iv;
    e->access_.lfu = iv == kVolatileLfu || iv == kAllkeysLfu;
    e->pool_.clear();  // scores of another kind
    e->core_.keyspace.RefreshAccessClock();
  } else if (n == "maxmemory-samples") {
    e->samples_ = iv;
  } else if (n == "maxmemory-eviction-tenacity") {
    e->tenacity_ = iv;
  } else if (n == "lfu-log-factor") {
    e->access_.log_factor = iv;
  } else if (n == "lfu-decay-time") {
    e->access_.decay_minutes = iv;
  }
  return PLINTH_OK;
}

bool Evictor::RegisterOptions(std::string* err) {
  return RegisterOptionTable(core_.options, kOptions, std::size(kOptions), this, err);
}

int64_t Evictor::BudgetUs() const {
  if (tenacity_ <= 10) return 50 * tenacity_;
  if (tenacity_ < 100) return static_cast<int64_t>(500 * std::pow(1.15, tenacity_ - 10));
  return INT64_MAX;
}

int64_t Evictor::UsedForEviction() {
  const uint64_t now = MonoUs();
  const uint64_t every = sample_ > limit_ - limit_ / 16 ? kResampleNearUs : kResampleUs;
  if (sampled_us_ == 0 || now - sampled_us_ >= every) {
    sample_ = core_.server.MemoryNow() - core_.server.env().memory->NotCountedMemory();
    sampled_us_ = now;
    freed_since_ = 0;
  }
  return sample_ - freed_since_;
}

EvictResult Evictor::Perform() {
  // A replica ignores maxmemory (its primary's DELs evict), as does loading.
  if (limit_ <= 0 || core_.keyspace.expiry.passive || core_.server.state.loaders > 0 ||
      core_.sessions.WritesPaused())
    return EvictResult::kOk;
  int64_t over = UsedForEviction() - limit_;
  if (over <= 0) return EvictResult::kOk;
  if (policy_ == kNoEviction) return EvictResult::kFail;
  const uint64_t start = MonoUs();
  const int64_t budget = BudgetUs();
  int32_t db;
  std::string key;
  for (uint64_t n = 1; over > 0; ++n) {
    if (!PickVictim(&db, &key)) return EvictResult::kFail;
    const int64_t freed = EvictKey(db, key);
    freed_since_ += freed;
    over -= freed;
    if (n % 16 == 0 && static_cast<int64_t>(MonoUs() - start) > budget)
      return over > 0 ? EvictResult::kRunning : EvictResult::kOk;
  }
  return EvictResult::kOk;
}

void Evictor::Populate(int32_t db) {
  const Db& d = core_.keyspace.dbs[db];
  const int64_t now = core_.server.NowMs();
  Entry* sample[16];
  for (int64_t left = samples_; left > 0; left -= 16) {
    const size_t n = d.Sample(!AllKeys(), sample, static_cast<size_t>(std::min<int64_t>(left, 16)));
    if (n == 0) return;
    for (size_t i = 0; i < n; ++i) Consider(db, sample[i], now);
  }
}

void Evictor::Consider(int32_t db, const Entry* e, int64_t now) {
  uint64_t score;
  if (policy_ == kVolatileTtl)
    score = UINT64_MAX - static_cast<uint64_t>(EntryExpireMs(e));
  else if (access_.lfu)
    score = 255 - AccessFrequency(e, access_, now);
  else
    score = AccessIdleMs(e, now);
  if (pool_.size() == kPoolSize && score <= pool_.front().score) return;
  const std::string_view key = EntryKey(e);
  if (std::any_of(pool_.begin(), pool_.end(),
                  [&](const Candidate& c) { return c.db == db && c.key == key; }))
    return;
  auto at = std::upper_bound(pool_.begin(), pool_.end(), score,
                             [](uint64_t s, const Candidate& c) { return s < c.score; });
  if (pool_.size() == kPoolSize) {  // the worst candidate makes room
    pool_.erase(pool_.begin());
    --at;
  }
  pool_.insert(at, Candidate{score, db, std::string(key)});
}

bool Evictor::PickVictim(int32_t* db, std::string* key) {
  const int32_t dbs = static_cast<int32_t>(core_.keyspace.dbs.size());
  auto has_keys = [&](int32_t i) {
    const Db& d = core_.keyspace.dbs[i];
    return AllKeys() ? d.Size().keys > 0 : d.Size().expiring > 0;
  };
  if (Random()) {
    for (int32_t tried = 0; tried < dbs; ++tried) {
      const int32_t i = next_db_;
      next_db_ = (next_db_ + 1) % dbs;
      if (!has_keys(i)) continue;
      const Db& d = core_.keyspace.dbs[i];
      const Entry* e = d.Sample(!AllKeys());
      *db = i;
      key->assign(EntryKey(e));
      return true;
    }
    return false;
  }
  for (;;) {
    bool any = false;
    for (int32_t i = 0; i < dbs; ++i) {
      if (!has_keys(i)) continue;
      any = true;
      Populate(i);
    }
    if (!any) return false;
    // The best candidate still present (the pool may hold keys deleted since).
    while (!pool_.empty()) {
      Candidate c = std::move(pool_.back());
      pool_.pop_back();
      const Entry* e = core_.keyspace.dbs[c.db].Find(c.key);
      if (!e || (!AllKeys() && EntryExpireMs(e) < 0)) continue;
      *db = c.db;
      *key = std::move(c.key);
      return true;
    }
  }
}

int64_t Evictor::EvictKey(int32_t db, const std::string& key) {
  Db& d = core_.keyspace.dbs[db];
  Entry* e = d.Find(key);
  const int64_t bytes = static_cast<int64_t>(ValueMemory(e) + key.size()) + kKeyOverhead;
  plinth_value_t* v = EntryValue(e);
  if (v != e) ValueRetain(v);  // outlives the entry, freed below
  d.Delete(key);
  if (v != e) ReleaseLazily(v);
  evicted++;
  core_.keyspace.KeyTouched(db, key);
  if (!core_.events.keyspace_listeners.empty())
    core_.events.Notify(db, PLINTH_NOTIFY_EVICTED, "evicted", key);
  if (core_.propagation.Encoding()) {
    const char* argv[1] = {key.data()};
    const size_t lens[1] = {key.size()};
    core_.propagation.Propagate(db, "DEL", 3, 1, argv, lens);
  }
  return bytes;
}

MemoryFigures MeasureMemory(Core& core) {
  MemoryFigures m;
  Memory& mem = *core.server.env().memory;
  m.used = core.server.MemoryNow();
  m.peak = core.server.state.peak_memory;
  m.startup = core.server.state.startup_memory;
  m.rss = mem.RssMemory();
  for (const Db& d : core.keyspace.dbs) {
    m.tables += static_cast<int64_t>(d.Size().table_bytes);
    m.keys += static_cast<int64_t>(d.Size().keys);
  }
  m.clients = mem.ClientMemory();
  m.replicas = mem.NotCountedMemory();
  m.overhead = m.startup + m.tables + m.clients;
  m.dataset = std::max<int64_t>(m.used - m.overhead, 0);
  return m;
}

void Evictor::InfoFields(std::string* out) const {
  static const char* const kNames[] = {"volatile-lru",   "volatile-lfu", "volatile-random",
                                       "volatile-ttl",   "allkeys-lru",  "allkeys-lfu",
                                       "allkeys-random", "noeviction"};
  InfoLine(out, "maxmemory", limit_);
  InfoLine(out, "maxmemory_human", HumanBytes(limit_));
  InfoLine(out, "maxmemory_policy", kNames[policy_]);
}

}  // namespace plinth::host
