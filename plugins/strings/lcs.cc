// LCS by dynamic programming (see lcs.h). The walk back through the table follows Redis's tie
// rule (move in a when the row above is strictly longer, else in b) so that the text and the
// ranges match what Redis reports for the same inputs.
#include "strings/lcs.h"

#include <memory>
#include <new>

namespace plinth::strings {

LcsStatus ComputeLcs(std::string_view a, std::string_view b, const LcsOptions& options,
                     LcsResult* out) {
  *out = LcsResult{};
  if (a.size() >= UINT32_MAX - 1 || b.size() >= UINT32_MAX - 1) return LcsStatus::kTooLong;
  const uint32_t alen = static_cast<uint32_t>(a.size());
  const uint32_t blen = static_cast<uint32_t>(b.size());
  const uint64_t width = uint64_t{blen} + 1;
  const unsigned __int128 cells = static_cast<unsigned __int128>(uint64_t{alen} + 1) * width;
  const unsigned __int128 bytes = cells * sizeof(uint32_t);
  if (bytes > options.max_table_bytes) return LcsStatus::kTableTooLarge;
  if (bytes > SIZE_MAX / 2) return LcsStatus::kNoMemory;
  std::unique_ptr<uint32_t[]> table(new (std::nothrow) uint32_t[static_cast<size_t>(cells)]);
  if (!table) return LcsStatus::kNoMemory;
  auto at = [&](uint32_t i, uint32_t j) -> uint32_t& { return table[j + i * width]; };

  for (uint32_t i = 0; i <= alen; ++i) {
    for (uint32_t j = 0; j <= blen; ++j) {
      if (i == 0 || j == 0) {
        at(i, j) = 0;
      } else if (a[i - 1] == b[j - 1]) {
        at(i, j) = at(i - 1, j - 1) + 1;
      } else {
        uint32_t up = at(i - 1, j), left = at(i, j - 1);
        at(i, j) = up > left ? up : left;
      }
    }
  }
  out->length = at(alen, blen);
  if (!options.want_text && !options.want_matches) return LcsStatus::kOk;

  if (options.want_text) out->text.assign(out->length, '\0');
  uint32_t idx = out->length;
  bool in_run = false;
  LcsMatch run;
  uint32_t i = alen, j = blen;
  while (i > 0 && j > 0) {
    bool emit = false;
    if (a[i - 1] == b[j - 1]) {
      if (options.want_text) out->text[idx - 1] = a[i - 1];
      if (!in_run) {
        run = LcsMatch{i - 1, i - 1, j - 1, j - 1};
        in_run = true;
      } else if (run.a_start == i && run.b_start == j) {
        --run.a_start;  // the run grows backwards while matches stay contiguous
        --run.b_start;
      } else {
        emit = true;
      }
      // A match on the first byte of either string ends the walk: close the run now.
      if (run.a_start == 0 || run.b_start == 0) emit = true;
      --idx;
      --i;
      --j;
    } else {
      if (at(i - 1, j) > at(i, j - 1)) {
        --i;
      } else {
        --j;
      }
      if (in_run) emit = true;
    }
    if (emit) {
      if (options.want_matches &&
          (options.min_match_len == 0 || int64_t{run.Length()} >= options.min_match_len)) {
        out->matches.push_back(run);
      }
      in_run = false;
    }
  }
  return LcsStatus::kOk;
}

}  // namespace plinth::strings
