// The MISCONF refusal (see misconf.h). The option's apply callback and the save paths both call
// Refresh, so CONFIG SET stop-writes-on-bgsave-error no lifts a refusal at once, as in Redis.
#include "rdb/misconf.h"

#include <plinth/plugin.hpp>

namespace plinth::rdb {
namespace {

// Redis 7.0's text: clients match on the MISCONF prefix, tools on the rest.
constexpr char kMisconf[] =
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to "
    "disk. Commands that may modify the data set are disabled, because this instance is "
    "configured to report errors during writes if RDB snapshotting fails "
    "(stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB "
    "error.";

bool enabled = true;      // the option
bool last_ok = true;      // the last background save (or SAVE) succeeded
bool points = false;      // save points are configured
bool registered = false;  // the option exists (ApplySave may run before it)
bool refusing = false;

void Refresh() {
  if (!registered) return;
  const bool want = enabled && points && !last_ok;
  if (want == refusing) return;
  refusing = want;
  sdk::Api().server_refuse(sdk::Host::self, PLINTH_REFUSE_WRITES, want ? kMisconf : nullptr);
}

int32_t ApplyEnabled(void*, const char*, const char*, size_t, int64_t value, char*, size_t) {
  enabled = value != 0;
  Refresh();
  return PLINTH_OK;
}

}  // namespace

bool RegisterMisconfOption() {
  registered = true;
  return sdk::RegisterOption("stop-writes-on-bgsave-error", PLINTH_OPT_BOOL,
                             PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE, "yes", 0, 0,
                             "refuse writes with -MISCONF while the last background save failed",
                             &ApplyEnabled) != nullptr;
}

void UpdateMisconf(bool last_bgsave_ok, bool has_save_points) {
  last_ok = last_bgsave_ok;
  points = has_save_points;
  Refresh();
}

}  // namespace plinth::rdb
