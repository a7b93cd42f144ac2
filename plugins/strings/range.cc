// Redis's index range normalization (see range.h).
#include "strings/range.h"

namespace plinth::strings {

IndexRange NormalizeRange(int64_t start, int64_t end, int64_t len,
                          bool empty_if_both_negative_reversed) {
  if (empty_if_both_negative_reversed && start < 0 && end < 0 && start > end) {
    return IndexRange{0, -1};
  }
  // Indexes below -len would overflow nothing here: len >= 0 and start >= INT64_MIN, so
  // len + start stays in range.
  if (start < 0) start = len + start;
  if (end < 0) end = len + end;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= len) end = len - 1;
  return IndexRange{start, end};
}

std::string_view GetRange(std::string_view s, int64_t start, int64_t end) {
  if (s.empty()) return {};
  IndexRange r = NormalizeRange(start, end, static_cast<int64_t>(s.size()), true);
  if (r.Empty()) return {};
  return s.substr(static_cast<size_t>(r.start), static_cast<size_t>(r.end - r.start + 1));
}

}  // namespace plinth::strings
