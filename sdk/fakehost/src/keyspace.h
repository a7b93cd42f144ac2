// The fake host's keyspace: 16 ordered maps of key to refcounted value plus absolute expiry.
// Expiry is decided by the caller (FakeHost::Impl::Lookup), which owns the clock and the
// propagation of deletions. Main thread only.
#ifndef PLINTH_FAKEHOST_KEYSPACE_H
#define PLINTH_FAKEHOST_KEYSPACE_H

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "values.h"

namespace plinth::fakehost {

struct Entry {
  ValueRec* value = nullptr;  // one reference owned by the keyspace
  int64_t expire_at_ms = -1;  // unix ms, -1 for none
};

class Keyspace {
 public:
  static constexpr int32_t kDbCount = 16;
  using Db = std::map<std::string, Entry, std::less<>>;
  using Visit = std::function<void(const std::string& key, const Entry& e)>;

  Keyspace();
  // Releases every stored value.
  ~Keyspace();
  Keyspace(const Keyspace&) = delete;
  Keyspace& operator=(const Keyspace&) = delete;

  bool ValidDb(int32_t db) const { return db >= 0 && db < kDbCount; }
  // The entry under key, expired or not, or nullptr.
  Entry* Find(int32_t db, std::string_view key);
  // Stores v under key (consuming the caller's reference), replacing and releasing any old
  // value. The TTL is cleared unless keep_ttl.
  void Set(int32_t db, std::string_view key, ValueRec* v, bool keep_ttl);
  // Removes key. Returns true if it existed.
  bool Delete(int32_t db, std::string_view key);
  // Keys in db, expired ones included.
  uint64_t Size(int32_t db) const;
  // Empties db, or every db with -1. Returns the number of keys removed.
  uint64_t Flush(int32_t db);
  void Swap(int32_t a, int32_t b);
  // key_move semantics on live keys (the caller has expired src and dst already): returns 1
  // moved, 0 dst exists (NX, or COPY without REPLACE), -1 no src.
  int32_t Move(int32_t src_db, std::string_view src, int32_t dst_db, std::string_view dst,
               uint32_t flags);
  // Visits the keys not expired at now_ms whose hash group lies in [cursor, ...), up to count
  // groups. Groups are ordered by key hash, so a key present for the whole scan is visited
  // even when others are added or removed between calls. Returns the next cursor, 0 at end.
  uint64_t Scan(int32_t db, uint64_t cursor, uint64_t count, int64_t now_ms, const Visit& visit);
  // A pseudo-random key not expired at now_ms (deterministic sequence), or nullptr.
  const std::string* Random(int32_t db, int64_t now_ms);
  // Keys with a TTL in db.
  uint64_t ExpiresCount(int32_t db) const;

 private:
  std::vector<Db> dbs_;
  std::mt19937_64 rng_{20231114};
};

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_KEYSPACE_H
