// The small encoding of a hash ("listpack" in OBJECT ENCODING): every field and value in one
// contiguous buffer as length-prefixed strings, field then value, in insertion order, found by
// linear search. Used while the hash is small, where a scan of a few cache lines beats hashing.
// Plain C++, no ABI types; one thread at a time.
#ifndef PLINTH_HASH_LISTPACK_H
#define PLINTH_HASH_LISTPACK_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::hash {

class Listpack {
 public:
  // A position in the buffer: the offset of an entry's field, or End().
  using Pos = size_t;

  // Number of field-value pairs.
  size_t Size() const { return count_; }
  bool Empty() const { return count_ == 0; }
  // Bytes of the buffer (capacity included), for MEMORY USAGE.
  size_t Bytes() const { return buf_.capacity(); }

  // The value of field into *value (a view into the buffer, valid until the next change).
  // Returns false when the field is absent. value may be null.
  bool Get(std::string_view field, std::string_view* value) const;
  // Sets field to value, appending a new pair at the end or replacing the value in place.
  // Returns true when the field was new.
  bool Set(std::string_view field, std::string_view value);
  // Appends a pair without looking for the field first (the caller knows it is absent).
  void Append(std::string_view field, std::string_view value);
  // Removes field. Returns true when it was there.
  bool Delete(std::string_view field);

  // Iteration in insertion order: Begin(), then Next(pos) until End().
  Pos Begin() const { return 0; }
  Pos End() const { return buf_.size(); }
  // Reads the pair at pos and returns the position after it.
  Pos Read(Pos pos, std::string_view* field, std::string_view* value) const;

  // Calls f(field, value) for every pair in insertion order.
  template <typename F>
  void ForEach(F&& f) const {
    std::string_view k, v;
    for (Pos p = Begin(); p != End();) {
      p = Read(p, &k, &v);
      f(k, v);
    }
  }

 private:
  // Reads one length-prefixed string at pos; returns the position after it.
  Pos ReadString(Pos pos, std::string_view* s) const;
  // Finds field: the position of its pair and of its value, or false.
  bool Find(std::string_view field, Pos* pair, Pos* value) const;
  void AppendString(std::string_view s);

  std::string buf_;
  uint32_t count_ = 0;
};

// Bytes the varint length prefix of a string of n bytes takes (1 to 10).
size_t VarintSize(uint64_t n);

}  // namespace plinth::hash

#endif  // PLINTH_HASH_LISTPACK_H
