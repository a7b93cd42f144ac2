// The core's making and unmaking, and the server object's clock, log, cron and before-sleep
// pass.
#include "host/core/core.h"

#include <cstdio>
#include <cstdlib>
#include <random>

#include "host/core/api.h"
#include "host/core/lazy_free.h"

namespace plinth::host {

Core::Core(const Env& env) : server(*this, env) {
  RegisterTransactionCommands(*this);
  registry.exec = registry.FindCommand("exec");
  keyspace.RefreshAccessClock();
}

Core::~Core() {
  keyspace.dbs.clear();  // values first: their types' free callbacks live in loaded plugins
  LazyFreeDrain();
}

Server::Server(Core& core, const Env& env)
    : core_(core), env_(env), main_thread_(std::this_thread::get_id()) {
  state.start_ms = NowMs();
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 40; i += 8) {
    const uint32_t r = rd();
    for (int j = 0; j < 8; ++j) state.run_id[i + j] = kHex[(r >> (4 * j)) & 15];
  }
}

void Server::Log(LogLevel level, const char* fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  env_.log->Log(level, "", std::string_view(buf, std::min<size_t>(n, sizeof buf - 1)));
}

#ifndef NDEBUG
void Server::AssertMainThread(const char* function) const {
  if (std::this_thread::get_id() == main_thread_) return;
  env_.log->Log(LogLevel::kWarning, "",
                std::string(function) + " called off the main thread: this is a plugin bug");
  std::abort();
}
#endif

void Server::BeforeSleep() {
  core_.propagation.Deliver();
  for (const BeforeSleepHook& h : core_.listeners.before_sleep) h.fn(h.ctx);
}

void Server::CronTick(int64_t period_us) {
  MemoryNow();  // keeps the peak
  core_.keyspace.RefreshAccessClock();
  core_.keyspace.evictor.Perform();  // what the commands' budgets left, also when no command comes
  core_.keyspace.expiry.ActiveCycle(period_us / 4);
}

}  // namespace plinth::host
