// Redis-compatible glob matching (KEYS, SCAN MATCH, and any later pattern user).
// Pure function, no state: safe on any thread.
#ifndef PLINTH_COMMON_GLOB_H
#define PLINTH_COMMON_GLOB_H

#include <string_view>

namespace plinth::common {

// Returns true when "subject" matches the glob "pattern" with Redis's rules:
//   *        any run of bytes (also an empty one)
//   ?        exactly one byte
//   [abc]    one byte of the set; [^abc] one byte not in it; [a-z] a range (ends may be given in
//            either order); \x inside a set is a literal x; an unclosed [ runs to the end
//   \x       a literal x (a trailing \ is a literal backslash)
// With nocase, letters compare case-insensitively (an escaped byte inside a set stays exact, as
// in Redis). Like Redis, an empty subject only matches an empty pattern (callers treat the lone
// "*" as "match all" before calling). Runs in O(len(pattern) * len(subject)) at worst; no
// recursion, so hostile patterns cannot blow the stack or take exponential time.
bool GlobMatch(std::string_view pattern, std::string_view subject, bool nocase = false);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_GLOB_H
