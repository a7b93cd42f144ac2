// Argument rules of SCAN (Redis 7.0): the cursor's lax strtoul-style syntax and the MATCH /
// COUNT / TYPE options. Pure logic, no ABI types; main thread (called from handlers).
#ifndef PLINTH_KEYS_SCAN_ARGS_H
#define PLINTH_KEYS_SCAN_ARGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::keys {

// Parses a cursor the way Redis does (strtoul, base 10): an optional '+' or '-' then digits; an
// empty string is 0, "-1" wraps to 2^64-1, and parsing stops at a NUL byte. Leading spaces,
// trailing junk and overflow are refused. Returns false for errors::kInvalidCursor.
bool ParseScanCursor(std::string_view s, uint64_t* out);

// SCAN options after the cursor.
struct ScanOptions {
  uint64_t count = 10;       // COUNT: how much work one call may do, >= 1
  bool has_pattern = false;  // MATCH given and not the match-all "*"
  std::string_view pattern;  // MATCH pattern (borrowed from the arguments)
  bool has_type = false;     // TYPE given
  std::string_view type;     // TYPE name, compared case-insensitively
};

// Parses "[MATCH pattern] [COUNT count] [TYPE type]" in any order, repeats allowed (the last
// wins). Returns false with the reply error in *error (syntax error, not an integer).
bool ParseScanOptions(const std::vector<std::string_view>& words, ScanOptions* opts,
                      std::string* error);

}  // namespace plinth::keys

#endif  // PLINTH_KEYS_SCAN_ARGS_H
