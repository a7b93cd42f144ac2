// The host's own options under Redis's names and defaults: a table form the core and the shell
// both register theirs with. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <string>

#include "host/core/options.h"

namespace plinth::host {

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

// Registers each option of table (owner "host", bare names) with ctx as the apply callbacks'
// context. Returns false with *err at the first refusal.
bool RegisterOptionTable(Options& options, const HostOption* table, size_t n, void* ctx,
                         std::string* err);

// Writes msg into err (for apply callbacks) and returns PLINTH_ERR.
int32_t ApplyFail(char* err, size_t errlen, const char* msg);

}  // namespace plinth::host
