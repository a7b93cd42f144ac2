// Hash table of one database: open addressing over 64-byte buckets of nine 6-byte entry
// pointers and nine hash bytes, about 8.5 bytes per key at full load. Grows past 90% load and
// shrinks below 1/8; a resize moves buckets a few at a time (each command, and the cron), so
// no command waits for a whole table. Deletes shift later entries back so every lookup stops
// at the first bucket with a free slot. Entries keep no hash: SCAN and deletes hash again.
// The entry operations on top of it are in db.cc.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#include "host/core/db.h"
#include "host/core/db_slots.h"

namespace plinth::host {

using namespace db_slots;

namespace {

inline uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline uint64_t ReverseBits(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
  v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return __builtin_bswap64(v);
}

std::mt19937_64& Rng() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

Table NewTable(size_t buckets) {
  Table t;
  t.buckets = static_cast<Bucket*>(std::aligned_alloc(sizeof(Bucket), buckets * sizeof(Bucket)));
  if (!t.buckets) return {};
  std::memset(static_cast<void*>(t.buckets), 0, buckets * sizeof(Bucket));
  t.mask = buckets - 1;
  return t;
}

void FreeTables(Table a, Table b) {
  for (Table* t : {&a, &b}) {
    for (size_t i = 0; i < t->Count(); ++i)
      for (int s = 0; s < kSlots; ++s)
        if (t->buckets[i].tag[s]) ValueRelease(SlotPtr(t->buckets[i], s));
    std::free(t->buckets);
  }
}

}  // namespace

uint64_t HashBytes(const char* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while (n >= 8) {
    uint64_t k;
    std::memcpy(&k, p, 8);
    h = (h ^ Mix(k)) * 0x9E3779B97F4A7C15ULL;
    h = (h << 29) | (h >> 35);
    p += 8;
    n -= 8;
  }
  uint64_t k = 0;
  std::memcpy(&k, p, n);
  return Mix(h ^ k ^ (n << 56));
}

Db::Db() : main_(NewTable(kMinBuckets)) {}
Db::~Db() {
  FreeTables(main_, old_);  // no Clear: it would allocate an empty table to leave behind
}
Db::Db(Db&& o) noexcept { *this = std::move(o); }
Db& Db::operator=(Db&& o) noexcept {
  if (this == &o) return *this;
  std::swap(main_, o.main_);
  std::swap(old_, o.old_);
  std::swap(rehash_start_, o.rehash_start_);
  std::swap(rehash_moved_, o.rehash_moved_);
  expiring_.swap(o.expiring_);
  return *this;
}

// Where a lookup of a key with home bucket home starts in t: in old_, a home already emptied
// is skipped to the first bucket not moved yet, which the key's run (all full buckets) reaches.
size_t Db::ProbeStart(const Table& t, size_t home) const {
  if (&t != &old_ || ((home - rehash_start_) & t.mask) >= rehash_moved_) return home;
  return (rehash_start_ + rehash_moved_) & t.mask;
}

bool Db::Locate(std::string_view key, uint64_t hash, Where* w) const {
  const uint8_t tag = TagOf(hash);
  for (const Table* t = &main_; t; t = t == &main_ && old_.size ? &old_ : nullptr) {
    if (t->size == 0) continue;
    const size_t mask = t->mask;
    size_t b = hash & mask;
    if (t == &old_ && ((b - rehash_start_) & mask) < rehash_moved_)  // ProbeStart, inlined
      b = (rehash_start_ + rehash_moved_) & mask;
    for (size_t steps = 0; steps <= mask; ++steps, b = (b + 1) & mask) {
      const Bucket& k = t->buckets[b];
      TagMatch m = MatchTags(k, tag);
      int found = -1;
      for (; m.first8; m.first8 &= m.first8 - 1) {
        const int i = __builtin_ctzll(m.first8) >> 3;
        if (KeyIs(SlotPtr(k, i), key)) {
          found = i;
          break;
        }
      }
      if (found < 0 && m.last && KeyIs(SlotPtr(k, kSlots - 1), key)) found = kSlots - 1;
      if (found >= 0) {
        *w = {const_cast<Table*>(t), b, found};
        return true;
      }
      if (k.used < kSlots) break;
    }
  }
  return false;
}

Entry* Db::Find(std::string_view key, uint64_t hash) const {
  // The common case inline: no resize running, the key in its home bucket.
  if (!old_.buckets && main_.size) {
    const Bucket& k = main_.buckets[hash & main_.mask];
    for (uint64_t m = MatchTags(k, TagOf(hash)).first8; m; m &= m - 1) {
      Entry* e = SlotPtr(k, __builtin_ctzll(m) >> 3);
      if (KeyIs(e, key)) return e;
    }
  }
  Where w;
  return Locate(key, hash, &w) ? SlotPtr(w.table->buckets[w.bucket], w.slot) : nullptr;
}

Db::Where Db::SlotOf(const Entry* e) const {
  Where w{};
  const std::string_view key = EntryKey(e);
  Locate(key, HashKey(key), &w);
  return w;
}

void Db::Prefetch(const std::string_view* keys, size_t n, bool bytes, uint64_t* hash) const {
  n = std::min(n, kPrefetchKeys);
  for (size_t i = 0; i < n; ++i) hash[i] = HashKey(keys[i]);
  if (!main_.buckets) return;
  const Entry* found[kPrefetchKeys];
  for (size_t i = 0; i < n; ++i) __builtin_prefetch(&main_.buckets[hash[i] & main_.mask]);
  for (size_t i = 0; i < n; ++i) {
    found[i] = nullptr;
    const Bucket& k = main_.buckets[hash[i] & main_.mask];
    const TagMatch m = MatchTags(k, TagOf(hash[i]));
    if (!m.first8 && !m.last) continue;
    found[i] = SlotPtr(k, m.first8 ? __builtin_ctzll(m.first8) >> 3 : kSlots - 1);
    __builtin_prefetch(found[i]);
    __builtin_prefetch(reinterpret_cast<const char*>(found[i]) + 63);
  }
  for (size_t i = 0; i < n; ++i) {
    if (!found[i]) continue;
    const plinth_value* v = EntryValue(found[i]);
    if (v != found[i]) __builtin_prefetch(v);
    if (!bytes || v->type != PLINTH_TYPE_STRING) continue;
    constexpr uintptr_t kLine = 64;  // the lines of the bytes after the first, up to 1 KiB
    const char* d = StringData(v);
    uintptr_t line = (reinterpret_cast<uintptr_t>(d) & ~(kLine - 1)) + kLine;
    const uintptr_t end = reinterpret_cast<uintptr_t>(d) + std::min<size_t>(StringLen(v), 1024);
    for (; line < end; line += kLine) __builtin_prefetch(reinterpret_cast<const void*>(line));
  }
}

bool Db::Insert(Entry* e, uint64_t hash) {
  Table& t = main_;
  if (!t.buckets) return false;  // out of memory after a flush
  size_t b = hash & t.mask;
  for (size_t steps = 0; steps <= t.mask; ++steps, b = (b + 1) & t.mask) {
    Bucket& k = t.buckets[b];
    if (k.used == kSlots) continue;
    for (int i = 0; i < kSlots; ++i) {
      if (k.tag[i]) continue;
      SetSlot(k, i, e, TagOf(hash));
      ++k.used;
      ++t.size;
      return true;
    }
  }
  return false;
}

void Db::RemoveAt(const Where& w) {
  Table& t = *w.table;
  Bucket* hole = &t.buckets[w.bucket];
  int hole_slot = w.slot;
  const bool was_full = hole->used == kSlots;
  hole->tag[hole_slot] = 0;
  --hole->used;
  --t.size;
  if (!was_full) return;  // nothing was placed past a bucket with room
  // Entries after a full bucket may have come from before it: move one back into the hole,
  // then mend the hole it leaves, until a bucket that had room.
  size_t j = w.bucket;
  for (size_t k = (j + 1) & t.mask, steps = 0; steps < t.mask; k = (k + 1) & t.mask, ++steps) {
    Bucket& kb = t.buckets[k];
    const bool k_full = kb.used == kSlots;
    int moved = -1;
    for (int i = 0; i < kSlots && moved < 0; ++i) {
      if (!kb.tag[i]) continue;
      const size_t home = ProbeStart(t, HashKey(EntryKey(SlotPtr(kb, i))) & t.mask);
      if (((j - home) & t.mask) < ((k - home) & t.mask)) moved = i;  // j lies on its probe
    }
    if (moved >= 0) {
      SetSlot(*hole, hole_slot, SlotPtr(kb, moved), kb.tag[moved]);
      ++hole->used;
      kb.tag[moved] = 0;
      --kb.used;
      hole = &kb;
      hole_slot = moved;
      j = k;
    }
    if (!k_full) return;
  }
}

void Db::MaybeResize() {
  const size_t slots = main_.Count() * kSlots;
  const size_t total = main_.size + old_.size;
  if (old_.buckets) {
    if (total * 10 <= slots * 9) return;  // let the resize in progress finish first
    while (RehashStep(SIZE_MAX)) {
    }  // main_ filled up meanwhile (a shrink, then a burst): finish now
  }
  if (main_.size * 10 > slots * 9) {
    StartResize(main_.Count() * 2);
  } else if (main_.Count() > kMinBuckets && main_.size * 8 < slots) {
    StartResize(main_.Count() / 2);
  }
}

void Db::StartResize(size_t buckets) {
  Table t = NewTable(buckets);
  if (!t.buckets) return;  // out of memory: keep the table, fuller
  old_ = main_;
  main_ = t;
  // Begin after a bucket with room: a run of full buckets may wrap from the end to the start,
  // and emptying a bucket inside a run would cut the later part off from its keys' homes.
  size_t room = 0;
  while (room <= old_.mask && old_.buckets[room].used == kSlots) ++room;
  rehash_start_ = (room + 1) & old_.mask;
  rehash_moved_ = 0;
  // A table with no room at all (a grow failed for memory) has no such bucket: move it now.
  RehashStep(room > old_.mask ? SIZE_MAX : kRehashPerOp);
}

bool Db::MoveBuckets(size_t buckets) {
  size_t empty_visits = buckets * 10;
  while (buckets && rehash_moved_ <= old_.mask && old_.size) {
    Bucket& b = old_.buckets[(rehash_start_ + rehash_moved_) & old_.mask];
    if (b.used) {
      for (int i = 0; i < kSlots; ++i) {
        if (!b.tag[i]) continue;
        Entry* e = SlotPtr(b, i);
        b.tag[i] = 0;
        --old_.size;
        if (!Insert(e, HashKey(EntryKey(e)))) std::abort();  // main_ has room for both
      }
      b.used = 0;
      --buckets;
    } else if (--empty_visits == 0) {
      break;
    }
    ++rehash_moved_;
  }
  if (old_.size) return true;
  std::free(old_.buckets);
  old_ = {};
  rehash_start_ = rehash_moved_ = 0;
  return false;
}

bool Db::ForEach(const std::function<bool(Entry*)>& visit) const {
  for (const Table* t : {&main_, &old_}) {
    for (size_t b = 0; b < t->Count(); ++b) {
      const Bucket& k = t->buckets[b];
      for (int i = 0; i < kSlots; ++i)
        if (k.tag[i] && !visit(SlotPtr(k, i))) return false;
    }
  }
  return true;
}

uint64_t Db::Scan(uint64_t cursor, uint64_t count, const std::function<void(Entry*)>& visit) {
  if ((main_.size + old_.size) == 0) return 0;
  // The entries of table t whose home bucket is home.
  uint64_t emitted = 0;
  auto visit_home = [&](const Table& t, size_t home) {
    if (t.size == 0) return;
    size_t b = ProbeStart(t, home);
    for (size_t steps = 0; steps <= t.mask; ++steps, b = (b + 1) & t.mask) {
      const Bucket& k = t.buckets[b];
      for (int i = 0; i < kSlots; ++i) {
        if (!k.tag[i]) continue;
        Entry* e = SlotPtr(k, i);
        if ((HashKey(EntryKey(e)) & t.mask) == home) {
          visit(e);
          ++emitted;
        }
      }
      if (k.used < kSlots) break;
    }
  };
  const Table* small = &main_;
  const Table* large = nullptr;
  if (old_.buckets) {
    small = old_.mask < main_.mask ? &old_ : &main_;
    large = small == &main_ ? &old_ : &main_;
  }
  const uint64_t m0 = small->mask;
  uint64_t v = cursor;
  uint64_t visited = 0;  // home buckets, at most 10 per key asked (empty ones are cheap)
  if (count == 0) count = 1;
  do {
    visit_home(*small, v & m0);
    if (large) {  // the buckets of the larger table that the small one's bucket expands to
      const uint64_t m1 = large->mask;
      do {
        visit_home(*large, v & m1);
        v = (((v | m0) + 1) & ~m0) | (v & m0);
      } while (v & (m0 ^ m1));
    }
    v |= ~m0;
    v = ReverseBits(v);
    ++v;
    v = ReverseBits(v);
  } while (v != 0 && emitted < count && ++visited < count * 10);
  return v;
}

Entry* Db::Sample(bool expiring) const {
  if (expiring) {
    if (expiring_.empty()) return nullptr;
    return expiring_[std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(Rng())];
  }
  const size_t keys = main_.size + old_.size;
  if (keys == 0) return nullptr;
  for (;;) {
    const Table& t =
        std::uniform_int_distribution<size_t>(0, keys - 1)(Rng()) < old_.size ? old_ : main_;
    const Bucket& k = t.buckets[std::uniform_int_distribution<size_t>(0, t.mask)(Rng())];
    if (!k.used) continue;
    int pick = std::uniform_int_distribution<int>(0, k.used - 1)(Rng());
    for (int i = 0; i < kSlots; ++i)
      if (k.tag[i] && pick-- == 0) return SlotPtr(k, i);
  }
}

size_t Db::Sample(bool expiring, Entry** out, size_t n) const {
  size_t got = 0;
  if (expiring) {
    for (; got < n && !expiring_.empty(); ++got)
      out[got] = expiring_[std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(Rng())];
  } else if (main_.size + old_.size > 0) {
    const Table& t =
        std::uniform_int_distribution<size_t>(0, main_.size + old_.size - 1)(Rng()) < old_.size
            ? old_
            : main_;
    // From a random slot on (a random bucket alone would favour each bucket's first slots).
    const size_t slots = t.Count() * kSlots;
    const size_t start = std::uniform_int_distribution<size_t>(0, slots - 1)(Rng());
    for (size_t i = 0; got < n && i < slots && t.size > 0; ++i) {
      const size_t at = (start + i) % slots;
      const Bucket& b = t.buckets[at / kSlots];
      if (b.tag[at % kSlots]) out[got++] = SlotPtr(b, static_cast<int>(at % kSlots));
    }
  }
  for (size_t i = 0; i < got; ++i) __builtin_prefetch(out[i]);
  return got;
}

void Db::Clear(bool async) {
  Table a = main_, b = old_;
  main_ = NewTable(kMinBuckets);
  old_ = {};
  rehash_start_ = rehash_moved_ = 0;
  expiring_.clear();
  if (async) {
    std::thread(FreeTables, a, b).detach();
  } else {
    FreeTables(a, b);
  }
}

}  // namespace plinth::host
