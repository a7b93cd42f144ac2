// When a bulk reply of a stored string value goes out by reference instead of copied: a pure
// rule of the value's length and the IO-thread count, from the size sweep in
// docs/performance.md. Any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plinth::reply_offload {

struct Policy {
  // Smallest value sent by reference when the main thread writes replies (no IO thread active).
  size_t min_inline;
  // The same when IO threads write them: the main thread copies nothing then either way (it
  // only reserves room the IO thread fills), so a reference must save the IO thread's copy.
  size_t min_threaded;
};

// The rule measured on this project's bench machines (docs/performance.md, "Zero-copy
// replies"). An override > 0 replaces both sizes.
Policy DefaultPolicy(int64_t override_bytes);

// Whether a value of len bytes goes by reference with io_threads_active IO threads writing.
inline bool ByReference(const Policy& p, size_t len, int32_t io_threads_active) {
  return len >= (io_threads_active > 0 ? p.min_threaded : p.min_inline);
}

}  // namespace plinth::reply_offload
