// Hash table of one database: open addressing over 64-byte buckets of nine 6-byte entry
// pointers and nine hash bytes, about 8.5 bytes per key at full load. Grows past 90% load and
// shrinks below 1/8; a resize moves buckets a few at a time (each command, and the cron), so
// no command waits for a whole table. Deletes shift later entries back so every lookup stops
// at the first bucket with a free slot. Entries keep no hash: SCAN and deletes hash again.
#include "host/core/db.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

namespace plinth::host {
namespace {

constexpr size_t kMinBuckets = 4;
constexpr int kSlots = Bucket::kSlots;
constexpr uint64_t kPtrMask = (uint64_t{1} << 48) - 1;
constexpr size_t kRehashPerOp = 2;  // buckets a command moves while a resize runs

inline Entry* SlotPtr(const Bucket& b, int i) {
  uint64_t x;
  std::memcpy(&x, b.ptr + 6 * i, 8);  // the last slot's read ends inside tag[]
  return reinterpret_cast<Entry*>(x & kPtrMask);
}

inline void SetSlot(Bucket& b, int i, const Entry* e, uint8_t tag) {
  const uint64_t x = reinterpret_cast<uintptr_t>(e);
  if (x & ~kPtrMask) std::abort();  // a user address above 48 bits: never on Linux by default
  std::memcpy(b.ptr + 6 * i, &x, 6);
  b.tag[i] = tag;
}

inline uint8_t TagOf(uint64_t h) {
  const auto t = static_cast<uint8_t>(h >> 56);
  return t ? t : 1;
}

inline uint64_t HashKey(std::string_view k) { return HashBytes(k.data(), k.size()); }

// The slots of b whose tag is tag, as a mask: byte i of the result is 0x80 for slot i < 8;
// slot 8 is bit 0 of the second value.
struct TagMatch {
  uint64_t first8;
  bool last;
};
inline TagMatch MatchTags(const Bucket& b, uint8_t tag) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  uint64_t x;
  std::memcpy(&x, b.tag, 8);
  x ^= 0x0101010101010101ULL * tag;                            // matching bytes become zero
  const uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);  // exactly the zero bytes
  return {zero, b.tag[8] == tag};
}

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

// An entry for key holding a copy of s[0, len).
Entry* StringEntry(std::string_view key, const char* s, size_t len, int64_t expire_ms) {
  if (len <= kEmbedMax) return EntryCreate(key, s, len, len, nullptr, expire_ms >= 0, expire_ms);
  plinth_value* v = ValueCreateString(s, len);
  return v ? EntryCreate(key, nullptr, 0, 0, v, expire_ms >= 0, expire_ms) : nullptr;
}

// An entry for key holding v (consumed): a small string, or one inside another key's entry,
// is copied; anything else is pointed at.
Entry* EntryFor(std::string_view key, plinth_value* v, int64_t expire_ms) {
  if (v->type == PLINTH_TYPE_STRING && (v->len <= kEmbedMax || (v->flags & kValKey))) {
    Entry* e = StringEntry(key, StringData(v), v->len, expire_ms);
    ValueRelease(v);
    return e;
  }
  return EntryCreate(key, nullptr, 0, 0, v, expire_ms >= 0, expire_ms);
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
Db::~Db() { Clear(false); }
Db::Db(Db&& o) noexcept { *this = std::move(o); }
Db& Db::operator=(Db&& o) noexcept {
  if (this == &o) return *this;
  std::swap(main_, o.main_);
  std::swap(old_, o.old_);
  std::swap(rehash_pos_, o.rehash_pos_);
  expiring_.swap(o.expiring_);
  return *this;
}

size_t Db::ProbeStart(const Table& t, size_t home) const {
  return &t == &old_ && home < rehash_pos_ ? rehash_pos_ : home;
}

namespace {

// Whether entry e's key is key; 8..16-byte keys (the common ones) without a call.
inline bool KeyIs(const Entry* e, std::string_view key) {
  const size_t n = key.size();
  if (n >= 255 || e->klen != n || (e->flags & kValLongKey)) return EntryKey(e) == key;
  const char* a = e->body + KeyOffset(e);
  if (n < 8 || n > 16) return std::memcmp(a, key.data(), n) == 0;
  uint64_t x0, x1, y0, y1;
  std::memcpy(&x0, a, 8);
  std::memcpy(&y0, key.data(), 8);
  std::memcpy(&x1, a + n - 8, 8);
  std::memcpy(&y1, key.data() + n - 8, 8);
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

}  // namespace

bool Db::Locate(std::string_view key, uint64_t hash, Where* w) const {
  const uint8_t tag = TagOf(hash);
  for (const Table* t = &main_; t; t = t == &main_ && old_.size ? &old_ : nullptr) {
    if (t->size == 0) continue;
    const size_t mask = t->mask;
    size_t b = hash & mask;
    if (t == &old_ && b < rehash_pos_) b = rehash_pos_;  // ProbeStart, inlined
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

void Db::Prefetch(const std::string_view* keys, size_t n, bool bytes) const {
  n = main_.buckets ? std::min(n, kPrefetchKeys) : 0;
  uint64_t hash[kPrefetchKeys];
  const Entry* found[kPrefetchKeys];
  for (size_t i = 0; i < n; ++i) {
    hash[i] = HashKey(keys[i]);
    __builtin_prefetch(&main_.buckets[hash[i] & main_.mask]);
  }
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
    const uintptr_t end = reinterpret_cast<uintptr_t>(d) + std::min<size_t>(v->len, 1024);
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

void Db::Swap(const Where& w, Entry* old, Entry* fresh) {
  Bucket& b = w.table->buckets[w.bucket];
  SetSlot(b, w.slot, fresh, b.tag[w.slot]);
  const bool old_in = EntryExpireMs(old) >= 0, fresh_in = EntryExpireMs(fresh) >= 0;
  if (old_in && fresh_in) {
    const uint32_t i = EntryExpIndex(old);
    expiring_[i] = fresh;
    EntrySetExpIndex(fresh, i);
  } else if (old_in) {
    Unexpire(old);
  } else if (fresh_in) {
    EntrySetExpIndex(fresh, static_cast<uint32_t>(expiring_.size()));
    expiring_.push_back(fresh);
  }
  ValueRelease(old);
}

void Db::Unexpire(Entry* e) {
  if (EntryExpireMs(e) < 0) return;
  const uint32_t i = EntryExpIndex(e);
  Entry* last = expiring_.back();
  expiring_[i] = last;
  EntrySetExpIndex(last, i);
  expiring_.pop_back();
  EntrySetExpire(e, -1);
}

Entry* Db::Set(std::string_view key, uint64_t h, Entry* old, plinth_value* v, bool keep_ttl) {
  RehashStep(kRehashPerOp);
  Entry* fresh = EntryFor(key, v, old && keep_ttl ? EntryExpireMs(old) : -1);
  if (!fresh) return nullptr;
  if (old) {
    Swap(SlotOf(old), old, fresh);
    return fresh;
  }
  if (!Insert(fresh, h)) {
    ValueRelease(fresh);
    return nullptr;
  }
  MaybeResize();
  return fresh;
}

Entry* Db::SetString(std::string_view key, uint64_t h, Entry* old, const char* s, size_t len,
                     bool keep_ttl) {
  RehashStep(kRehashPerOp);
  if (old) {
    plinth_value* v = EntryValue(old);
    // In place: a small string in its entry, or a large one in its own allocation.
    if ((v == old || len > kEmbedMax) && ValueStringOverwrite(v, s, len)) {
      if (!keep_ttl) Unexpire(old);
      return old;
    }
  }
  Entry* fresh = StringEntry(key, s, len, old && keep_ttl ? EntryExpireMs(old) : -1);
  if (!fresh) return nullptr;
  if (old) {
    Swap(SlotOf(old), old, fresh);
    return fresh;
  }
  if (!Insert(fresh, h)) {
    ValueRelease(fresh);
    return nullptr;
  }
  MaybeResize();
  return fresh;
}

char* Db::StringResize(Entry* e, size_t len) {
  plinth_value* v = EntryValue(e);
  const bool shared = v->refs.load(std::memory_order_acquire) != 1;
  if (!shared && (len <= v->len || len <= StringRoom(v))) {
    char* d = StringData(v);
    if (len > v->len) std::memset(d + v->len, 0, len - v->len);
    d[len] = 0;
    v->len = static_cast<uint32_t>(len);
    v->encoding = PLINTH_ENC_RAW;
    return d;
  }
  if (len > kMaxStringLen) return nullptr;
  // Like Redis's strings: double while small, then grow by 1 MiB steps.
  size_t cap = len;
  if (len > v->len) cap = len < (1u << 20) ? len * 2 : len + (1u << 20);
  cap = std::min(cap, kMaxStringLen);
  const size_t keep = std::min<size_t>(v->len, len);
  const int64_t exp = EntryExpireMs(e);
  plinth_value* target = nullptr;
  Entry* fresh;
  if (cap <= kEmbedMax) {
    fresh = EntryCreate(EntryKey(e), StringData(v), keep, cap, nullptr, exp >= 0, exp);
  } else if (v != e && !shared) {  // its own allocation, held by nobody else: grow it
    target = static_cast<plinth_value*>(std::realloc(v, sizeof(plinth_value) + cap + 1));
    if (!target) return nullptr;
    EntrySetTarget(e, target);
    fresh = e;
  } else {
    target = ValueCreateStringRoom(StringData(v), keep, cap);
    if (!target) return nullptr;
    if (v != e) {  // the entry itself is never shared: repoint it
      EntrySetTarget(e, target);
      ValueRelease(v);
      fresh = e;
    } else {
      fresh = EntryCreate(EntryKey(e), nullptr, 0, 0, target, exp >= 0, exp);
    }
  }
  if (!fresh) return nullptr;
  if (fresh != e) Swap(SlotOf(e), e, fresh);
  plinth_value* nv = EntryValue(fresh);
  char* d = StringData(nv);
  if (len > keep) std::memset(d + keep, 0, len - keep);
  d[len] = 0;
  nv->len = static_cast<uint32_t>(len);
  nv->encoding = PLINTH_ENC_RAW;
  return d;
}

bool Db::Delete(std::string_view key) {
  RehashStep(kRehashPerOp);
  Where w;
  if (!Locate(key, HashKey(key), &w)) return false;
  Entry* e = SlotPtr(w.table->buckets[w.bucket], w.slot);
  Unexpire(e);
  RemoveAt(w);
  ValueRelease(e);
  MaybeResize();
  return true;
}

Entry* Db::SetExpire(Entry* e, int64_t ms) {
  if (ms < 0) {
    Unexpire(e);
    return e;
  }
  if (e->flags & kValExpire) {
    if (EntryExpireMs(e) < 0) {
      EntrySetExpIndex(e, static_cast<uint32_t>(expiring_.size()));
      expiring_.push_back(e);
    }
    EntrySetExpire(e, ms);
    return e;
  }
  // Its first TTL: a copy of the entry with the expiry part takes its place.
  plinth_value* target = nullptr;
  if (e->flags & kValIndirect) {
    target = EntryValue(e);
    ValueRetain(target);
  }
  Entry* fresh = target
                     ? EntryCreate(EntryKey(e), nullptr, 0, 0, target, true, ms)
                     : EntryCreate(EntryKey(e), StringData(e), e->len, e->len, nullptr, true, ms);
  if (!fresh) return nullptr;
  Swap(SlotOf(e), e, fresh);
  return fresh;
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
  rehash_pos_ = 0;
  RehashStep(kRehashPerOp);
}

bool Db::MoveBuckets(size_t buckets) {
  size_t empty_visits = buckets * 10;
  while (buckets && rehash_pos_ <= old_.mask && old_.size) {
    Bucket& b = old_.buckets[rehash_pos_];
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
    ++rehash_pos_;
  }
  if (old_.size) return true;
  std::free(old_.buckets);
  old_ = {};
  rehash_pos_ = 0;
  return false;
}

uint64_t Db::Scan(uint64_t cursor, uint64_t count, const std::function<void(Entry*)>& visit) {
  if (Size() == 0) return 0;
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

Entry* Db::Random() const {
  if (Size() == 0) return nullptr;
  for (;;) {
    const Table& t =
        std::uniform_int_distribution<size_t>(0, Size() - 1)(Rng()) < old_.size ? old_ : main_;
    const Bucket& k = t.buckets[std::uniform_int_distribution<size_t>(0, t.mask)(Rng())];
    if (!k.used) continue;
    int pick = std::uniform_int_distribution<int>(0, k.used - 1)(Rng());
    for (int i = 0; i < kSlots; ++i)
      if (k.tag[i] && pick-- == 0) return SlotPtr(k, i);
  }
}

Entry* Db::RandomExpiring() const {
  if (expiring_.empty()) return nullptr;
  return expiring_[std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(Rng())];
}

void Db::Clear(bool async) {
  Table a = main_, b = old_;
  main_ = NewTable(kMinBuckets);
  old_ = {};
  rehash_pos_ = 0;
  expiring_.clear();
  if (async) {
    std::thread(FreeTables, a, b).detach();
  } else {
    FreeTables(a, b);
  }
}

size_t Db::OverheadBytes() const {
  return (main_.Count() + old_.Count()) * sizeof(Bucket) + expiring_.capacity() * sizeof(Entry*);
}

}  // namespace plinth::host
