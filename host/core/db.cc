// Hash table of one database. Grows at load factor 1 and shrinks below 1/8; rehashing is done
// in one step. Entries keep no hash (8 bytes a key): a resize hashes the keys again.
#include "host/core/db.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#include "host/core/value.h"

namespace plinth::host {
namespace {

constexpr size_t kMinBuckets = 16;

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

void FreeChains(std::vector<Entry*> buckets) {
  for (Entry* e : buckets) {
    while (e) {
      Entry* next = e->next;
      ValueRelease(e->value);
      std::free(e);
      e = next;
    }
  }
}

inline bool Matches(const Entry* e, std::string_view key) {
  return e->klen == key.size() && std::memcmp(e->key, key.data(), key.size()) == 0;
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

Db::Db() : buckets_(kMinBuckets, nullptr) {}
Db::~Db() { Clear(false); }
Db::Db(Db&& o) noexcept { *this = std::move(o); }
Db& Db::operator=(Db&& o) noexcept {
  if (this == &o) return *this;
  Clear(false);
  buckets_.swap(o.buckets_);
  expiring_.swap(o.expiring_);
  std::swap(size_, o.size_);
  std::swap(key_bytes_, o.key_bytes_);
  return *this;
}

Entry** Db::Bucket(std::string_view key) const {
  uint64_t h = HashBytes(key.data(), key.size());
  return const_cast<Entry**>(&buckets_[h & (buckets_.size() - 1)]);
}

Entry* Db::Find(std::string_view key) const {
  for (Entry* e = *Bucket(key); e; e = e->next)
    if (Matches(e, key)) return e;
  return nullptr;
}

namespace {

// The entry's first line and the line its key may run into.
inline void PrefetchEntry(const Entry* e) {
  __builtin_prefetch(e);
  __builtin_prefetch(reinterpret_cast<const char*>(e) + 63);
}

// The lines of a string value's bytes after its header's line, up to 1 KiB.
void PrefetchBytes(const plinth_value_t* v) {
  if (v->type != PLINTH_TYPE_STRING) return;
  constexpr uintptr_t kLine = 64;
  uintptr_t line = reinterpret_cast<uintptr_t>(v) & ~(kLine - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(v->data) + std::min<size_t>(v->len, 1024);
  for (line += kLine; line < end; line += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}

}  // namespace

void Db::Prefetch(const std::string_view* keys, size_t n, bool bytes) const {
  constexpr int kMaxDepth = 4;  // chain entries looked at per key
  n = std::min(n, kPrefetchKeys);
  Entry* const* slots[kPrefetchKeys];
  const Entry* at[kPrefetchKeys];
  const Entry* found[kPrefetchKeys];
  for (size_t i = 0; i < n; ++i) {
    slots[i] = Bucket(keys[i]);
    __builtin_prefetch(slots[i]);
  }
  for (size_t i = 0; i < n; ++i) {
    at[i] = *slots[i];
    found[i] = nullptr;
    if (at[i]) PrefetchEntry(at[i]);
  }
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    bool more = false;
    for (size_t i = 0; i < n; ++i) {
      if (!at[i]) continue;
      if (Matches(at[i], keys[i])) {
        found[i] = at[i];
        __builtin_prefetch(found[i]->value);
        at[i] = nullptr;
      } else if ((at[i] = at[i]->next)) {
        PrefetchEntry(at[i]);
        more = true;
      }
    }
    if (!more) break;
  }
  if (!bytes) return;
  for (size_t i = 0; i < n; ++i)
    if (found[i]) PrefetchBytes(found[i]->value);
}

Entry* Db::Set(std::string_view key, plinth_value_t* v, bool keep_ttl) {
  Entry** slot = Bucket(key);
  for (Entry* e = *slot; e; e = e->next) {
    if (Matches(e, key)) {
      Replace(e, v, keep_ttl);
      return e;
    }
  }
  auto* e = static_cast<Entry*>(std::malloc(sizeof(Entry) + key.size()));
  if (!e) {
    ValueRelease(v);
    return nullptr;
  }
  e->value = v;
  e->expire_ms = -1;
  e->exp_index = 0;
  e->klen = static_cast<uint32_t>(key.size());
  std::memcpy(e->key, key.data(), key.size());
  e->next = *slot;
  *slot = e;
  ++size_;
  key_bytes_ += key.size();
  if (size_ > buckets_.size()) Resize(buckets_.size() * 2);
  return e;
}

void Db::Replace(Entry* e, plinth_value_t* v, bool keep_ttl) {
  plinth_value_t* old = e->value;
  e->value = v;
  ValueRelease(old);
  if (!keep_ttl) SetExpire(e, -1);
}

void Db::SetExpire(Entry* e, int64_t ms) {
  bool had = e->expire_ms >= 0;
  if (ms >= 0 && !had) {
    e->exp_index = static_cast<uint32_t>(expiring_.size());
    expiring_.push_back(e);
  } else if (ms < 0 && had) {
    Entry* last = expiring_.back();
    expiring_[e->exp_index] = last;
    last->exp_index = e->exp_index;
    expiring_.pop_back();
  }
  e->expire_ms = ms < 0 ? -1 : ms;
}

void Db::Unlink(Entry* e, Entry** slot) {
  *slot = e->next;
  --size_;
  key_bytes_ -= e->klen;
  FreeEntry(e);
}

void Db::FreeEntry(Entry* e) {
  SetExpire(e, -1);
  ValueRelease(e->value);
  std::free(e);
}

bool Db::Delete(std::string_view key) {
  for (Entry** slot = Bucket(key); *slot; slot = &(*slot)->next) {
    Entry* e = *slot;
    if (Matches(e, key)) {
      Unlink(e, slot);
      if (buckets_.size() > kMinBuckets && size_ < buckets_.size() / 8) Resize(buckets_.size() / 2);
      return true;
    }
  }
  return false;
}

void Db::Resize(size_t n) {
  std::vector<Entry*> next(n, nullptr);
  for (Entry* e : buckets_) {
    while (e) {
      Entry* after = e->next;
      Entry** slot = &next[HashBytes(e->key, e->klen) & (n - 1)];
      e->next = *slot;
      *slot = e;
      e = after;
    }
  }
  buckets_.swap(next);
}

uint64_t Db::Scan(uint64_t cursor, uint64_t count, const std::function<void(Entry*)>& visit) {
  const uint64_t mask = buckets_.size() - 1;
  uint64_t v = cursor;
  uint64_t visited = 0;
  if (count == 0) count = 1;
  do {
    for (Entry* e = buckets_[v & mask]; e;) {
      Entry* next = e->next;  // visit may not delete, but keep the walk robust
      visit(e);
      e = next;
    }
    v |= ~mask;
    v = ReverseBits(v);
    ++v;
    v = ReverseBits(v);
  } while (v != 0 && ++visited < count);
  return v;
}

Entry* Db::Random() const {
  if (size_ == 0) return nullptr;
  std::uniform_int_distribution<size_t> pick(0, buckets_.size() - 1);
  for (;;) {
    Entry* e = buckets_[pick(Rng())];
    if (!e) continue;
    size_t len = 0;
    for (Entry* i = e; i; i = i->next) ++len;
    size_t k = std::uniform_int_distribution<size_t>(0, len - 1)(Rng());
    while (k--) e = e->next;
    return e;
  }
}

Entry* Db::RandomExpiring() const {
  if (expiring_.empty()) return nullptr;
  return expiring_[std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(Rng())];
}

void Db::Clear(bool async) {
  std::vector<Entry*> old(kMinBuckets, nullptr);
  old.swap(buckets_);
  expiring_.clear();
  size_ = 0;
  key_bytes_ = 0;
  if (async) {
    std::thread(FreeChains, std::move(old)).detach();
  } else {
    FreeChains(std::move(old));
  }
}

size_t Db::OverheadBytes() const {
  return buckets_.size() * sizeof(Entry*) + size_ * sizeof(Entry) + key_bytes_ +
         expiring_.capacity() * sizeof(Entry*);
}

}  // namespace plinth::host
