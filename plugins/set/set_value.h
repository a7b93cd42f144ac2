// SetValue: one set's payload, in Redis 7.0's two encodings: "intset" while every member is a
// canonical int64 and there are at most set-max-intset-entries of them, then "hashtable" for
// good (a set never converts back). Members are byte strings to callers; an intset member is
// read into a caller's buffer as decimal text. Plain C++, no ABI types.
// THREAD: any, one thread at a time per instance (the limit is read from an atomic).
#ifndef PLINTH_SET_SET_VALUE_H
#define PLINTH_SET_SET_VALUE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "set/intset.h"
#include "set/member_table.h"

namespace plinth::set {

// The set-max-intset-entries limit new adds obey (the option's apply callback sets it).
void SetMaxIntsetEntries(int64_t n);
int64_t MaxIntsetEntries();

// Room for one member formatted by SetValue::At: an int64 in decimal.
struct MemberBuf {
  char bytes[24];
};

class SetValue {
 public:
  SetValue() = default;
  SetValue(const SetValue&) = delete;
  SetValue& operator=(const SetValue&) = delete;

  // A deep copy in the same encoding. Throws std::bad_alloc.
  std::unique_ptr<SetValue> Clone() const;

  bool IsIntset() const { return !table_; }
  // OBJECT ENCODING's name: "intset" or "hashtable".
  const char* EncodingName() const { return IsIntset() ? "intset" : "hashtable"; }
  size_t Size() const { return table_ ? table_->Size() : ints_.Size(); }
  bool Contains(std::string_view member) const;
  // Adds member, converting to a hashtable first when the intset cannot hold it. Returns false
  // when it was already there. Throws std::bad_alloc (the set holds the same members).
  bool Add(std::string_view member);
  // Removes member. Returns false when it was not there.
  bool Remove(std::string_view member);
  // The member at position i (0 <= i < Size()): positions are dense, so a uniform random
  // position is a uniform random member. An intset member is written into *buf. Borrowed
  // until the set changes (or buf is reused).
  std::string_view At(size_t i, MemberBuf* buf) const;
  // Removes the member at position i; other positions may move.
  void RemoveAt(size_t i);
  // Makes the set a hashtable (when not already one) sized for n members. Throws.
  void ConvertToTable(size_t n);
  // Visits every member once (intsets in ascending order), as visit(std::string_view).
  template <typename F>
  void ForEach(F&& visit) const;
  // One SSCAN step: an intset visits everything and returns 0; a hashtable visits buckets
  // from cursor until it has visited at least count members or 10*count buckets, and returns
  // the next cursor (0 at the end).
  template <typename F>
  uint64_t Scan(uint64_t cursor, uint64_t count, F&& visit) const;
  // Bytes of this header and everything it owns.
  size_t MemoryUsage() const;
  // About one per allocation (lazy-free effort).
  size_t FreeEffort() const { return table_ ? table_->Size() + 3 : 2; }

 private:
  IntSet ints_;
  std::unique_ptr<MemberTable> table_;
};

// Formats v as decimal into buf and returns the text.
std::string_view FormatInt(int64_t v, MemberBuf* buf);

template <typename F>
void SetValue::ForEach(F&& visit) const {
  MemberBuf buf;
  size_t n = Size();
  for (size_t i = 0; i < n; ++i) visit(At(i, &buf));
}

template <typename F>
uint64_t SetValue::Scan(uint64_t cursor, uint64_t count, F&& visit) const {
  if (!table_) {
    ForEach(visit);
    return 0;
  }
  uint64_t seen = 0;
  uint64_t budget = count > UINT64_MAX / 10 ? UINT64_MAX : count * 10;
  do {
    cursor = table_->ScanBucket(cursor, [&](std::string_view m) {
      ++seen;
      visit(m);
    });
  } while (cursor != 0 && --budget > 0 && seen < count);
  return cursor;
}

}  // namespace plinth::set

#endif  // PLINTH_SET_SET_VALUE_H
