// The stream options (see options.h).
#include "stream/options.h"

#include <plinth/plugin.hpp>

#include "stream/stream.h"

namespace plinth::stream {
namespace {

int32_t ApplyBytes(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  CurrentLimits().max_bytes = number;
  return PLINTH_OK;
}

int32_t ApplyEntries(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  CurrentLimits().max_entries = number;
  return PLINTH_OK;
}

}  // namespace

bool RegisterStreamOptions() {
  const uint32_t flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
  const plinth_option_t* bytes =
      sdk::RegisterOption("stream-node-max-bytes", PLINTH_OPT_MEMORY, flags, "4096", 0, INT64_MAX,
                          "largest size in bytes of one stream node (0: no limit)", &ApplyBytes);
  const plinth_option_t* entries = sdk::RegisterOption(
      "stream-node-max-entries", PLINTH_OPT_INT, flags, "100", 0, INT64_MAX,
      "most entries in one stream node before a new one starts (0: no limit)", &ApplyEntries);
  if (!bytes || !entries) return false;
  CurrentLimits().max_bytes = sdk::OptionInt(bytes);
  CurrentLimits().max_entries = sdk::OptionInt(entries);
  return true;
}

}  // namespace plinth::stream
