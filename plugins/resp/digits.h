// Fast decimal formatting of the numbers in RESP reply headers (length lines are parsed with
// plinth::text::ParseInt64). Pure functions; any thread.
#ifndef PLINTH_PLUGINS_RESP_DIGITS_H
#define PLINTH_PLUGINS_RESP_DIGITS_H

#include <cstddef>
#include <cstdint>

namespace plinth::resp {

// Longest text WriteInt64 can produce ("-9223372036854775808").
inline constexpr size_t kMaxInt64Chars = 20;

// Writes v in decimal at dst (room for kMaxInt64Chars bytes) and returns the byte count.
size_t WriteUint64(char* dst, uint64_t v);
size_t WriteInt64(char* dst, int64_t v);

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_DIGITS_H
