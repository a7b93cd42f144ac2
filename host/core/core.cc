// The core's lifecycle, logging and active expiry.
#include "host/core/core.h"

#include <cstdio>
#include <cstdlib>
#include <random>

#include "host/core/api.h"
#include "host/core/lazy_free.h"

namespace plinth::host {
namespace {

constexpr int kSamplesPerRound = 20;

}  // namespace

Core::Core(Env* env) : env_(env), main_thread_(std::this_thread::get_id()) {
  start_ms = NowMs();
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 40; i += 8) {
    const uint32_t r = rd();
    for (int j = 0; j < 8; ++j) run_id[i + j] = kHex[(r >> (4 * j)) & 15];
  }
  RegisterTransactionCommands(*this);
  exec_cmd_ = registry.FindCommand("exec");
  RefreshAccessClock();
}

Core::~Core() {
  dbs.clear();  // values first: their types' free callbacks live in loaded plugins
  LazyFreeDrain();
}

void Core::CreateDatabases() {
  const Option* n = options.Find("databases");
  dbs.clear();
  dbs.resize(n ? static_cast<size_t>(n->int_value) : 16);
}

void Core::Log(LogLevel level, const char* fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  env_->Log(level, "", std::string_view(buf, std::min<size_t>(n, sizeof buf - 1)));
}

#ifndef NDEBUG
void Core::AssertMainThread(const char* function) const {
  if (std::this_thread::get_id() == main_thread_) return;
  env_->Log(LogLevel::kWarning, "",
            std::string(function) + " called off the main thread: this is a plugin bug");
  std::abort();
}
#endif

void Core::Unregister(const std::string& owner) {
  registry.RemoveOwner(owner);
  endpoints.RemoveOwner(owner);
  listeners.RemoveOwner(owner);
  if (auth.acl.owner == owner) auth.acl = Auth::Provider();
  propagation.CountActiveConsumers();
  CountObservers();
  key_listeners_on = 0;  // recounted: the owner's listeners are gone
  for (const KeyChangeListener& l : listeners.key_change_listeners) key_listeners_on += l.on;
  options.UnregisterOwner(owner);
  types.UnregisterOwner(owner);
}

void Core::CronTick(int64_t period_us) {
  MemoryNow();  // keeps the peak
  RefreshAccessClock();
  evictor.Perform();  // what the commands' budgets left, also when no command comes
  ActiveExpireCycle(period_us / 4);
}

uint64_t Core::ActiveExpireCycle(int64_t budget_us) {
  int64_t start = NowUs();
  uint64_t expired = 0;
  if (expiry_passive) return 0;  // a replica: its primary's DELs expire keys
  if (!active_expire) return 0;  // DEBUG SET-ACTIVE-EXPIRE 0
  if (WritesPaused()) return 0;  // nothing changes during a pause of writes
  for (size_t i = 0; i < dbs.size(); ++i) {
    Db& db = dbs[i];
    for (;;) {
      if (db.ExpiringCount() == 0) break;
      int64_t now = NowMs();
      int hit = 0;
      for (int k = 0; k < kSamplesPerRound && db.ExpiringCount() > 0; ++k) {
        Entry* e = db.RandomExpiring();
        if (EntryExpired(e, now)) {
          ExpireKey(static_cast<int32_t>(i), std::string(EntryKey(e)));
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

void Core::ActiveRehash(int64_t budget_us) {
  const int64_t start = NowUs();
  for (Db& db : dbs)
    while (db.RehashStep(100))
      if (NowUs() - start > budget_us) return;
}

}  // namespace plinth::host
