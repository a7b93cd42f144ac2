// Bounds on the work one command may do for a count a client gives, shared by the data-type
// plugins so that the same request is refused with the same text everywhere. Pure; any thread.
#ifndef PLINTH_COMMON_BOUNDS_H
#define PLINTH_COMMON_BOUNDS_H

#include <cstdint>
#include <string_view>

namespace plinth::common {

// The most elements a negative count of SRANDMEMBER, HRANDFIELD or ZRANDMEMBER may ask for.
// Such a count allows repeats, so the collection's size does not bound the reply: Redis 7.0
// loops -count times, which for -9223372036854775807 never ends. 2^24 picks already build a
// reply of at least 117 MiB (three times that WITHSCORES) in about a second.
inline constexpr uint64_t kMaxRepeatedPicks = uint64_t{1} << 24;

// The reply to a negative count past kMaxRepeatedPicks. It starts as Redis's own range errors
// do, so clients that match "value is out of range" still match.
inline constexpr std::string_view kErrTooManyPicks =
    "ERR value is out of range, a negative count may repeat at most 16777216 elements";

// |v| as an unsigned number; defined for INT64_MIN too (2^63), where -v would overflow.
constexpr uint64_t Magnitude(int64_t v) {
  return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace plinth::common

#endif  // PLINTH_COMMON_BOUNDS_H
