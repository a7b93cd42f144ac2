// The large encoding of a hash ("hashtable" in OBJECT ENCODING): a chained hash table whose
// entries are single allocations holding the chain link, the field's hash, both lengths and the
// field and value bytes, so a pair costs one allocation and one bucket slot. The bucket count is
// a power of two; HSCAN's cursor walks buckets in reverse-binary order, as Redis's dictScan
// does, so a field present for a whole scan is returned even when the table grows or shrinks
// in between. Plain C++, no ABI types; one thread at a time.
#ifndef PLINTH_HASH_TABLE_H
#define PLINTH_HASH_TABLE_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace plinth::hash {

// Hashes bytes with the process's random seed (SetHashSeed), so clients cannot aim fields at
// one bucket. THREAD: any.
uint64_t HashBytes(std::string_view s);
// Sets the seed; call once before any table exists (plugin init). THREAD: main.
void SetHashSeed(uint64_t seed);

class Table {
 public:
  struct Entry {
    Entry* next;
    uint32_t hash;
    uint32_t flen;
    uint32_t vlen;
    char data[];  // field bytes then value bytes

    std::string_view field() const { return {data, flen}; }
    std::string_view value() const { return {data + flen, vlen}; }
  };

  Table() = default;
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // A deep copy, or nullptr when memory ran out.
  Table* Clone() const;

  size_t Size() const { return size_; }
  // Bytes held: the bucket array and every entry.
  size_t Bytes() const;
  // Allocations held (about the work of freeing the table).
  size_t Allocations() const { return size_ + 1; }

  // The entry of field, or nullptr.
  const Entry* Find(std::string_view field) const;
  // Sets field to value. Returns true when the field was new. Throws std::bad_alloc.
  bool Set(std::string_view field, std::string_view value);
  // Adds a pair whose field the caller knows is absent. Throws std::bad_alloc.
  void Insert(std::string_view field, std::string_view value);
  // Removes field. Returns true when it was there.
  bool Delete(std::string_view field);

  // Calls f(field, value) for every pair (bucket order).
  template <typename F>
  void ForEach(F&& f) const {
    for (size_t b = 0; b < nbuckets_; ++b)
      for (const Entry* e = buckets_[b]; e; e = e->next) f(e->field(), e->value());
  }

  // Calls f(entry) for every entry of the bucket cursor selects, and returns the next cursor
  // (0 when the walk is done). An empty table returns 0.
  template <typename F>
  uint64_t ScanBucket(uint64_t cursor, F&& f) const {
    if (nbuckets_ == 0) return 0;
    const uint64_t mask = nbuckets_ - 1;
    for (const Entry* e = buckets_[cursor & mask]; e; e = e->next) f(*e);
    return NextCursor(cursor, mask);
  }

  // A random entry, picked by bucket then within its chain (not exactly uniform, as Redis's
  // dictGetFairRandomKey is not). rnd is a source of random 64-bit numbers. Size() must be > 0.
  template <typename R>
  const Entry* Random(R&& rnd) const {
    const Entry* e = nullptr;
    while (!e) e = buckets_[rnd() & (nbuckets_ - 1)];
    size_t len = 0;
    for (const Entry* p = e; p; p = p->next) ++len;
    for (size_t skip = rnd() % len; skip > 0; --skip) e = e->next;
    return e;
  }

 private:
  static uint64_t NextCursor(uint64_t cursor, uint64_t mask);
  // The link that points at field's entry (or the null link at the end of its chain).
  Entry** Link(std::string_view field, uint32_t hash) const;
  static Entry* NewEntry(uint32_t hash, std::string_view field, std::string_view value);
  void Resize(size_t nbuckets);
  void GrowIfFull();

  Entry** buckets_ = nullptr;
  size_t nbuckets_ = 0;  // zero or a power of two
  size_t size_ = 0;
  size_t entry_bytes_ = 0;
};

}  // namespace plinth::hash

#endif  // PLINTH_HASH_TABLE_H
