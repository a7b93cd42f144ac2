// The error replies only the stream commands send, with Redis 7.0's exact texts (the shared
// ones are in <plinth/errors.hpp>). Constants only.
#ifndef PLINTH_STREAM_ERRORS_H
#define PLINTH_STREAM_ERRORS_H

#include <plinth/errors.hpp>
#include <string_view>

namespace plinth::stream {

inline constexpr std::string_view kErrInvalidStart = "ERR invalid start ID for the interval";
inline constexpr std::string_view kErrInvalidEnd = "ERR invalid end ID for the interval";
inline constexpr std::string_view kErrIdTooSmall =
    "ERR The ID specified in XADD is equal or smaller than the target stream top item";
inline constexpr std::string_view kErrIdZero =
    "ERR The ID specified in XADD must be greater than 0-0";
inline constexpr std::string_view kErrExhausted =
    "ERR The stream has exhausted the last possible ID, unable to add more items";
inline constexpr std::string_view kErrTooLarge = "ERR Elements are too large to be stored";
inline constexpr std::string_view kErrMaxMin =
    "ERR syntax error, MAXLEN and MINID options at the same time are not compatible";
inline constexpr std::string_view kErrMaxlenNegative = "ERR The MAXLEN argument must be >= 0.";
inline constexpr std::string_view kErrLimitNegative = "ERR The LIMIT argument must be >= 0.";
inline constexpr std::string_view kErrLimitNoStrategy =
    "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy";
inline constexpr std::string_view kErrTrimNoStrategy =
    "ERR syntax error, XTRIM must be called with a trimming strategy";
inline constexpr std::string_view kErrLimitNoApprox =
    "ERR syntax error, LIMIT cannot be used without the special ~ option";
inline constexpr std::string_view kErrBusyGroup = "BUSYGROUP Consumer Group name already exists";
inline constexpr std::string_view kErrKeyRequired =
    "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to "
    "use the MKSTREAM option to create an empty stream automatically.";

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_ERRORS_H
