// One database: an open-addressing hash table of keyspace entries (value.h) in cache-line
// buckets, with per-key expiry times and a dense array of the entries that have one (for
// active expiry sampling). Resizes are incremental. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "host/core/value.h"

namespace plinth::host {

// 64-bit hash of a byte string. Any thread.
uint64_t HashBytes(const char* p, size_t n);
// The hash of a key that Db's Find and Set take, so a lookup and the store after it hash once.
inline uint64_t KeyHash(std::string_view key) { return HashBytes(key.data(), key.size()); }

// How many keys Db::Prefetch looks up at a time.
inline constexpr size_t kPrefetchKeys = 16;

// A database's size: its keys, those with an expiry, and the bytes of its table and expiry
// array (the entries not included).
struct DbCounts {
  size_t keys;
  size_t expiring;
  size_t table_bytes;
};

// One cache line: 9 entry pointers of 6 bytes (x86-64 and AArch64 user addresses fit 48
// bits), a byte of hash per slot (0: empty) and the count of used slots.
struct alignas(64) Bucket {
  static constexpr int kSlots = 9;
  uint8_t ptr[kSlots * 6];
  uint8_t tag[kSlots];
  uint8_t used;
};
static_assert(sizeof(Bucket) == 64);

// A power-of-two array of buckets. Linear probing from a key's home bucket: an entry sits in
// its home bucket or, when that was full, a later one, and every bucket between is full.
struct Table {
  Bucket* buckets = nullptr;
  size_t mask = 0;  // bucket count - 1
  size_t size = 0;  // entries
  size_t Count() const { return buckets ? mask + 1 : 0; }
};

class Db {
 public:
  Db();
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  Db(Db&& o) noexcept;
  Db& operator=(Db&& o) noexcept;

  // The entry for key (of hash KeyHash(key)), expired or not; nullptr when absent.
  Entry* Find(std::string_view key, uint64_t hash) const;
  Entry* Find(std::string_view key) const { return Find(key, KeyHash(key)); }
  // Looks up keys[0, n) (n <= kPrefetchKeys, the rest ignored) the way a batch of commands
  // soon will, prefetching their buckets, then the entries, then, with bytes, the first KiB
  // of their strings, so the cache misses overlap instead of following one another. A hint:
  // it changes nothing. Stores each key's hash in hashes[i] (for the lookup that follows).
  void Prefetch(const std::string_view* keys, size_t n, bool bytes, uint64_t* hashes) const;
  // Stores v under key (consuming the reference): a small string is copied into the entry,
  // anything else is pointed at. The entry expires at expire_ms (-1: never). Returns the
  // entry, or nullptr when out of memory (v is then released and the key left as it was).
  // The overloads with hash and old take KeyHash(key) and Find(key, hash)'s answer from just
  // before, and look nothing up again.
  Entry* Set(std::string_view key, uint64_t hash, Entry* old, plinth_value* v, int64_t expire_ms);
  // The same, keeping the key's TTL when keep_ttl, else clearing it.
  Entry* Set(std::string_view key, plinth_value* v, bool keep_ttl) {
    const uint64_t h = KeyHash(key);
    Entry* old = Find(key, h);
    return Set(key, h, old, v, old && keep_ttl ? EntryExpireMs(old) : -1);
  }
  // Stores the string s[0, len) under key, in place when the entry holds an unshared string
  // with room for it. Returns the entry or nullptr (out of memory, key unchanged).
  Entry* Set(std::string_view key, uint64_t hash, Entry* old, const char* s, size_t len,
             bool keep_ttl);
  Entry* Set(std::string_view key, const char* s, size_t len, bool keep_ttl) {
    const uint64_t h = KeyHash(key);
    return Set(key, h, Find(key, h), s, len, keep_ttl);
  }
  // Resizes the string of entry e to len bytes (zero-filling growth), in place when nothing
  // else holds it and it has room, else in a new copy that replaces it (holders keep the old
  // bytes). Returns the bytes, or nullptr when out of memory (e unchanged). e must hold a
  // string.
  char* StringResize(Entry* e, size_t len);
  // Removes key. Returns true when it existed.
  bool Delete(std::string_view key);
  // Sets (ms >= 0) or clears (ms < 0) the expiry of e. Returns the entry, which may have moved
  // (an entry gains its expiry part on its first TTL), or nullptr when out of memory.
  Entry* SetExpire(Entry* e, int64_t ms);
  // Visits the keys of whole home buckets from cursor until count keys (or 10 * count home
  // buckets) were visited; returns the next cursor, 0 when done. Reverse-binary cursor: a key
  // present for the whole scan is visited even across resizes. visit must not change the table.
  uint64_t Scan(uint64_t cursor, uint64_t count, const std::function<void(Entry*)>& visit);
  // Visits every entry, in no set order, until visit returns false. Returns false when visit
  // stopped it. visit must not change the table. Safe in a forked child.
  bool ForEach(const std::function<bool(Entry*)>& visit) const;
  // A random entry (RANDOMKEY), or with expiring a random one of those with an expiry; nullptr
  // when there is none.
  Entry* Sample(bool expiring) const;
  // Up to n entries for eviction's sampling, into out; returns how many. From the whole table:
  // the entries of consecutive slots from a random one (keys are hashed, so neighbours are
  // unrelated, and the buckets are read in order); with expiring, random entries of those with
  // an expiry. The entries are prefetched, so the caller's reads of them overlap.
  size_t Sample(bool expiring, Entry** out, size_t n) const;
  DbCounts Size() const {
    return {
        main_.size + old_.size, expiring_.size(),
        (main_.Count() + old_.Count()) * sizeof(Bucket) + expiring_.capacity() * sizeof(Entry*)};
  }
  // Removes everything. With async, values are freed on a background thread.
  void Clear(bool async);
  // Moves up to buckets buckets of a resize in progress (each command moves a few; the cron
  // moves more). Returns true while a resize remains.
  bool RehashStep(size_t buckets) { return old_.buckets && MoveBuckets(buckets); }

 private:
  struct Where {
    Table* table;
    size_t bucket;
    int slot;
  };
  bool Locate(std::string_view key, uint64_t hash, Where* w) const;
  // The slot holding exactly e (found by its key).
  Where SlotOf(const Entry* e) const;
  // Puts fresh (nullptr: out of memory) under its key of hash h: in old's slot, or a new one.
  // Returns fresh, or nullptr (fresh released) when it could not be placed.
  Entry* Place(uint64_t h, Entry* old, Entry* fresh);
  // Puts fresh where old was (also in expiring_) and releases old.
  void Swap(const Where& w, Entry* old, Entry* fresh);
  bool Insert(Entry* e, uint64_t hash);
  void RemoveAt(const Where& w);
  void Unexpire(Entry* e);
  // Appends e (whose expiry is set) to expiring_.
  void AddExpiring(Entry* e);
  void MaybeResize();
  void StartResize(size_t buckets);
  bool MoveBuckets(size_t buckets);
  size_t ProbeStart(const Table& t, size_t home) const;

  Table main_;  // new entries go here
  Table old_;   // during a resize: the table being emptied into main_
  // old_ is emptied bucket by bucket from rehash_start_, the bucket after one with room, so no
  // probe run crosses into the emptied ones from before them (one that wraps past the end
  // would, were the move begun at bucket 0). The buckets rehash_start_ + [0, rehash_moved_)
  // (modulo the size) are empty.
  size_t rehash_start_ = 0;
  size_t rehash_moved_ = 0;
  std::vector<Entry*> expiring_;
};

}  // namespace plinth::host
