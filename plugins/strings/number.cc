// Overflow-checked integer addition (see number.h).
#include "strings/number.h"

namespace plinth::strings {

bool AddInt64(int64_t value, int64_t incr, int64_t* out) {
  int64_t sum = 0;
  if (__builtin_add_overflow(value, incr, &sum)) return false;
  *out = sum;
  return true;
}

}  // namespace plinth::strings
