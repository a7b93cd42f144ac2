// The error replies only the list commands send, with Redis 7.0's exact texts (clients and
// tests match on them; the shared ones are in <plinth/errors.hpp>). Constants only.
#ifndef PLINTH_LIST_ERRORS_H
#define PLINTH_LIST_ERRORS_H

#include <plinth/errors.hpp>
#include <string_view>

namespace plinth::list {

inline constexpr std::string_view kErrIndexRange = "ERR index out of range";
inline constexpr std::string_view kErrRankZero =
    "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
    "negative to start from the end of the list";
inline constexpr std::string_view kErrCountNegative = "ERR COUNT can't be negative";
inline constexpr std::string_view kErrMaxlenNegative = "ERR MAXLEN can't be negative";

}  // namespace plinth::list

#endif  // PLINTH_LIST_ERRORS_H
