// Option parsing of COPY, MOVE/SELECT-style db indexes, FLUSHDB/FLUSHALL and MEMORY USAGE
// (Redis 7.0 rules and error texts). Pure logic, no ABI types; main thread.
#ifndef PLINTH_KEYS_OPTIONS_H
#define PLINTH_KEYS_OPTIONS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::keys {

// Reads a database index argument: not an integer (or outside int32) gives errors::kNotInteger,
// outside [0, db_count) gives errors::kDbIndexOutOfRange.
bool ParseDbIndex(std::string_view s, int32_t db_count, int32_t* db, std::string* error);

// COPY options after "source destination".
struct CopyOptions {
  int32_t dst_db;        // DB destination-db, or the current db
  bool replace = false;  // REPLACE
};

// Parses "[DB destination-db] [REPLACE]"; opts->dst_db must hold the current db on entry.
bool ParseCopyOptions(const std::vector<std::string_view>& words, int32_t db_count,
                      CopyOptions* opts, std::string* error);

// FLUSHDB / FLUSHALL mode.
enum class FlushMode { kDefault, kSync, kAsync };

// Parses the optional SYNC|ASYNC word (words holds everything after the command name).
bool ParseFlushMode(const std::vector<std::string_view>& words, FlushMode* mode,
                    std::string* error);

// Parses MEMORY USAGE's "[SAMPLES count]" (words after the key). Only validated: sizes are exact.
bool ParseMemoryUsageOptions(const std::vector<std::string_view>& words, std::string* error);

}  // namespace plinth::keys

#endif  // PLINTH_KEYS_OPTIONS_H
