// Access stamps: what eviction, OBJECT IDLETIME and OBJECT FREQ know of a key's use. Every
// keyspace entry has 24 bits for it (value.h), read the way maxmemory-policy says:
// - LRU (every policy but the LFU ones): the second of the last access, a clock that wraps
//   after 194 days;
// - LFU: the minute the counter last decayed (16 bits, wrapping after 45 days) and a
//   logarithmic access counter (8 bits) that starts at kLfuInit, grows with probability
//   1 / ((counter - kLfuInit) * lfu-log-factor + 1) and loses one per lfu-decay-time minutes.
// That is Redis's scheme, so its tuning options mean the same here. After a policy switch old
// stamps are read the new way until their keys are accessed again, as in Redis. Main thread.
#pragma once

#include <cstdint>

#include "host/core/value.h"

namespace plinth::host {

constexpr uint32_t kLfuInit = 5;
constexpr uint32_t kAccessMask = 0xFFFFFF;

struct AccessPolicy {
  bool lfu = false;
  int64_t log_factor = 10;    // lfu-log-factor
  int64_t decay_minutes = 1;  // lfu-decay-time (0: the counter never decays)
};

// The stamp a key created or accessed at now_ms starts from (an LFU one at kLfuInit).
uint32_t AccessStampAt(const AccessPolicy& p, int64_t now_ms);
// Records one access of e at now_ms.
void AccessTouch(Entry* e, const AccessPolicy& p, int64_t now_ms);
// LRU: milliseconds since e's last access (at one-second resolution).
uint64_t AccessIdleMs(const Entry* e, int64_t now_ms);
// LFU: e's counter with the decay due at now_ms applied (e is not changed).
uint32_t AccessFrequency(const Entry* e, const AccessPolicy& p, int64_t now_ms);

// The stamp new entries get (EntryCreate): the core sets it as time goes by. Any thread.
uint32_t NewEntryStamp();
void SetNewEntryStamp(uint32_t stamp);

}  // namespace plinth::host
