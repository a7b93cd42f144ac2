// Argument rules of SSCAN (Redis 7.0): the cursor's strtoul-style syntax and the MATCH / COUNT
// options (TYPE is SCAN's only). Pure logic, no ABI types. THREAD: any.
#ifndef PLINTH_SET_SCAN_ARGS_H
#define PLINTH_SET_SCAN_ARGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::set {

// Parses a cursor as Redis does (strtoul, base 10): an optional '+' or '-' then digits, read up
// to the first NUL byte; "" is 0 and "-1" wraps to 2^64-1. Leading spaces, junk, a lone sign
// and overflow are refused. Returns false for errors::kInvalidCursor.
bool ParseCursor(std::string_view s, uint64_t* out);

struct ScanOptions {
  uint64_t count = 10;       // COUNT, >= 1
  bool has_pattern = false;  // MATCH given and not the match-all "*"
  std::string_view pattern;  // borrowed from the arguments
};

// Parses "[MATCH pattern] [COUNT count]" in any order, repeats allowed (the last wins).
// Returns false with the reply error in *error.
bool ParseScanOptions(const std::vector<std::string_view>& words, ScanOptions* opts,
                      std::string* error);

}  // namespace plinth::set

#endif  // PLINTH_SET_SCAN_ARGS_H
