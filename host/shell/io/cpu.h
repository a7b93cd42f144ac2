// What the IO-thread code shares about the CPU and its clock: the cache line it pads to, the
// hint a spin loop gives while it waits, the monotonic clock and single-writer counters.
// Header only; any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

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

// The monotonic clock in nanoseconds. Any thread.
inline int64_t MonotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Adds "by" to a counter that one thread writes and others read: a relaxed load and store, no
// read-modify-write. THREAD: the counter's one writer.
inline void BumpRelaxed(std::atomic<uint64_t>& counter, uint64_t by = 1) {
  counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace plinth::host
