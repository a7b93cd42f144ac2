// A hash value: the payload of every key of type "hash". Starts in the compact listpack
// encoding and moves to the hashtable encoding, for good, once it holds more pairs than
// Limits::max_entries or a field or value longer than Limits::max_value bytes (Redis's
// hash-max-listpack-entries / -value rule). Plain C++, no ABI types; one thread at a time.
#ifndef PLINTH_HASH_HASH_VALUE_H
#define PLINTH_HASH_HASH_VALUE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "hash/listpack.h"
#include "hash/table.h"

namespace plinth::hash {

// The listpack thresholds in force (the options' current values).
struct Limits {
  uint64_t max_entries = 128;
  uint64_t max_value = 64;
};

class Hash {
 public:
  Hash() = default;
  Hash(const Hash&) = delete;
  Hash& operator=(const Hash&) = delete;

  // A deep copy in the same encoding, or nullptr when memory ran out.
  Hash* Clone() const;

  size_t Size() const { return table_ ? table_->Size() : lp_.Size(); }
  bool Empty() const { return Size() == 0; }
  bool IsTable() const { return table_ != nullptr; }
  // OBJECT ENCODING's name: "listpack" or "hashtable".
  const char* EncodingName() const { return table_ ? "hashtable" : "listpack"; }
  // Bytes the value holds (MEMORY USAGE).
  size_t MemoryUsage() const;
  // About one per allocation (lazy-free effort).
  size_t FreeEffort() const { return table_ ? table_->Allocations() + 1 : 1; }

  // The value of field into *value (a view valid until the hash changes); false when absent.
  // value may be null.
  bool Get(std::string_view field, std::string_view* value) const;
  // Sets field to value, converting to the hashtable encoding first when field or value is
  // longer than limits.max_value, and after when the pair count passes limits.max_entries.
  // Returns true when the field was new. Throws std::bad_alloc (a new field is not added).
  bool Set(std::string_view field, std::string_view value, const Limits& limits);
  // Adds a pair whose field the caller knows is absent (RDB load), with Set's conversions.
  void Insert(std::string_view field, std::string_view value, const Limits& limits);
  // Removes field. Returns true when it was there. Never converts back.
  bool Delete(std::string_view field);
  // Moves every pair to the hashtable encoding (nothing when already there). Throws
  // std::bad_alloc (the hash is unchanged).
  void ConvertToTable();

  // Calls f(field, value) for every pair: insertion order for a listpack, bucket order else.
  template <typename F>
  void ForEach(F&& f) const {
    if (table_)
      table_->ForEach(f);
    else
      lp_.ForEach(f);
  }

  const Listpack& listpack() const { return lp_; }
  // The table, or nullptr while the hash is a listpack.
  const Table* table() const { return table_.get(); }

 private:
  bool TooLong(std::string_view field, std::string_view value, const Limits& limits) const {
    return field.size() > limits.max_value || value.size() > limits.max_value;
  }

  Listpack lp_;
  std::unique_ptr<Table> table_;
};

}  // namespace plinth::hash

#endif  // PLINTH_HASH_HASH_VALUE_H
