// One database: a chained hash table of keys to refcounted values, with per-key expiry times
// and a dense array of the keys that have one (for active expiry sampling). Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace plinth::host {

struct Entry {
  Entry* next;
  plinth_value_t* value;
  int64_t expire_ms;   // absolute unix ms, -1 when none
  uint32_t exp_index;  // position in Db::expiring_ when expire_ms >= 0
  uint32_t klen;
  char key[];

  std::string_view Key() const { return {key, klen}; }
  // Whether its time has come at now_ms (it has an expiry and it is not in the future).
  bool Expired(int64_t now_ms) const { return expire_ms >= 0 && expire_ms <= now_ms; }
};

class Db {
 public:
  Db();
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  Db(Db&& o) noexcept;
  Db& operator=(Db&& o) noexcept;

  // The entry for key, expired or not; nullptr when absent.
  Entry* Find(std::string_view key) const;
  // Looks up keys[0, n) (n <= kPrefetchKeys, the rest ignored) the way a batch of commands
  // soon will, walking their chains in step and prefetching the entries, the values found and,
  // with bytes the first KiB of their bytes, so the cache misses overlap instead of following
  // one another. A hint: it changes nothing.
  static constexpr size_t kPrefetchKeys = 16;
  void Prefetch(const std::string_view* keys, size_t n, bool bytes) const;
  // Stores v under key (consuming the reference). Keeps the TTL when keep_ttl, else clears it.
  // Returns the entry, or nullptr when out of memory (v is then released).
  Entry* Set(std::string_view key, plinth_value_t* v, bool keep_ttl);
  // Replaces the value of an entry found with Find (consuming the reference to v); clears the
  // TTL unless keep_ttl.
  void Replace(Entry* e, plinth_value_t* v, bool keep_ttl);
  // Removes key. Returns true when it existed.
  bool Delete(std::string_view key);
  // Sets (ms >= 0) or clears (ms < 0) the expiry of e.
  void SetExpire(Entry* e, int64_t ms);
  // Visits the keys of up to count buckets from cursor; returns the next cursor, 0 when done.
  // Reverse-binary cursor: a key present for the whole scan is visited even across resizes.
  uint64_t Scan(uint64_t cursor, uint64_t count, const std::function<void(Entry*)>& visit);
  // A random entry, or nullptr when empty.
  Entry* Random() const;
  // A random entry among those with an expiry, or nullptr.
  Entry* RandomExpiring() const;
  size_t Size() const { return size_; }
  size_t ExpiringCount() const { return expiring_.size(); }
  // Removes everything. With async, values are freed on a background thread.
  void Clear(bool async);
  // Bytes used by entries and buckets (values not included).
  size_t OverheadBytes() const;

 private:
  void Resize(size_t buckets);
  void FreeEntry(Entry* e);
  void Unlink(Entry* e, Entry** slot);
  Entry** Bucket(std::string_view key) const;

  std::vector<Entry*> buckets_;
  size_t size_ = 0;
  size_t key_bytes_ = 0;
  std::vector<Entry*> expiring_;
};

// 64-bit hash of a byte string. Any thread.
uint64_t HashBytes(const char* p, size_t n);

}  // namespace plinth::host
