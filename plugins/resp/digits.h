// Decimal integers for the RESP plugin: strict parsing of length lines and fast formatting of
// the numbers in reply headers. Pure functions; any thread.
#ifndef PLINTH_PLUGINS_RESP_DIGITS_H
#define PLINTH_PLUGINS_RESP_DIGITS_H

#include <cstddef>
#include <cstdint>

namespace plinth::resp {

// Longest text WriteInt64 can produce ("-9223372036854775808").
inline constexpr size_t kMaxInt64Chars = 20;

// Parses s[0, n) as a canonical signed decimal, the way Redis reads multibulk and bulk counts:
// an optional '-', then "0" alone or digits without a leading zero; no '+', no spaces, at most
// 20 characters, within int64. Returns false (and leaves *out alone) otherwise.
bool ParseStrictInt64(const char* s, size_t n, int64_t* out);

// Writes v in decimal at dst (room for kMaxInt64Chars bytes) and returns the byte count.
size_t WriteUint64(char* dst, uint64_t v);
size_t WriteInt64(char* dst, int64_t v);

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_DIGITS_H
