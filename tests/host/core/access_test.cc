// Access stamps: the 24 bits an entry shares with its string's length, the LRU clock's wrap and
// the LFU counter's growth and decay (Redis's scheme).
#include "host/core/access.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::host;

namespace {

Entry* NewEntry(const std::string& key, const std::string& value) {
  return EntryCreate(key, value.data(), value.size(), value.size(), nullptr, false, -1);
}

}  // namespace

TEST_CASE("access: an entry's stamp and its string's length do not disturb each other") {
  Entry* e = NewEntry("key", std::string(1000, 'v'));
  EntrySetAccess(e, 0xABCDEF);
  CHECK(EntryAccess(e) == 0xABCDEF);
  CHECK(StringLen(e) == 1000);
  CHECK(ValueEnc(e) == PLINTH_ENC_RAW);
  CHECK(std::string(StringData(e), 3) == "vvv");
  EntrySetAccess(e, 0);
  CHECK(StringLen(e) == 1000);
  ValueRelease(e);
}

TEST_CASE("access: LRU idle time is in whole seconds and survives the clock's wrap") {
  const AccessPolicy lru;
  Entry* e = NewEntry("k", "v");
  const int64_t t0 = 1700000000000;
  AccessTouch(e, lru, t0);
  CHECK(AccessIdleMs(e, t0 + 999) == 0);
  CHECK(AccessIdleMs(e, t0 + 30000) == 30000);
  // The 24-bit clock of seconds wraps every 194 days; an idle time across the wrap still counts.
  const int64_t wrap_ms = int64_t{kAccessMask + 1} * 1000;
  const int64_t before_wrap = (t0 / wrap_ms + 1) * wrap_ms - 5000;
  AccessTouch(e, lru, before_wrap);
  CHECK(AccessIdleMs(e, before_wrap + 10000) == 10000);
  ValueRelease(e);
}

TEST_CASE("access: the LFU counter starts at 5, grows slower the higher it is, and decays") {
  AccessPolicy lfu;
  lfu.lfu = true;
  const int64_t t0 = 1700000000000;
  Entry* e = NewEntry("k", "v");
  EntrySetAccess(e, AccessStampAt(lfu, t0));
  CHECK(AccessFrequency(e, lfu, t0) == kLfuInit);
  for (int i = 0; i < 100000; ++i) AccessTouch(e, lfu, t0);
  const uint32_t hot = AccessFrequency(e, lfu, t0);
  CHECK(hot > 20);  // about 100 at lfu-log-factor 10 (Redis's table: 100K hits, counter ~100+)
  CHECK(hot < 255);
  CHECK(AccessFrequency(e, lfu, t0 + 10 * 60000) == hot - 10);  // one per idle minute
  lfu.decay_minutes = 0;
  CHECK(AccessFrequency(e, lfu, t0 + 10 * 60000) == hot);
  lfu.log_factor = 0;  // every access counts
  for (int i = 0; i < 1000; ++i) AccessTouch(e, lfu, t0);
  CHECK(AccessFrequency(e, lfu, t0) == 255);
  ValueRelease(e);
}
