// Integer parsing with Redis's strict rules (no spaces, no '+', no leading zeros), shared by
// plugins that read numeric command arguments. Pure functions: safe on any thread.
#ifndef PLINTH_COMMON_NUMBERS_H
#define PLINTH_COMMON_NUMBERS_H

#include <cstdint>
#include <string_view>

namespace plinth::common {

// Parses s as a signed 64-bit decimal the way Redis's string2ll does: an optional '-', then
// digits without leading zeros ("0" alone is fine, "-0" and "007" are not), at most 20 bytes, no
// overflow. Returns false (leaving *out untouched) on anything else.
bool ParseInt64(std::string_view s, int64_t* out);

// Like ParseInt64, then requires the value to fit an int32 (Redis's getIntFromObject).
bool ParseInt32(std::string_view s, int32_t* out);

// Writes v in decimal. Pure.
std::string_view FormatInt64(int64_t v, char (&buf)[24]);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_NUMBERS_H
