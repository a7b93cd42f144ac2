// What the IO-thread primitives need to know about the CPU: the cache line they pad to and the
// hint a spin loop gives while it waits. Header only; any thread.
#pragma once

#include <cstddef>

namespace plinth::host {

// The padding unit that keeps data written by different threads on different cache lines: 64
// bytes on x86-64 and on most ARM servers. (std::hardware_destructive_interference_size is not
// used: GCC warns that its value may differ between compilers, which would change layouts.)
inline constexpr std::size_t kCacheLineSize = 64;

// One iteration's pause in a spin-wait loop: lowers power and leaves the core's execution units
// to a sibling hyperthread. Any thread.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace plinth::host
