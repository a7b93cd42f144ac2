// Memory size text: digits then a unit, as in redis.conf.
#include "memory_text.h"

#include <cctype>
#include <string>

namespace plinth::resp {

std::optional<int64_t> ParseMemoryText(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') digits++;
  if (digits == 0) return std::nullopt;
  std::string unit;
  for (char c : text.substr(digits)) unit.push_back(static_cast<char>(std::tolower(c)));
  int64_t mul = 0;
  if (unit.empty() || unit == "b") {
    mul = 1;
  } else if (unit == "k") {
    mul = 1000;
  } else if (unit == "kb") {
    mul = 1024;
  } else if (unit == "m") {
    mul = 1000 * 1000;
  } else if (unit == "mb") {
    mul = 1024 * 1024;
  } else if (unit == "g") {
    mul = 1000LL * 1000 * 1000;
  } else if (unit == "gb") {
    mul = 1024LL * 1024 * 1024;
  } else {
    return std::nullopt;
  }
  int64_t value = 0;
  for (size_t i = 0; i < digits; i++) {
    const int d = text[i] - '0';
    if (value > (INT64_MAX - d) / 10) return std::nullopt;
    value = value * 10 + d;
  }
  if (value > INT64_MAX / mul) return std::nullopt;
  return value * mul;
}

}  // namespace plinth::resp
