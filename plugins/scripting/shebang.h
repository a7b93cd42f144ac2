// The first line of a script: EVAL's optional "#!lua flags=..." shebang and FUNCTION LOAD's
// mandatory "#!<engine> name=<library>" metadata, parsed with Redis 7.0's rules and error
// texts. Pure; THREAD: any.
#ifndef PLINTH_SCRIPTING_SHEBANG_H
#define PLINTH_SCRIPTING_SHEBANG_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::scripting {

// Script flags (Redis's SCRIPT_FLAG_*).
inline constexpr uint32_t kFlagNoWrites = 0x1;
inline constexpr uint32_t kFlagAllowOom = 0x2;
inline constexpr uint32_t kFlagAllowStale = 0x4;
inline constexpr uint32_t kFlagNoCluster = 0x8;
inline constexpr uint32_t kFlagEvalCompat = 0x10;  // an EVAL script without a shebang
inline constexpr uint32_t kFlagAllowCrossSlot = 0x20;

// The flag of a shebang / register_function flag name ("no-writes", ...), 0 if unknown.
uint32_t ScriptFlagByName(std::string_view name);
// The names of the flags set in flags, in Redis's order (FUNCTION LIST).
std::vector<std::string_view> ScriptFlagNames(uint32_t flags);

// Splits a line into arguments as Redis's sdssplitargs does (spaces, "double quotes" with
// \n \r \t \b \a \xHH escapes, 'single quotes' with \'). Returns false on unbalanced quotes
// or a closing quote not followed by a space.
bool SplitArgs(std::string_view line, std::vector<std::string>* out);

// Reads EVAL's shebang. On success stores the flags (kFlagEvalCompat when body has none) and
// the shebang's length (the code runs from there, keeping the newline so line numbers hold).
// On failure stores the error reply text (Redis's "Invalid script shebang" error, ...).
bool ParseEvalShebang(std::string_view body, uint32_t* flags, size_t* shebang_len,
                      std::string* error);

// FUNCTION LOAD's metadata line.
struct LibraryMeta {
  std::string engine;  // after "#!", as written
  std::string name;
  std::string code;  // the rest, from the newline on
};

// Parses payload's metadata. On failure stores the error text without the "ERR " prefix
// ("Missing library metadata", ...).
bool ParseLibraryMeta(std::string_view payload, LibraryMeta* meta, std::string* error);

// Whether name is a valid library or function name: [A-Za-z0-9_]+.
bool ValidFunctionName(std::string_view name);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_SHEBANG_H
