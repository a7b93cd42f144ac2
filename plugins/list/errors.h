// The error replies of the list commands, with Redis 7.0's exact texts (clients and tests match
// on them). Constants only.
#ifndef PLINTH_LIST_ERRORS_H
#define PLINTH_LIST_ERRORS_H

#include <string_view>

namespace plinth::list {

inline constexpr std::string_view kErrWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kErrSyntax = "ERR syntax error";
inline constexpr std::string_view kErrNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kErrNotPositive = "ERR value is out of range, must be positive";
inline constexpr std::string_view kErrNoSuchKey = "ERR no such key";
inline constexpr std::string_view kErrIndexRange = "ERR index out of range";
inline constexpr std::string_view kErrRankZero =
    "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
    "negative to start from the end of the list";
inline constexpr std::string_view kErrCountNegative = "ERR COUNT can't be negative";
inline constexpr std::string_view kErrMaxlenNegative = "ERR MAXLEN can't be negative";
inline constexpr std::string_view kErrNumkeys = "ERR numkeys should be greater than 0";
inline constexpr std::string_view kErrCountPositive = "ERR count should be greater than 0";
inline constexpr std::string_view kErrTimeoutFloat = "ERR timeout is not a float or out of range";
inline constexpr std::string_view kErrTimeoutNegative = "ERR timeout is negative";

}  // namespace plinth::list

#endif  // PLINTH_LIST_ERRORS_H
