// The sorted-set options (see options.h). The ziplist names are aliases that write the same
// limit; CONFIG GET of the name not set last still shows its own older text.
#include "zset/options.h"

#include <plinth/plugin.hpp>

#include "zset/zset.h"

namespace plinth::zset {
namespace {

int32_t ApplyEntries(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  CurrentLimits().max_entries = static_cast<size_t>(number);
  return PLINTH_OK;
}

int32_t ApplyValue(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  CurrentLimits().max_value = static_cast<size_t>(number);
  return PLINTH_OK;
}

const plinth_option_t* Register(const char* name, uint32_t type, const char* def,
                                plinth_option_apply_fn apply, const char* description) {
  return sdk::RegisterOption(name, type, PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME, def, 0,
                             INT64_MAX, description, apply);
}

}  // namespace

bool RegisterZsetOptions() {
  const plinth_option_t* entries =
      Register("zset-max-listpack-entries", PLINTH_OPT_INT, "128", &ApplyEntries,
               "largest sorted set kept in the compact listpack encoding");
  const plinth_option_t* value =
      Register("zset-max-listpack-value", PLINTH_OPT_MEMORY, "64", &ApplyValue,
               "longest member a listpack-encoded sorted set may hold");
  const plinth_option_t* old_entries =
      Register("zset-max-ziplist-entries", PLINTH_OPT_INT, "128", &ApplyEntries,
               "alias of zset-max-listpack-entries");
  const plinth_option_t* old_value = Register("zset-max-ziplist-value", PLINTH_OPT_MEMORY, "64",
                                              &ApplyValue, "alias of zset-max-listpack-value");
  if (!entries || !value || !old_entries || !old_value) return false;
  // A configured value of either name wins over the other's default, whatever order the
  // host applied them in at registration.
  const int64_t e = sdk::OptionInt(entries), oe = sdk::OptionInt(old_entries);
  const int64_t v = sdk::OptionInt(value), ov = sdk::OptionInt(old_value);
  CurrentLimits().max_entries = static_cast<size_t>(e != 128 ? e : oe);
  CurrentLimits().max_value = static_cast<size_t>(v != 64 ? v : ov);
  return true;
}

}  // namespace plinth::zset
