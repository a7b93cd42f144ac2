// The error replies only the string and bitmap commands send, with Redis 7.0's exact texts
// (clients and tests match on them; the shared ones are in <plinth/errors.hpp>). Constants only.
#ifndef PLINTH_STRINGS_ERRORS_H
#define PLINTH_STRINGS_ERRORS_H

#include <plinth/errors.hpp>
#include <string_view>

namespace plinth::strings {

inline constexpr std::string_view kErrDecrOverflow = "ERR decrement would overflow";
inline constexpr std::string_view kErrOffsetRange = "ERR offset is out of range";
inline constexpr std::string_view kErrTooBig =
    "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
inline constexpr std::string_view kErrBitOffset =
    "ERR bit offset is not an integer or out of range";
inline constexpr std::string_view kErrBitValue = "ERR bit is not an integer or out of range";
inline constexpr std::string_view kErrBitArg = "ERR The bit argument must be 1 or 0.";
inline constexpr std::string_view kErrBitopNot =
    "ERR BITOP NOT must be called with a single source key.";
inline constexpr std::string_view kErrLcsType = "ERR The specified keys must contain string values";
inline constexpr std::string_view kErrLcsLenIdx =
    "ERR If you want both the length and indexes, please just use IDX.";
inline constexpr std::string_view kErrLcsTooLong = "ERR String too long for LCS";
inline constexpr std::string_view kErrLcsTableLimit =
    "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
inline constexpr std::string_view kErrLcsNoMemory =
    "ERR Insufficient memory, failed allocating transient memory for LCS";

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_ERRORS_H
