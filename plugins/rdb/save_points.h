// The "save" option's save points ("3600 1 300 100 60 10000": after 3600 s if at least one
// change, ...) and the check the cron makes against them. Pure logic, any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::rdb {

struct SavePoint {
  int64_t seconds = 0;
  int64_t changes = 0;
};

// Parses the option's text: pairs of positive integers separated by spaces, or "" for none.
// Returns false with *err on anything else.
bool ParseSavePoints(std::string_view text, std::vector<SavePoint>* out, std::string* err);

// Whether a point is due: at least its changes happened and its seconds passed since the last
// save.
bool SaveDue(const std::vector<SavePoint>& points, uint64_t changes, int64_t seconds_since);

}  // namespace plinth::rdb
