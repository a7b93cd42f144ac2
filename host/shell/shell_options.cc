// The shell's options, under Redis's names and defaults: connection limits, timeouts, logging
// and the cron frequency. Apply callbacks keep the shell's Limits in step so the hot paths
// read plain fields.
#include <plinth/text.hpp>
#include <sstream>

#include "host/core/host_options.h"
#include "host/shell/log.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

Limits& LimitsOf(void* ctx) { return static_cast<Shell*>(ctx)->limits; }

int32_t ApplyMaxclients(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  LimitsOf(ctx).maxclients = n;
  return PLINTH_OK;
}
int32_t ApplyTimeout(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  LimitsOf(ctx).timeout_s = n;
  return PLINTH_OK;
}
int32_t ApplyQueryBuffer(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  LimitsOf(ctx).query_buffer = n;
  return PLINTH_OK;
}
int32_t ApplyHz(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  LimitsOf(ctx).hz = n;
  return PLINTH_OK;
}
int32_t ApplyProtected(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  LimitsOf(ctx).protected_mode = n != 0;
  return PLINTH_OK;
}
int32_t ApplyLogLevel(void*, const char*, const char*, size_t, int64_t n, char*, size_t) {
  SetLogLevel(static_cast<LogLevel>(n));  // the enum's words are in LogLevel order
  return PLINTH_OK;
}
int32_t ApplyLogFile(void*, const char*, const char* v, size_t len, int64_t, char* err,
                     size_t errlen) {
  if (!SetLogFile(std::string(v, len))) return ApplyFail(err, errlen, "can't open the log file");
  return PLINTH_OK;
}

int32_t ApplyIoThreads(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  auto* shell = static_cast<Shell*>(ctx);
  shell->io_settings.threads = static_cast<int>(n);
  shell->io.Configure(shell->io_settings);
  return PLINTH_OK;
}
int32_t ApplyIoAdaptive(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  auto* shell = static_cast<Shell*>(ctx);
  shell->io_settings.adaptive = n != 0;
  shell->io.Configure(shell->io_settings);
  return PLINTH_OK;
}
int32_t ApplyIoPark(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) {
  static_cast<Shell*>(ctx)->io_settings.park = n != 0;  // read when the threads start
  return PLINTH_OK;
}

// "normal <hard> <soft> <seconds> [replica ...] [pubsub ...]": each class named gets those
// limits (slave is replica's old name); a class not named keeps its limits.
int32_t ApplyOutputLimit(void* ctx, const char*, const char* v, size_t len, int64_t, char* err,
                         size_t errlen) {
  std::istringstream in(std::string(v, len));
  std::string cls, hard, soft, secs;
  Limits::OutputLimit normal = LimitsOf(ctx).out_normal, pubsub = LimitsOf(ctx).out_pubsub,
                      replica = LimitsOf(ctx).out_replica;
  while (in >> cls) {
    if (!(in >> hard >> soft >> secs))
      return ApplyFail(err, errlen, "Wrong number of arguments in buffer limit configuration.");
    int64_t a, b, c;
    if (!text::ParseMemoryLenient(hard, &a) || !text::ParseMemoryLenient(soft, &b) ||
        !text::ParseInt64Lenient(secs, &c) || a < 0 || b < 0 || c < 0)
      return ApplyFail(err, errlen,
                       "Error in hard, soft or soft_seconds setting in buffer limit "
                       "configuration.");
    if (cls == "normal") {
      normal = {a, b, c};
    } else if (cls == "pubsub") {
      pubsub = {a, b, c};
    } else if (cls == "replica" || cls == "slave") {
      replica = {a, b, c};
    } else {
      return ApplyFail(err, errlen,
                       "Invalid client class specified in buffer limit configuration.");
    }
  }
  LimitsOf(ctx).out_normal = normal;
  LimitsOf(ctx).out_pubsub = pubsub;
  LimitsOf(ctx).out_replica = replica;
  LimitsOf(ctx).SetOutputFloor();
  return PLINTH_OK;
}

constexpr uint32_t kMut = PLINTH_OPT_MUTABLE;
const HostOption kShellOptions[] = {
    {"maxclients", PLINTH_OPT_INT, kMut, "10000", 1, 1 << 24, nullptr, "max simultaneous clients",
     ApplyMaxclients},
    {"timeout", PLINTH_OPT_INT, kMut, "0", 0, INT32_MAX, nullptr,
     "close a client idle for this many seconds (0: never)", ApplyTimeout},
    {"protected-mode", PLINTH_OPT_BOOL, kMut, "yes", 0, 0, nullptr,
     "without a password, accept only loopback and unix-socket clients", ApplyProtected},
    {"client-query-buffer-limit", PLINTH_OPT_MEMORY, kMut, "1gb", int64_t{1024} * 1024, INT64_MAX,
     nullptr, "max bytes buffered for one client's requests", ApplyQueryBuffer},
    {"client-output-buffer-limit", PLINTH_OPT_STRING, kMut,
     "normal 0 0 0 replica 256mb 64mb 60 pubsub 32mb 8mb 60", 0, 0, nullptr,
     "per class: hard limit, soft limit, soft seconds (0: none)", ApplyOutputLimit},
    {"loglevel", PLINTH_OPT_ENUM, kMut, "notice", 0, 0, "debug|verbose|notice|warning",
     "lowest level logged", ApplyLogLevel},
    {"logfile", PLINTH_OPT_STRING, 0, "", 0, 0, nullptr, "log file (empty: stderr)", ApplyLogFile},
    {"hz", PLINTH_OPT_INT, 0, "10", 1, 500, nullptr, "background task frequency", ApplyHz},
    {"io-threads", PLINTH_OPT_INT, kMut, "1", 1, 128, nullptr,
     "threads doing network IO, the main thread included (1: all inline)", ApplyIoThreads},
    {"io-threads-adaptive", PLINTH_OPT_BOOL, kMut, "yes", 0, 0, nullptr,
     "activate IO threads only while the load needs them (no: always all)", ApplyIoAdaptive},
    {"io-threads-park", PLINTH_OPT_BOOL, 0, "yes", 0, 0, nullptr,
     "idle threads sleep after spinning (no: they only spin; for benchmarks)", ApplyIoPark},
    {"io-threads-do-reads", PLINTH_OPT_BOOL, kMut, "yes", 0, 0, nullptr,
     "accepted for compatibility: IO threads always read", nullptr},
};

}  // namespace

bool RegisterShellOptions(Shell& shell, std::string* err) {
  return shell.core.server.RegisterOptions(err) &&
         RegisterOptionTable(shell.core.options, kShellOptions, std::size(kShellOptions), &shell,
                             err);
}

}  // namespace plinth::host
