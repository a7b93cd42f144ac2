// Access stamps (access.h): the LRU clock and the LFU counter with its decay.
#include "host/core/access.h"

#include <atomic>

namespace plinth::host {
namespace {

std::atomic<uint32_t> g_new_stamp{0};

uint32_t Seconds(int64_t now_ms) { return static_cast<uint32_t>(now_ms / 1000) & kAccessMask; }
uint32_t Minutes(int64_t now_ms) { return static_cast<uint32_t>(now_ms / 60000) & 0xFFFF; }

// A uniform draw in [0, 1) from a per-thread xorshift generator (cores may run on different
// threads in one process).
double Uniform() {
  thread_local uint64_t state = 0x9E3779B97F4A7C15ull;
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
}

uint32_t Decayed(uint32_t stamp, const AccessPolicy& p, int64_t now_ms) {
  const uint32_t counter = stamp & 0xFF;
  if (p.decay_minutes <= 0) return counter;
  const uint32_t then = stamp >> 8, now = Minutes(now_ms);
  const uint32_t elapsed = now >= then ? now - then : 0x10000 - then + now;
  const uint64_t periods = elapsed / static_cast<uint64_t>(p.decay_minutes);
  return periods >= counter ? 0 : counter - static_cast<uint32_t>(periods);
}

}  // namespace

uint32_t AccessStampAt(const AccessPolicy& p, int64_t now_ms) {
  return p.lfu ? Minutes(now_ms) << 8 | kLfuInit : Seconds(now_ms);
}

void AccessTouch(Entry* e, const AccessPolicy& p, int64_t now_ms) {
  if (!p.lfu) {
    EntrySetAccess(e, Seconds(now_ms));
    return;
  }
  uint32_t counter = Decayed(EntryAccess(e), p, now_ms);
  if (counter < 255) {
    const double base = counter > kLfuInit ? counter - kLfuInit : 0;
    if (Uniform() < 1.0 / (base * static_cast<double>(p.log_factor) + 1)) ++counter;
  }
  EntrySetAccess(e, Minutes(now_ms) << 8 | counter);
}

uint64_t AccessIdleMs(const Entry* e, int64_t now_ms) {
  const uint32_t then = EntryAccess(e), now = Seconds(now_ms);
  const uint32_t s = now >= then ? now - then : kAccessMask + 1 - then + now;
  return uint64_t{s} * 1000;
}

uint32_t AccessFrequency(const Entry* e, const AccessPolicy& p, int64_t now_ms) {
  return Decayed(EntryAccess(e), p, now_ms);
}

uint32_t NewEntryStamp() { return g_new_stamp.load(std::memory_order_relaxed); }
void SetNewEntryStamp(uint32_t stamp) { g_new_stamp.store(stamp, std::memory_order_relaxed); }

}  // namespace plinth::host
