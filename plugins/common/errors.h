// The error replies several plugins send, with Redis 7.0's exact texts (clients and the tests
// that compare replies with Redis match on them byte for byte). A plugin's own texts stay in its
// own folder, and the type plugins (hash, list, set, zset) keep theirs: they include nothing but
// the SDK and their own files (tests/clients/type_plugins_test.py). Constants only.
#ifndef PLINTH_COMMON_ERRORS_H
#define PLINTH_COMMON_ERRORS_H

#include <string_view>

namespace plinth::common {

inline constexpr std::string_view kErrWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kErrSyntax = "ERR syntax error";
inline constexpr std::string_view kErrNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kErrNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kErrOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kErrNanOrInf = "ERR increment would produce NaN or Infinity";
inline constexpr std::string_view kErrNoSuchKey = "ERR no such key";
inline constexpr std::string_view kErrTimeoutNegative = "ERR timeout is negative";

}  // namespace plinth::common

#endif  // PLINTH_COMMON_ERRORS_H
