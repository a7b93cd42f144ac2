// Save points: parsing the option and deciding when one is due.
#include "rdb/save_points.h"

#include <plinth/text.hpp>

namespace plinth::rdb {

bool ParseSavePoints(std::string_view text, std::vector<SavePoint>* out, std::string* err) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  if (words.size() % 2 != 0) {
    *err = "Invalid save parameters";
    return false;
  }
  std::vector<SavePoint> points;
  for (size_t w = 0; w < words.size(); w += 2) {
    int64_t seconds = 0, changes = 0;
    if (!text::ParseInt64(words[w], &seconds) || !text::ParseInt64(words[w + 1], &changes) ||
        seconds < 1 || changes < 0) {
      *err = "Invalid save parameters";
      return false;
    }
    points.push_back({seconds, changes});
  }
  *out = std::move(points);
  return true;
}

bool SaveDue(const std::vector<SavePoint>& points, uint64_t changes, int64_t seconds_since) {
  for (const SavePoint& p : points)
    if (changes >= static_cast<uint64_t>(p.changes) && seconds_since >= p.seconds) return true;
  return false;
}

}  // namespace plinth::rdb
