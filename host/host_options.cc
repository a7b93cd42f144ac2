// The host's own options, under Redis's names and defaults. Apply callbacks keep Srv().limits
// in step so the hot paths read plain fields.
#include <cstring>
#include <sstream>

#include "host/log.h"
#include "host/server.h"

namespace plinth::host {
namespace {

int32_t Fail(char* err, size_t errlen, const char* msg) {
  std::snprintf(err, errlen, "%s", msg);
  return PLINTH_ERR;
}

int32_t ApplyLimit(void* ctx, const char* name, const char* v, size_t len, char* err,
                   size_t errlen) {
  Limits& l = Srv().limits;
  std::string value(v, len);
  int64_t iv = 0;
  std::string_view n(name);
  if (n == "requirepass") {
    l.has_password = !value.empty();
    return PLINTH_OK;
  }
  if (n == "protected-mode") {
    l.protected_mode = value == "yes";
    return PLINTH_OK;
  }
  if (n == "loglevel") {
    LogLevel lv;
    if (!ParseLogLevel(value, &lv)) return Fail(err, errlen, "invalid log level");
    SetLogLevel(lv);
    return PLINTH_OK;
  }
  if (n == "logfile") {
    if (!SetLogFile(value)) return Fail(err, errlen, "can't open the log file");
    return PLINTH_OK;
  }
  ParseInt64(value, &iv);
  if (n == "maxclients") l.maxclients = iv;
  if (n == "timeout") l.timeout_s = iv;
  if (n == "client-query-buffer-limit") l.query_buffer = iv;
  if (n == "hz") l.hz = iv;
  (void)ctx;
  return PLINTH_OK;
}

// "normal <hard> <soft> <seconds> [replica ...] [pubsub ...]": the normal class is enforced;
// the other classes are accepted for compatibility and kept in the option's text.
int32_t ApplyOutputLimit(void*, const char*, const char* v, size_t len, char* err, size_t errlen) {
  std::istringstream in(std::string(v, len));
  std::string cls, hard, soft, secs;
  bool normal_seen = false;
  int64_t h = 0, so = 0, se = 0;
  while (in >> cls) {
    if (!(in >> hard >> soft >> secs))
      return Fail(err, errlen, "Wrong number of arguments in buffer limit configuration.");
    int64_t a, b, c;
    if (!ParseMemory(hard, &a) || !ParseMemory(soft, &b) || !ParseInt64(secs, &c) || a < 0 ||
        b < 0 || c < 0)
      return Fail(err, errlen,
                  "Error in hard, soft or soft_seconds setting in buffer limit "
                  "configuration.");
    if (cls == "normal") {
      normal_seen = true;
      h = a, so = b, se = c;
    } else if (cls != "replica" && cls != "slave" && cls != "pubsub") {
      return Fail(err, errlen, "Invalid client class specified in buffer limit configuration.");
    }
  }
  if (normal_seen) {
    Limits& l = Srv().limits;
    l.out_hard = h;
    l.out_soft = so;
    l.out_soft_seconds = se;
  }
  return PLINTH_OK;
}

// Placeholders accept only their default: the feature needs its plugin.
int32_t ApplyPlaceholder(void* ctx, const char* name, const char* v, size_t len, char* err,
                         size_t errlen) {
  if (std::string_view(v, len) == static_cast<const char*>(ctx)) return PLINTH_OK;
  std::snprintf(err, errlen, "'%s' needs a persistence plugin, and none is loaded", name);
  return PLINTH_ERR;
}

struct HostOption {
  const char* name;
  uint32_t type;
  uint32_t flags;
  const char* def;
  int64_t min, max;
  const char* enums;
  const char* desc;
  plinth_option_apply_fn apply;
};

constexpr uint32_t kMut = PLINTH_OPT_MUTABLE;
const HostOption kHostOptions[] = {
    {"databases", PLINTH_OPT_INT, 0, "16", 1, 1 << 20, nullptr, "number of databases", nullptr},
    {"maxclients", PLINTH_OPT_INT, kMut, "10000", 1, 1 << 24, nullptr, "max simultaneous clients",
     ApplyLimit},
    {"timeout", PLINTH_OPT_INT, kMut, "0", 0, INT32_MAX, nullptr,
     "close a client idle for this many seconds (0: never)", ApplyLimit},
    {"requirepass", PLINTH_OPT_STRING, kMut | PLINTH_OPT_SECRET, "", 0, 0, nullptr,
     "password of the default user (empty: none)", ApplyLimit},
    {"protected-mode", PLINTH_OPT_BOOL, kMut, "yes", 0, 0, nullptr,
     "without a password, accept only loopback and unix-socket clients", ApplyLimit},
    {"client-query-buffer-limit", PLINTH_OPT_MEMORY, kMut, "1gb", 1024 * 1024, INT64_MAX, nullptr,
     "max bytes buffered for one client's requests", ApplyLimit},
    {"client-output-buffer-limit", PLINTH_OPT_STRING, kMut,
     "normal 0 0 0 replica 256mb 64mb 60 pubsub 32mb 8mb 60", 0, 0, nullptr,
     "per class: hard limit, soft limit, soft seconds (0: none)", ApplyOutputLimit},
    {"loglevel", PLINTH_OPT_ENUM, kMut, "notice", 0, 0, "debug|verbose|notice|warning",
     "lowest level logged", ApplyLimit},
    {"logfile", PLINTH_OPT_STRING, 0, "", 0, 0, nullptr, "log file (empty: stderr)", ApplyLimit},
    {"hz", PLINTH_OPT_INT, 0, "10", 1, 500, nullptr, "background task frequency", ApplyLimit},
    {"plugin-dir", PLINTH_OPT_STRING, 0, "", 0, 0, nullptr,
     "where plugins named without a path are found (default: <prefix>/lib/plinth/plugins)",
     nullptr},
    {"plugin-allow-writable", PLINTH_OPT_BOOL, 0, "no", 0, 0, nullptr,
     "load plugin files that group or others may write", nullptr},
    {"appendonly", PLINTH_OPT_BOOL, kMut | kOptPlaceholder, "no", 0, 0, nullptr,
     "append-only file (needs a persistence plugin)", ApplyPlaceholder},
    {"save", PLINTH_OPT_STRING, kMut | kOptPlaceholder, "", 0, 0, nullptr,
     "snapshot schedule (needs a persistence plugin)", ApplyPlaceholder},
};

}  // namespace

bool RegisterHostOptions(std::string* err) {
  for (const HostOption& h : kHostOptions) {
    plinth_option_spec_t s{};
    s.struct_size = sizeof s;
    s.name = h.name;
    s.type = h.type;
    s.flags = h.flags | PLINTH_OPT_GLOBAL_NAME;
    s.default_value = h.def;
    s.min = h.min;
    s.max = h.max;
    s.enum_values = h.enums;
    s.description = h.desc;
    s.apply = h.apply;
    s.ctx = const_cast<char*>(h.def);
    if (!Srv().options.Register(&s, "host", err)) return false;
  }
  return true;
}

}  // namespace plinth::host
