// Float parsing and formatting with Redis's exact rules, for the string commands: string2ld and
// ld2string's human mode (INCRBYFLOAT), plus overflow-checked integer addition. Integers are
// parsed with plinth::text::ParseInt64 (<plinth/text.hpp>). Pure functions, any thread.
#ifndef PLINTH_STRINGS_NUMBER_H
#define PLINTH_STRINGS_NUMBER_H

#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::strings {

// Parses s as a long double the way Redis's INCRBYFLOAT does: strtold over the whole text, no
// leading space, no NaN, no overflow to infinity and no underflow to zero ("inf" and hex floats
// are accepted) and no embedded NUL. Texts of 5120 bytes or more are refused. Returns false on
// failure. out may be null.
bool ParseLongDouble(std::string_view s, long double* out);

// Formats v like Redis's human-friendly long double form: "%.17Lf" with the trailing zeros (and
// a trailing '.') removed, "-0" written as "0", and "inf", "-inf", "nan" for the special values.
std::string FormatLongDouble(long double v);

// Adds incr to value into *out. Returns false (and leaves *out untouched) when the sum does
// not fit in int64_t: the condition Redis reports as "increment or decrement would overflow".
bool AddInt64(int64_t value, int64_t incr, int64_t* out);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_NUMBER_H
