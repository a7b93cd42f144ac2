// The hash encoding options (see options.h).
#include "hash/options.h"

#include <atomic>
#include <cstdint>
#include <plinth/plugin.hpp>

namespace plinth::hash {
namespace {

std::atomic<uint64_t> max_entries{512};
std::atomic<uint64_t> max_value{64};

int32_t Apply(void* ctx, const char*, const char*, size_t, int64_t number, char*, size_t) {
  static_cast<std::atomic<uint64_t>*>(ctx)->store(static_cast<uint64_t>(number),
                                                  std::memory_order_relaxed);
  return PLINTH_OK;
}

bool Register(const char* name, uint32_t type, const char* def, const char* description,
              std::atomic<uint64_t>* target) {
  const plinth_option_t* handle =
      sdk::RegisterOption(name, type, PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME, def, 0,
                          INT64_MAX, description, &Apply, target);
  if (!handle) return false;
  // The configured value may have been applied already; reading it back covers both cases.
  target->store(static_cast<uint64_t>(sdk::Api().option_int(handle)), std::memory_order_relaxed);
  return true;
}

}  // namespace

bool RegisterOptions() {
  return Register("hash-max-listpack-entries", PLINTH_OPT_INT, "512",
                  "most fields a hash keeps in the compact listpack encoding", &max_entries) &&
         Register("hash-max-listpack-value", PLINTH_OPT_MEMORY, "64",
                  "longest field or value (bytes) a listpack-encoded hash holds", &max_value);
}

Limits CurrentLimits() {
  return Limits{max_entries.load(std::memory_order_relaxed),
                max_value.load(std::memory_order_relaxed)};
}

}  // namespace plinth::hash
