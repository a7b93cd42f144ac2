// HSCAN's argument rules, as Redis 7.0 reads them: the cursor (strtoul's syntax) and the
// MATCH / COUNT options. Pure functions, any thread.
#ifndef PLINTH_HASH_SCAN_ARGS_H
#define PLINTH_HASH_SCAN_ARGS_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::hash {

// Parses a SCAN cursor like Redis's parseScanCursorOrReply: strtoul over the text as a C string
// (so an optional sign is taken, "-1" wraps to 2^64-1, "" is 0, an embedded NUL ends it), no
// leading space, nothing after the digits, no overflow. Returns false on any other form.
bool ParseScanCursor(std::string_view s, uint64_t* out);

struct ScanOptions {
  uint64_t count = 10;
  bool has_pattern = false;
  std::string_view pattern;  // a view of the argument
};

// Why ParseScanOptions failed.
enum class ScanArgsError { kNone, kNotInteger, kSyntax };

// Parses "[MATCH pattern] [COUNT count]" (any order, any case, later ones win) from args. A
// COUNT that is not an integer is kNotInteger; below 1, an unknown word or a missing value is
// kSyntax. A pattern of "*" matches everything (has_pattern stays false).
ScanArgsError ParseScanOptions(const std::vector<std::string_view>& args, ScanOptions* out);

}  // namespace plinth::hash

#endif  // PLINTH_HASH_SCAN_ARGS_H
