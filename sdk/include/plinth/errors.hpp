// plinth/errors.hpp - header-only C++17 table of the error replies Redis 7.0 sends from more
// than one command family, with its exact texts: clients, and the tests that compare replies
// with Redis, match on them byte for byte. Reply them as they are (sdk::Call::Error and the
// C ABI's error reply add the leading '-' and the CRLF).
//
// Constants only, standard library only, no ABI types; THREAD: any. A plugin's own texts (one
// command family's) stay in the plugin. The *Prefix constants are the fixed start of a text
// whose end names the command: append it and "' command".
#ifndef PLINTH_ERRORS_HPP
#define PLINTH_ERRORS_HPP

#include <string_view>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one.
#pragma GCC visibility push(hidden)
namespace plinth::errors {

// The key holds another type than the command works on.
inline constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kSyntax = "ERR syntax error";
inline constexpr std::string_view kNoSuchKey = "ERR no such key";

// Numeric arguments and results.
inline constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kOutOfRange = "ERR value is out of range";
inline constexpr std::string_view kNotPositive = "ERR value is out of range, must be positive";
inline constexpr std::string_view kOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kNanOrInf = "ERR increment would produce NaN or Infinity";
// The count of SRANDMEMBER, HRANDFIELD and ZRANDMEMBER outside [-LONG_MAX, LONG_MAX].
inline constexpr std::string_view kRandomCountRange =
    "ERR value is out of range, value must between -9223372036854775807 and "
    "9223372036854775807";
inline constexpr std::string_view kDbIndexOutOfRange = "ERR DB index is out of range";
inline constexpr std::string_view kInvalidCursor = "ERR invalid cursor";

// Counted arguments (numkeys, COUNT, LIMIT).
inline constexpr std::string_view kNumkeysNotPositive = "ERR numkeys should be greater than 0";
inline constexpr std::string_view kNumkeysOverArgs =
    "ERR Number of keys can't be greater than number of args";
inline constexpr std::string_view kCountNotPositive = "ERR count should be greater than 0";
inline constexpr std::string_view kLimitNegative = "ERR LIMIT can't be negative";

// Timeouts: blocking commands (a float of seconds), WAIT and CLIENT PAUSE (integer ms).
inline constexpr std::string_view kTimeoutNotFloat = "ERR timeout is not a float or out of range";
inline constexpr std::string_view kTimeoutNotInteger =
    "ERR timeout is not an integer or out of range";
inline constexpr std::string_view kTimeoutNegative = "ERR timeout is negative";
inline constexpr std::string_view kTimeoutOutOfRange = "ERR timeout is out of range";

// Texts that end with "<command>' command".
inline constexpr std::string_view kWrongArgumentsPrefix = "ERR wrong number of arguments for '";
inline constexpr std::string_view kInvalidExpirePrefix = "ERR invalid expire time in '";

}  // namespace plinth::errors
#pragma GCC visibility pop

#endif  // PLINTH_ERRORS_HPP
