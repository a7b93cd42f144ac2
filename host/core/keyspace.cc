// The keyspace's databases, its access clock and expiry: a key deleted for its expiry, the
// active expiry cycle and the idle-time rehashing.
#include "host/core/keyspace.h"

#include <string>

#include "host/core/core.h"

namespace plinth::host {
namespace {

constexpr int kSamplesPerRound = 20;

}  // namespace

void Keyspace::Create() {
  const Option* n = core_.options.Find("databases");
  dbs.clear();
  dbs.resize(n ? static_cast<size_t>(n->int_value) : 16);
}

void Keyspace::RefreshAccessClock() {
  SetNewEntryStamp(AccessStampAt(evictor.access(), core_.server.NowMs()));
}

void Keyspace::Flushing(int32_t db) { core_.events.KeyChanged(db, nullptr, 0); }

void Keyspace::ActiveRehash(int64_t budget_us) {
  Clock& clock = *core_.server.env().clock;
  const int64_t start = clock.NowUs();
  for (Db& db : dbs)
    while (db.RehashStep(100))
      if (clock.NowUs() - start > budget_us) return;
}

void Expiry::ExpireKey(int32_t db, std::string_view key) {
  Keyspace& ks = core_.keyspace;
  ks.dbs[db].Delete(key);
  ks.KeyTouched(db, key, true);
  core_.server.stats.expired_keys++;
  ks.dirty++;
  if (!core_.events.keyspace_listeners.empty())
    core_.events.Notify(db, PLINTH_NOTIFY_EXPIRED, "expired", key);
  if (!core_.propagation.Encoding()) return;
  const char* argv[1] = {key.data()};
  const size_t lens[1] = {key.size()};
  core_.propagation.Propagate(db, "DEL", 3, 1, argv, lens);
}

uint64_t Expiry::ActiveCycle(int64_t budget_us) {
  Clock& clock = *core_.server.env().clock;
  const int64_t start = clock.NowUs();
  uint64_t expired = 0;
  if (passive) return 0;                        // a replica: its primary's DELs expire keys
  if (!active) return 0;                        // DEBUG SET-ACTIVE-EXPIRE 0
  if (core_.sessions.WritesPaused()) return 0;  // nothing changes during a pause of writes
  std::vector<Db>& dbs = core_.keyspace.dbs;
  for (size_t i = 0; i < dbs.size(); ++i) {
    Db& db = dbs[i];
    for (;;) {
      if (db.Size().expiring == 0) break;
      const int64_t now = clock.NowUs() / 1000;
      int hit = 0;
      for (int k = 0; k < kSamplesPerRound && db.Size().expiring > 0; ++k) {
        Entry* e = db.Sample(true);
        if (EntryExpired(e, now)) {
          ExpireKey(static_cast<int32_t>(i), std::string(EntryKey(e)));
          ++hit;
        }
      }
      expired += static_cast<uint64_t>(hit);
      if (hit <= kSamplesPerRound / 4 || clock.NowUs() - start > budget_us) break;
    }
    if (clock.NowUs() - start > budget_us) break;
  }
  return expired;
}

}  // namespace plinth::host
