// Longest common subsequence of two strings for the LCS command: the classic dynamic
// programming table, walked back from the end to produce the LCS text and the matched ranges
// in the order Redis reports them (last match first). Pure functions; any thread.
#ifndef PLINTH_STRINGS_LCS_H
#define PLINTH_STRINGS_LCS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::strings {

// One contiguous run of matched bytes: a[a_start..a_end] == b[b_start..b_end] (inclusive).
struct LcsMatch {
  uint32_t a_start = 0, a_end = 0;
  uint32_t b_start = 0, b_end = 0;
  uint32_t Length() const { return a_end - a_start + 1; }
};

struct LcsResult {
  uint32_t length = 0;            // length of the LCS
  std::string text;               // the LCS itself (when asked for)
  std::vector<LcsMatch> matches;  // runs of at least min_match_len (when asked for)
};

enum class LcsStatus {
  kOk,
  kTooLong,        // a string is UINT32_MAX - 1 bytes or longer: "String too long for LCS"
  kTableTooLarge,  // the table would exceed max_table_bytes
  kNoMemory,       // the table could not be allocated
};

struct LcsOptions {
  bool want_text = true;                  // fill text
  bool want_matches = false;              // fill matches
  int64_t min_match_len = 0;              // runs shorter than this are left out of matches
  uint64_t max_table_bytes = UINT64_MAX;  // proto-max-bulk-len in the command
};

// Computes the LCS of a and b into *out. The table takes (|a|+1)*(|b|+1)*4 bytes; a larger
// table than options.max_table_bytes is refused without allocating. Never throws.
LcsStatus ComputeLcs(std::string_view a, std::string_view b, const LcsOptions& options,
                     LcsResult* out);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_LCS_H
