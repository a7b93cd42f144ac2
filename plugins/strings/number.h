// Number helpers of the string commands: overflow-checked integer addition, plus the SDK's
// Redis-exact float parsing and formatting (<plinth/number.hpp>) under this namespace. Integers
// are parsed with plinth::text::ParseInt64 (<plinth/text.hpp>). Pure functions, any thread.
#ifndef PLINTH_STRINGS_NUMBER_H
#define PLINTH_STRINGS_NUMBER_H

#include <cstdint>
#include <plinth/number.hpp>
#include <string>
#include <string_view>

namespace plinth::strings {

// Float parsing and formatting live in the SDK (<plinth/number.hpp>), shared with the other
// plugins that need Redis's long double rules (HINCRBYFLOAT).
using number::FormatLongDouble;
using number::ParseLongDouble;

// Adds incr to value into *out. Returns false (and leaves *out untouched) when the sum does
// not fit in int64_t: the condition Redis reports as "increment or decrement would overflow".
bool AddInt64(int64_t value, int64_t incr, int64_t* out);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_NUMBER_H
