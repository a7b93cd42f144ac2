// Option registration and text copying for bundled plugins.
#include "common/options.h"

#include <algorithm>
#include <cstring>
#include <plinth/plugin.hpp>

namespace plinth::common {

bool RegisterGlobalOption(const plinth_option_t** handle, const char* name, uint32_t type,
                          uint32_t flags, const char* def, int64_t min, int64_t max,
                          const char* description, plinth_option_apply_fn apply) {
  *handle = sdk::RegisterOption(name, type, PLINTH_OPT_GLOBAL_NAME | flags, def, min, max,
                                description, apply);
  return *handle != nullptr;
}

void CopyText(const std::string& text, char* dst, size_t cap) {
  if (dst == nullptr || cap == 0) return;
  const size_t n = std::min(text.size(), cap - 1);
  std::memcpy(dst, text.data(), n);
  dst[n] = '\0';
}

}  // namespace plinth::common
