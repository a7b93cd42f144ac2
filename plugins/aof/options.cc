// The AOF options (see options.h).
#include "aof/options.h"

#include <cstdio>
#include <plinth/plugin.hpp>

namespace plinth::aof {
namespace {

bool running = false;

Config& Cfg(void* ctx) { return static_cast<Aof*>(ctx)->config(); }

int32_t ApplyAppendOnly(void* ctx, const char*, const char*, size_t, int64_t n, char* err,
                        size_t errlen) {
  Aof* aof = static_cast<Aof*>(ctx);
  aof->config().appendonly = n != 0;
  if (!running) return PLINTH_OK;
  if (n == 0) {
    aof->Disable();
    return PLINTH_OK;
  }
  std::string why;
  if (aof->Enable(&why)) return PLINTH_OK;
  aof->config().appendonly = false;
  std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

int32_t ApplyName(void* ctx, const char* name, const char* v, size_t len, int64_t, char* err,
                  size_t errlen) {
  const std::string value(v, len);
  const bool file = std::string_view(name) == "appendfilename";
  if (!IsPlainFileName(value)) {
    std::snprintf(err, errlen,
                  file ? "appendfilename can't be a path, just a filename"
                       : "appenddirname can't be a path, just a dirname");
    return PLINTH_ERR;
  }
  (file ? Cfg(ctx).filename : Cfg(ctx).dirname) = value;
  return PLINTH_OK;
}

#define PLINTH_AOF_SETTER(fn, expr)                                                   \
  int32_t fn(void* ctx, const char*, const char*, size_t, int64_t n, char*, size_t) { \
    Config& c = Cfg(ctx);                                                             \
    expr;                                                                             \
    return PLINTH_OK;                                                                 \
  }
PLINTH_AOF_SETTER(ApplyFsync, c.fsync = static_cast<FsyncPolicy>(n))
PLINTH_AOF_SETTER(ApplyNoFsyncOnRewrite, c.no_fsync_on_rewrite = n != 0)
PLINTH_AOF_SETTER(ApplyPercentage, c.rewrite_percentage = n)
PLINTH_AOF_SETTER(ApplyMinSize, c.rewrite_min_size = n)
PLINTH_AOF_SETTER(ApplyLoadTruncated, c.load_truncated = n != 0)
PLINTH_AOF_SETTER(ApplyPreamble, c.use_rdb_preamble = n != 0)
PLINTH_AOF_SETTER(ApplyTimestamp, c.timestamp_enabled = n != 0)
PLINTH_AOF_SETTER(ApplyIncrementalFsync, c.rewrite_incremental_fsync = n != 0)
#undef PLINTH_AOF_SETTER

struct Def {
  const char* name;
  uint32_t type;
  bool mutable_;
  bool path;  // names a file or folder: PLINTH_OPT_PROTECTED
  const char* def;
  int64_t min, max;
  const char* enum_values;
  const char* help;
  plinth_option_apply_fn apply;
};

}  // namespace

void SetRunning(bool r) { running = r; }

bool RegisterOptions(Aof* aof) {
  constexpr uint32_t kB = PLINTH_OPT_BOOL, kS = PLINTH_OPT_STRING;
  const Def defs[] = {
      {"appendonly", kB, true, false, "no", 0, 0, nullptr,
       "log every write to the append-only file", &ApplyAppendOnly},
      {"appendfilename", kS, false, true, "appendonly.aof", 0, 0, nullptr,
       "base name of the append-only files", &ApplyName},
      {"appenddirname", kS, false, true, "appendonlydir", 0, 0, nullptr,
       "folder (inside dir) holding the append-only files", &ApplyName},
      {"appendfsync", PLINTH_OPT_ENUM, true, false, "everysec", 0, 0, "always|everysec|no",
       "when the AOF is fsynced: always, everysec (background thread) or no", &ApplyFsync},
      {"no-appendfsync-on-rewrite", kB, true, false, "no", 0, 0, nullptr,
       "skip everysec fsyncs while a snapshot child runs", &ApplyNoFsyncOnRewrite},
      {"auto-aof-rewrite-percentage", PLINTH_OPT_INT, true, false, "100", 0, INT32_MAX, nullptr,
       "rewrite when the AOF grew this much (percent) since the last rewrite; 0: never",
       &ApplyPercentage},
      {"auto-aof-rewrite-min-size", PLINTH_OPT_MEMORY, true, false, "64mb", 0, INT64_MAX, nullptr,
       "no automatic rewrite below this AOF size", &ApplyMinSize},
      {"aof-load-truncated", kB, true, false, "yes", 0, 0, nullptr,
       "load a truncated AOF tail (and cut it off) instead of refusing to start",
       &ApplyLoadTruncated},
      {"aof-use-rdb-preamble", kB, true, false, "yes", 0, 0, nullptr,
       "write the rewritten base as RDB instead of commands", &ApplyPreamble},
      {"aof-timestamp-enabled", kB, true, false, "no", 0, 0, nullptr,
       "write #TS annotations into the AOF", &ApplyTimestamp},
      {"aof-rewrite-incremental-fsync", kB, true, false, "yes", 0, 0, nullptr,
       "fsync every 4 MB while writing a rewritten base", &ApplyIncrementalFsync},
  };
  for (const Def& d : defs) {
    plinth_option_spec_t o{};
    o.struct_size = sizeof o;
    o.name = d.name;
    o.type = d.type;
    o.flags = PLINTH_OPT_GLOBAL_NAME | (d.mutable_ ? PLINTH_OPT_MUTABLE : 0u) |
              (d.path ? PLINTH_OPT_PROTECTED : 0u);
    o.default_value = d.def;
    o.min = d.min;
    o.max = d.max;
    o.enum_values = d.enum_values;
    o.description = d.help;
    o.apply = d.apply;
    o.ctx = aof;
    const plinth_option_t* h = sdk::Api().option_register(sdk::Host::self, &o);
    if (!h) return false;
    // The configured value may have been applied already; reading it back covers both cases.
    char err[128];
    size_t len = 0;
    const char* text = sdk::Api().option_string(h, &len);
    if (d.apply(aof, d.name, text ? text : "", len, sdk::Api().option_int(h), err, sizeof err) !=
        PLINTH_OK)
      return false;
  }
  return true;
}

}  // namespace plinth::aof
