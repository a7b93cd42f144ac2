// Reads memory sizes written the Redis way ("512mb", "1gb", "100k", "4096") for the options the
// RESP plugin registers. Pure function; any thread.
#ifndef PLINTH_PLUGINS_RESP_MEMORY_TEXT_H
#define PLINTH_PLUGINS_RESP_MEMORY_TEXT_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace plinth::resp {

// Parses a non-negative byte count with an optional case-insensitive unit: b, k (1000),
// kb (1024), m, mb, g, gb. Returns nullopt on anything else or on overflow.
std::optional<int64_t> ParseMemoryText(std::string_view text);

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_MEMORY_TEXT_H
