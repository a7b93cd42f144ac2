// Option values of the fake host: validation and normalization by option type (the rules of
// PLINTH_OPT_*), their integer view for option_get_int, and CONFIG GET's glob matching.
// Pure functions; any thread.
#ifndef PLINTH_FAKEHOST_OPTIONS_H
#define PLINTH_FAKEHOST_OPTIONS_H

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::fakehost {

// Checks text against spec (type, range, enum words) and writes its normalized form to *out:
// BOOL as yes/no, INT and MEMORY as decimal (MEMORY in bytes), ENUM in lower case. Returns
// false with a Redis-style reason ("argument must be ...") in *err. INT and MEMORY values
// must lie in [min, max], as in the real host.
bool NormalizeOption(const plinth_option_spec_t& spec, std::string_view text, std::string* out,
                     std::string* err);
// option_get_int's view of a normalized value: INT and MEMORY as is, BOOL as 0/1, ENUM as the
// word's index, STRING when it is a whole decimal integer. False when there is none.
bool OptionAsInt(const plinth_option_spec_t& spec, const std::string& value, int64_t* out);
// Redis-style glob (* ? [abc] [a-z] [^x] \x), optionally case-insensitive.
bool GlobMatch(std::string_view pattern, std::string_view text, bool nocase);
// A whole decimal int64 ("-12"), no spaces or '+'.
bool ParseInt64(std::string_view s, int64_t* out);

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_OPTIONS_H
