// Index range normalization shared by GETRANGE, BITCOUNT and BITPOS: Redis's rules for negative
// indexes, clamping and empty ranges, including the quirks each command has. Pure functions.
#ifndef PLINTH_STRINGS_RANGE_H
#define PLINTH_STRINGS_RANGE_H

#include <cstdint>
#include <string_view>

namespace plinth::strings {

// An inclusive range [start, end] of indexes into a sequence; empty when start > end.
struct IndexRange {
  int64_t start = 0;
  int64_t end = -1;
  bool Empty() const { return start > end; }
};

// Normalizes the user range [start, end] over a sequence of len items (len >= 0): a negative
// index counts from the end, then both are clamped to [0, len - 1]. With
// empty_if_both_negative_reversed (GETRANGE and BITCOUNT, not BITPOS), a range whose two
// indexes are negative with start > end is empty before clamping, as in Redis.
IndexRange NormalizeRange(int64_t start, int64_t end, int64_t len,
                          bool empty_if_both_negative_reversed);

// The bytes GETRANGE (and SUBSTR) return for s with the user's start and end.
std::string_view GetRange(std::string_view s, int64_t start, int64_t end);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_RANGE_H
