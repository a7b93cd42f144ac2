// How SLOWLOG and MONITOR show a command: secrets redacted (AUTH's and HELLO's passwords,
// MIGRATE's AUTH, CONFIG SET of a password option), SLOWLOG's arguments cut to 32 and each to
// 128 bytes, MONITOR's line with every argument quoted and escaped. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::diagnostics {

inline constexpr std::string_view kRedacted = "(redacted)";

// One command's arguments as views (argv[0] is the command's name as sent).
using Args = std::vector<std::string_view>;

// Which arguments of args hide a secret: true at those indexes.
std::vector<bool> Redactions(const Args& args);

// SLOWLOG's copy of args: redacted, at most 32 (the 32nd then reads "... (N more arguments)"),
// each cut at 128 bytes followed by "... (N more bytes)".
std::vector<std::string> SlowlogArgs(const Args& args);

// One MONITOR line (without the protocol's '+' and CRLF):
// 1339518083.107412 [0 127.0.0.1:60866] "keys" "*" ; source is the peer address or "lua".
std::string MonitorLine(int64_t unix_us, int32_t db, std::string_view source, const Args& args);

// s quoted as Redis shows a string: in double quotes, with \\, \", \n, \r, \t, \a, \b and \xHH
// for other bytes that are not printable.
void AppendQuoted(std::string* out, std::string_view s);

}  // namespace plinth::diagnostics
