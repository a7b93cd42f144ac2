// maxmemory: the memory limit, the eviction policies and the access stamps they read. Before a
// client's command runs, Perform evicts keys while used memory (the allocator's figure, less
// what replicas' output buffers hold) is over maxmemory, within a time budget that
// maxmemory-eviction-tenacity sets; what is left continues with the next command or the cron.
// LRU, LFU and TTL policies keep a pool of the best candidates of maxmemory-samples keys drawn
// from each database per round, as Redis does, so their choices approximate Redis's. An evicted
// key is deleted as DEL is (its value freed on the lazy-free thread when large), counted in
// evicted_keys, announced as the "evicted" keyspace event and propagated as DEL. Main thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/core/access.h"

namespace plinth::host {

class Core;

// Redis's reply to a command refused for memory.
inline constexpr const char* kOomError = "OOM command not allowed when used memory > 'maxmemory'.";

// Where memory goes, as INFO memory and MEMORY STATS report it.
struct MemoryFigures {
  int64_t used = 0;      // the allocator's figure
  int64_t peak = 0;      // the highest one seen
  int64_t startup = 0;   // once the server was up
  int64_t rss = 0;       // the process's resident set
  int64_t tables = 0;    // the databases' hash tables and expiry arrays
  int64_t clients = 0;   // clients' buffers, replicas' included
  int64_t replicas = 0;  // replicas' output buffers
  int64_t keys = 0;
  int64_t overhead = 0;  // startup + tables + clients
  int64_t dataset = 0;   // used - overhead
};
MemoryFigures MeasureMemory(Core& core);

enum class EvictResult {
  kOk,       // under the limit (or no limit)
  kRunning,  // still over, the time budget ran out: eviction goes on later
  kFail,     // over the limit and nothing (more) can be evicted
};

class Evictor {
 public:
  explicit Evictor(Core& core) : core_(core) {}

  // Registers maxmemory, maxmemory-policy, maxmemory-samples, maxmemory-eviction-tenacity,
  // lfu-log-factor and lfu-decay-time. Returns false with *err on a bad configured value.
  bool RegisterOptions(std::string* err);
  int64_t limit() const { return limit_; }
  const AccessPolicy& access() const { return access_; }
  // Evicts until memory is under the limit or the time budget is spent.
  EvictResult Perform();
  // The memory eviction compares with maxmemory: the allocator's figure less what replicas'
  // output buffers hold, sampled at most once a millisecond (every 100 us near the limit) and
  // lowered by what eviction freed since.
  int64_t UsedForEviction();
  // The next UsedForEviction reads the allocator's figure again.
  void ForgetSample() { sampled_us_ = 0; }
  // The INFO memory section's maxmemory fields.
  void InfoFields(std::string* out) const;

  uint64_t evicted = 0;  // INFO evicted_keys

  // Option callbacks (ctx: the Evictor).
  static int32_t ApplyOption(void* ctx, const char* name, const char* v, size_t len, int64_t iv,
                             char* err, size_t errlen);

 private:
  struct Candidate {
    uint64_t score;  // higher: evicted first
    int32_t db;
    std::string key;
  };
  enum Policy : int64_t {  // maxmemory-policy's values, in its enum order
    kVolatileLru,
    kVolatileLfu,
    kVolatileRandom,
    kVolatileTtl,
    kAllkeysLru,
    kAllkeysLfu,
    kAllkeysRandom,
    kNoEviction,
  };
  bool AllKeys() const { return policy_ >= kAllkeysLru && policy_ <= kAllkeysRandom; }
  bool Random() const { return policy_ == kVolatileRandom || policy_ == kAllkeysRandom; }
  // Adds maxmemory-samples keys of db to the pool.
  void Populate(int32_t db);
  // Puts e (of db) in the pool when it is among the best candidates.
  void Consider(int32_t db, const Entry* e, int64_t now);
  // The next key to evict: *db and *key. False when there is none.
  bool PickVictim(int32_t* db, std::string* key);
  // Deletes key from db as an eviction; returns the bytes that frees (an estimate).
  int64_t EvictKey(int32_t db, const std::string& key);
  int64_t BudgetUs() const;

  Core& core_;
  int64_t limit_ = 0;
  int64_t policy_ = kNoEviction;
  int64_t samples_ = 5;
  int64_t tenacity_ = 10;
  AccessPolicy access_;
  std::vector<Candidate> pool_;  // ascending score, at most kPoolSize
  int32_t next_db_ = 0;          // the random policies go round the databases
  int64_t sample_ = 0;           // the last allocator figure
  uint64_t sampled_us_ = 0;      // when it was read (monotonic)
  int64_t freed_since_ = 0;      // what eviction freed since
};

}  // namespace plinth::host
