// A bounded lock-free ring of T between exactly one producer thread and one consumer thread: the
// hand-off queue the IO threads will use (docs/io-threads.md). Header only; no locks, and only
// acquire/release ordering. THREAD: TryPush/TryEmplace on the producer thread only; TryPop,
// PopAll and Empty on the consumer thread only; Capacity on any thread; construction and
// destruction while neither side is running.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

#include "host/shell/io/cpu.h"

namespace plinth::host {

template <typename T>
class SpscRing {
  static_assert(std::is_nothrow_destructible_v<T>, "ring items must not throw when destroyed");

 public:
  // Makes an empty ring of "capacity" slots, allocated here once and never resized. capacity
  // must be a power of two (1, 2, 4, ...); anything else is a programming error and aborts.
  // OWNERSHIP: the ring owns its slots. THREAD: any.
  explicit SpscRing(std::size_t capacity);
  // Destroys the items still queued. OWNERSHIP: queued items belong to the ring. THREAD: any,
  // once neither side uses the ring.
  ~SpscRing();
  SpscRing(const SpscRing&) = delete;
  SpscRing& operator=(const SpscRing&) = delete;

  // The number of slots, as given to the constructor. OWNERSHIP: none. THREAD: any.
  std::size_t Capacity() const { return mask_ + 1; }

  // Appends "item" and returns true, or returns false and leaves "item" untouched when the ring
  // is full. Never blocks. OWNERSHIP: the ring owns the item until it is popped.
  // THREAD: producer only.
  bool TryPush(T&& item) { return TryEmplace(std::move(item)); }
  bool TryPush(const T& item) { return TryEmplace(item); }
  // As TryPush, constructing the item in its slot from "args"; nothing is constructed when the
  // ring is full. OWNERSHIP: as TryPush. THREAD: producer only.
  template <typename... Args>
  bool TryEmplace(Args&&... args);

  // Moves the oldest item into "out" and returns true, or returns false when the ring is empty.
  // Never blocks. OWNERSHIP: the item passes to the caller. THREAD: consumer only.
  bool TryPop(T& out);
  // Calls fn(T&&) on every item published when the call starts, oldest first, at most "max" of
  // them, then frees their slots with one store; returns how many it passed. An item whose fn
  // throws counts as consumed. OWNERSHIP: fn may keep what it moves out of each item.
  // THREAD: consumer only; fn must not push into this ring.
  template <typename Fn>
  std::size_t PopAll(Fn&& fn, std::size_t max = SIZE_MAX);
  // True when nothing is queued. Once it returns false, the items stay until this thread pops
  // them. OWNERSHIP: none. THREAD: consumer only.
  bool Empty();

 private:
  static constexpr std::align_val_t kAlign{alignof(T) > kCacheLineSize ? alignof(T)
                                                                       : kCacheLineSize};
  std::byte* Slot(std::size_t index) const { return storage_ + (index & mask_) * sizeof(T); }
  T* At(std::size_t index) const { return std::launder(reinterpret_cast<T*>(Slot(index))); }

  // Read-only after construction, so both sides keep this line in their caches.
  const std::size_t mask_;
  std::byte* const storage_;
  // The producer's line: the next index it fills, and its last look at the consumer's index.
  // It reads head_ (the consumer's line) only when the cached copy says the ring is full.
  alignas(kCacheLineSize) std::atomic<std::size_t> tail_{0};
  std::size_t head_cache_ = 0;
  // The consumer's line: the next index it takes, and its last look at the producer's index.
  // It reads tail_ only when the cached copy says the ring is empty.
  alignas(kCacheLineSize) std::atomic<std::size_t> head_{0};
  std::size_t tail_cache_ = 0;
};

template <typename T>
SpscRing<T>::SpscRing(std::size_t capacity)
    : mask_(capacity - 1),
      storage_(std::has_single_bit(capacity)
                   ? static_cast<std::byte*>(::operator new(capacity * sizeof(T), kAlign))
                   : nullptr) {
  if (storage_ == nullptr) {
    std::fprintf(stderr, "SpscRing: capacity %zu is not a power of two\n", capacity);
    std::abort();
  }
}

template <typename T>
SpscRing<T>::~SpscRing() {
  const std::size_t tail = tail_.load(std::memory_order_relaxed);
  for (std::size_t i = head_.load(std::memory_order_relaxed); i != tail; ++i) At(i)->~T();
  ::operator delete(storage_, kAlign);
}

template <typename T>
template <typename... Args>
bool SpscRing<T>::TryEmplace(Args&&... args) {
  const std::size_t tail = tail_.load(std::memory_order_relaxed);
  if (tail - head_cache_ > mask_) {
    // Acquire: the consumer's move out of and destruction of the slot happen before we reuse it.
    head_cache_ = head_.load(std::memory_order_acquire);
    if (tail - head_cache_ > mask_) return false;
  }
  ::new (static_cast<void*>(Slot(tail))) T(std::forward<Args>(args)...);
  // Release: the item's construction is visible to the consumer that sees the new tail.
  tail_.store(tail + 1, std::memory_order_release);
  return true;
}

template <typename T>
bool SpscRing<T>::TryPop(T& out) {
  const std::size_t head = head_.load(std::memory_order_relaxed);
  if (head == tail_cache_) {
    tail_cache_ = tail_.load(std::memory_order_acquire);
    if (head == tail_cache_) return false;
  }
  T* item = At(head);
  out = std::move(*item);
  item->~T();
  head_.store(head + 1, std::memory_order_release);
  return true;
}

template <typename T>
template <typename Fn>
std::size_t SpscRing<T>::PopAll(Fn&& fn, std::size_t max) {
  std::size_t head = head_.load(std::memory_order_relaxed);
  tail_cache_ = tail_.load(std::memory_order_acquire);
  const std::size_t available = tail_cache_ - head;
  const std::size_t n = available < max ? available : max;
  if (n == 0) return 0;
  // Frees the slots passed so far even when fn throws, so no item is destroyed twice.
  struct Release {
    std::atomic<std::size_t>& index;
    const std::size_t& value;
    ~Release() { index.store(value, std::memory_order_release); }
  } release{head_, head};
  for (const std::size_t end = head + n; head != end;) {
    T* item = At(head++);
    struct Destroy {
      T* item;
      ~Destroy() { item->~T(); }
    } destroy{item};
    fn(std::move(*item));
  }
  return n;
}

template <typename T>
bool SpscRing<T>::Empty() {
  const std::size_t head = head_.load(std::memory_order_relaxed);
  if (head != tail_cache_) return false;
  tail_cache_ = tail_.load(std::memory_order_acquire);
  return head == tail_cache_;
}

}  // namespace plinth::host
