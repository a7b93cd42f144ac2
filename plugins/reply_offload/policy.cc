// The measured crossover sizes (docs/performance.md, "Zero-copy replies").
#include "reply_offload/policy.h"

namespace plinth::reply_offload {

Policy DefaultPolicy(int64_t override_bytes) {
  if (override_bytes > 0)
    return {static_cast<size_t>(override_bytes), static_cast<size_t>(override_bytes)};
  return {16 * 1024, 64 * 1024};
}

}  // namespace plinth::reply_offload
