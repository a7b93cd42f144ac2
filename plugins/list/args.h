// Argument parsing of the list commands with Redis 7.0's rules: option words, LEFT/RIGHT, the
// blocking timeout (seconds as a long double) and LRANGE-style index ranges. Pure functions
// with no ABI types; THREAD: any.
#ifndef PLINTH_LIST_ARGS_H
#define PLINTH_LIST_ARGS_H

#include <cstdint>
#include <string_view>

namespace plinth::list {

// True when arg names the option upper (given in upper case), ignoring ASCII case; like
// Redis's strcasecmp, bytes after an embedded NUL are not seen.
bool IsToken(std::string_view arg, std::string_view upper);

// Parses LEFT or RIGHT into *left. false for anything else (errors::kSyntax).
bool ParseSide(std::string_view arg, bool* left);

// Parses a blocking timeout given in seconds the way Redis 7.0 does: strtold over the whole
// text (no leading space, no NaN, hex and exponents allowed), times 1000, truncated to whole
// milliseconds (so 0.0001 means "no limit"). On success stores the milliseconds (0: wait
// forever, huge values clamped to about 30000 years) and returns nullptr; otherwise returns the
// error text to reply ("timeout is not a float...", "timeout is negative").
const char* ParseTimeoutMs(std::string_view arg, int64_t* ms);

// Clamps the Redis index range [start, stop] (negative counts from the end) to a list of len
// entries. Returns false when the range is empty; otherwise *first and *count.
bool ClampRange(int64_t start, int64_t stop, uint64_t len, uint64_t* first, uint64_t* count);

}  // namespace plinth::list

#endif  // PLINTH_LIST_ARGS_H
